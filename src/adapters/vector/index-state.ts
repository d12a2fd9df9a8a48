import type { GraphCounts, LayeredFiles } from './hnsw-graph.js';

/** A vector index as saved beside the store (see adapters/storage/sql/index-snapshot.ts). */
export interface VectorIndexState {
  ids: Float64Array;
  /** Row-major f32 vectors, one per id (an index that keeps them in memory). */
  rows?: Float32Array;
  /**
   * An index whose f32 rows are on disk: its i8 rows, their scales and tail norms, and the CRC-32 of the f32 rows
   * written to their own file (`files.rows`), which a restored index reads in place.
   */
  compact?: { rows: Int8Array; scales: Float32Array; tails: Float64Array; rowsCrc: number };
  /** The HNSW graph, saved to its own file(s): its counts, the ids not inserted yet, and how it was written. */
  graph?: GraphCounts & { pending: Float64Array; layered?: LayeredFiles };
}

/** Where a saved index's side files are (written by `exportState`, read by `restoreState`). */
export interface VectorIndexFiles {
  /** The f32 rows of a compact index. */
  rows: string;
  /** A whole graph (`exportState`: where to write it; `restoreState`: the base to view). */
  graph: string;
  /** `restoreState`: the delta graph beside the base, if one was saved. */
  delta?: string | undefined;
}

export interface SavedGraph {
  files: { base: string; delta?: string | undefined; removed?: Float64Array | undefined };
  counts: GraphCounts;
  pending: Float64Array;
}
