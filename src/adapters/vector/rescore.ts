import type { VectorHit } from '../../ports/vector-index.js';
import { VectorMatrix } from './matrix.js';
import { QueryScorer } from './scorer.js';
import { TopK } from './top-k.js';

/**
 * Candidates selected by approximate scores (i8 rows, or the graph's f16 copy) per result wanted, before they
 * are rescored in f32. Four per result, at least 40: on clustered 512-d sets the exact top 10 is then inside
 * the candidates (docs/benchmarks.md, "f32 on disk").
 */
export const RESCORE_FACTOR = 4;
export const RESCORE_MIN = 40;

export function rescoreWidth(want: number, size: number): number {
  return Math.min(size, Math.max(want * RESCORE_FACTOR, RESCORE_MIN));
}

/**
 * The `want` best of `ids` by their exact f32 scores against `query`; `rows` holds their f32 vectors in the
 * same order. Scores are computed as every f32 score in the index is (QueryScorer), so an id scores the same
 * whether it came from memory or from disk.
 */
export function rescoreExact(ids: readonly number[], rows: Float32Array, query: Float32Array, want: number): VectorHit[] {
  const m = new VectorMatrix(query.length, Math.max(1, ids.length));
  m.adopt(Float64Array.from(ids), rows);
  const scorer = new QueryScorer(m, query);
  const top = new TopK(want);
  for (let slot = 0; slot < ids.length; slot++) top.push(ids[slot]!, scorer.score(slot));
  return top.sorted();
}
