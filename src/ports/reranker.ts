export interface RerankCandidate {
  id: string;
  text: string;
}

export interface RerankScore {
  id: string;
  /** Higher is more relevant; comparable only within one call. Normalised to 0..1 by the caller. */
  score: number;
}

/** Re-scores (query, document) pairs jointly, as a cross-encoder does. */
export interface Reranker {
  readonly name: string;
  rerank(query: string, candidates: readonly RerankCandidate[], opts?: { model?: string; signal?: AbortSignal }): Promise<RerankScore[]>;
}
