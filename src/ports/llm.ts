/**
 * The LLM port. An LLM is optional everywhere in Engram: every step that can use one (summaries, fact
 * extraction, importance, conflict resolution, reranking) has a deterministic default, and calls a model only
 * through this interface when one is configured. Structured output goes through `generateObject`
 * (src/adapters/llms/generate-object.ts), which uses `completeJson` when the provider has a native mechanism.
 */

export interface LlmMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface LlmRequest {
  system?: string;
  /** Alternating turns, starting with `user`. */
  messages: LlmMessage[];
  maxTokens?: number;
  temperature?: number;
  /** Cancels the call, including any retry back-off in progress. */
  signal?: AbortSignal;
}

export interface LlmUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface LlmResponse {
  text: string;
  usage?: LlmUsage;
}

/** A JSON Schema document whose root is `{ type: 'object', … }` (both native mechanisms require an object root). */
export type JsonSchemaObject = Readonly<Record<string, unknown>>;

export interface LlmJsonRequest extends LlmRequest {
  /** Schema/tool name: 1–64 of `[a-zA-Z0-9_-]`. */
  name: string;
  description?: string;
  schema: JsonSchemaObject;
  /** Ask for strict schema adherence where the provider supports it (OpenAI `strict`). */
  strict: boolean;
}

export interface Llm {
  /** Provider name, e.g. `openai-compatible` or `anthropic`. */
  readonly name: string;
  readonly model: string;
  complete(req: LlmRequest): Promise<LlmResponse>;
  /**
   * Native structured output (JSON-schema response format, forced tool call …). `text` is the JSON the model
   * produced, not yet validated. Optional: `generateObject` falls back to `complete` with the schema in the prompt.
   */
  completeJson?(req: LlmJsonRequest): Promise<LlmResponse>;
}
