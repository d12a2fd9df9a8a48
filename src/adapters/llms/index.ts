export { createAnthropicLlm, ANTHROPIC_VERSION, type AnthropicLlmInput } from './anthropic.js';
export { DEFAULT_BACKOFF, type BackoffOptions } from './backoff.js';
export {
  llmConfigSchema,
  parseLlmConfig,
  type AnthropicLlmConfig,
  type LlmConfig,
  type LlmConfigInput,
  type LlmProvider,
  type OpenAiCompatibleLlmConfig,
} from '../../core/llm-config.js';
export { generateObject, type GenerateObjectOptions } from './generate-object.js';
export type { LlmHttpOptions } from './http.js';
export { createOpenAiCompatibleLlm, type OpenAiCompatibleLlmInput } from './openai-compatible.js';
export { createLlm, LLM_FACTORIES, type LlmFactory } from './registry.js';
