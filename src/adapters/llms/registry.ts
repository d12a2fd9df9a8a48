/**
 * Provider name → factory. A mapped type ties each provider to its own config type, so adding a provider to
 * the config schema without a factory here (or the reverse) is a compile error, and no call needs a cast.
 */
import type { Llm } from '../../ports/llm.js';
import { createAnthropicLlm } from './anthropic.js';
import type { LlmConfig, LlmProvider, ProviderLlmConfig } from '../../core/llm-config.js';
import type { LlmHttpOptions } from './http.js';
import { createOpenAiCompatibleLlm } from './openai-compatible.js';

type ConfigOf = { [C in ProviderLlmConfig as C['provider']]: C };

export type LlmFactory<P extends LlmProvider> = (cfg: ConfigOf[P], opts?: LlmHttpOptions) => Llm;

export const LLM_FACTORIES: { [P in LlmProvider]: LlmFactory<P> } = {
  'openai-compatible': createOpenAiCompatibleLlm,
  anthropic: createAnthropicLlm,
};

/** Builds the configured LLM, or undefined for `provider: 'none'` (callers then use their deterministic default). */
export function createLlm(cfg: LlmConfig, opts?: LlmHttpOptions): Llm | undefined {
  if (cfg.provider === 'none') return undefined;
  return build(cfg.provider, cfg, opts);
}

function build<P extends LlmProvider>(provider: P, cfg: ConfigOf[P], opts?: LlmHttpOptions): Llm {
  const factory: LlmFactory<P> = LLM_FACTORIES[provider];
  return factory(cfg, opts);
}
