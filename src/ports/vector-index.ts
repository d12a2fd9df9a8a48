/**
 * An in-process nearest-neighbour index over unit vectors, keyed by an integer id (a storage doc id).
 * Used by adapters whose engine has no vector search of its own (SQLite, PostgreSQL without pgvector).
 */
export interface VectorHit {
  id: number;
  /** Cosine similarity (dot product of unit vectors). */
  score: number;
}

export interface VectorSearchOptions {
  /** Only these ids may be returned. A small set is scanned exactly. */
  allowed?: ReadonlySet<number>;
  /** Further per-id test (e.g. scope or expiry checks) applied before an id counts towards k. */
  accept?: (id: number) => boolean;
}

export interface VectorIndex {
  readonly dimension: number;
  readonly size: number;
  /** True when results can differ from an exact scan (an ANN structure is in use at this size). */
  readonly approximate: boolean;
  /** Adds or replaces the vector for `id`. The vector must have `dimension` entries and unit length. */
  add(id: number, vector: Float32Array): void;
  remove(id: number): void;
  has(id: number): boolean;
  /** The k best ids by cosine, best first. */
  search(query: Float32Array, k: number, opts?: VectorSearchOptions): VectorHit[];
  clear(): void;
  /** Finishes any background index building now (blocking); afterwards searches use the full ANN index. */
  flush?(): void;
}
