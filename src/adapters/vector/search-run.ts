import type { VectorMatrix } from './matrix.js';
import { QueryScorer } from './scorer.js';
import type { TopK } from './top-k.js';

/** Accepts an id (a filter). */
export type Accept = (id: number) => boolean;

export function both(a: Accept | undefined, b: Accept | undefined): Accept | undefined {
  if (!a) return b;
  if (!b) return a;
  return (id) => a(id) && b(id);
}

/** Per-search state: the query, its scorer, and rescoring of candidate ids. */
export class SearchRun {
  readonly scorer: QueryScorer;

  constructor(
    private readonly matrix: VectorMatrix,
    readonly query: Float32Array,
    readonly want: number,
  ) {
    this.scorer = new QueryScorer(matrix, query);
  }

  /**
   * Scores candidate ids from the matrix (exact f32, or the i8 estimate once compact: `search` then rescores the
   * survivors in f32) and pushes those that are present and pass the filters.
   */
  pushAll(ids: readonly number[], top: TopK, admit?: Accept, accept?: Accept): void {
    const m = this.matrix;
    for (const id of ids) {
      if (admit && !admit(id)) continue;
      const slot = m.slot(id);
      if (slot === undefined) continue;
      const score = this.scorer.score(slot);
      if (score <= top.floor()) continue;
      if (accept && !accept(id)) continue;
      top.push(id, score);
    }
  }
}
