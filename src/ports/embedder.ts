export interface EmbedOptions {
  signal?: AbortSignal;
  priority?: 'query' | 'background';
}

/** Turns text into unit-length vectors. The dimension comes from the model, never from a constant. */
export interface Embedder {
  /** Identifies model and version; part of the embedding cache key, so a model change re-embeds. */
  readonly model: string;
  /** Loads the model (or probes the server) and reports its dimension. Idempotent. */
  init(): Promise<{ dimension: number }>;
  /** Valid after `init`. */
  readonly dimension: number;
  /**
   * Embeds a batch; the result has one L2-normalised vector per input, in order. `priority: 'query'` is a
   * reader waiting on the answer (a search's query): engines with a local queue serve it before background
   * indexing batches queued earlier.
   */
  embed(texts: readonly string[], opts?: EmbedOptions): Promise<Float32Array[]>;
  close(): Promise<void>;
}
