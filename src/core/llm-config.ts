/**
 * LLM provider configuration. Additive to the engine config: `engramConfigSchema` takes it as
 * `llm: llmConfigSchema.default({ provider: 'none' })`. Defaults live here and nowhere else.
 */
import { z } from 'zod';
import { parseWith } from './validate.js';

/** Settings every HTTP provider shares: per-attempt timeout and bounded retries. */
const transport = {
  /** Per attempt, including reading the body. A call may take up to (maxRetries + 1) × timeoutMs plus back-off. */
  timeoutMs: z.number().int().positive().max(600_000).default(60_000),
  /** Extra attempts after a 408/429/5xx, a network error or a timeout. 0 disables retries. */
  maxRetries: z.number().int().min(0).max(10).default(2),
};

export const noLlmConfigSchema = z.object({ provider: z.literal('none') }).strict();

export const openAiCompatibleLlmConfigSchema = z
  .object({
    provider: z.literal('openai-compatible'),
    /** API root, e.g. `https://api.openai.com/v1`, `http://127.0.0.1:11434/v1` (Ollama), vLLM or llama.cpp server. */
    baseUrl: z.url(),
    model: z.string().min(1).max(200),
    apiKey: z.string().min(1).optional(),
    /** Used when a call does not set `maxTokens`. Unset leaves the server's default. */
    maxTokens: z.number().int().positive().optional(),
    /**
     * Name of the output-length field. `max_tokens` works on every compatible server; OpenAI's reasoning
     * models (o-series, gpt-5) accept only `max_completion_tokens`.
     */
    maxTokensField: z.enum(['max_tokens', 'max_completion_tokens']).default('max_tokens'),
    ...transport,
  })
  .strict();

export const anthropicLlmConfigSchema = z
  .object({
    provider: z.literal('anthropic'),
    /** API root without `/v1`. */
    baseUrl: z.url().default('https://api.anthropic.com'),
    model: z.string().min(1).max(200),
    apiKey: z.string().min(1),
    /** Anthropic requires `max_tokens` on every call; used when a call does not set `maxTokens`. */
    maxTokens: z.number().int().positive().default(1024),
    ...transport,
  })
  .strict();

export const llmConfigSchema = z.discriminatedUnion('provider', [
  noLlmConfigSchema,
  openAiCompatibleLlmConfigSchema,
  anthropicLlmConfigSchema,
]);

export type LlmConfigInput = z.input<typeof llmConfigSchema>;
export type LlmConfig = z.output<typeof llmConfigSchema>;
export type OpenAiCompatibleLlmConfig = z.output<typeof openAiCompatibleLlmConfigSchema>;
export type AnthropicLlmConfig = z.output<typeof anthropicLlmConfigSchema>;
/** Configurations that name a real provider (everything but `none`). */
export type ProviderLlmConfig = Exclude<LlmConfig, { provider: 'none' }>;
export type LlmProvider = ProviderLlmConfig['provider'];

export function parseLlmConfig(input: unknown): LlmConfig {
  return parseWith(llmConfigSchema, input ?? { provider: 'none' }, { what: 'llm config', prefix: 'llm', code: 'CONFIG' });
}
