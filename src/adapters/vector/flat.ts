import type { VectorHit, VectorIndex, VectorSearchOptions } from '../../ports/vector-index.js';
import { VectorMatrix } from './matrix.js';
import { QueryScorer } from './scorer.js';
import { TopK } from './top-k.js';

export { TopK } from './top-k.js';

/** How many results a search for `k` can return from `size` vectors (0 for a non-positive or NaN k). */
export function resultCount(k: number, size: number): number {
  const want = Math.min(Math.floor(k), size);
  return want > 0 ? want : 0;
}

/**
 * Exact scan in plain TypeScript over one contiguous Float32Array. Always available (no dependencies);
 * the reference every other index is measured against and the fallback when usearch cannot load.
 */
export class FlatVectorIndex implements VectorIndex {
  readonly approximate = false;
  private readonly matrix: VectorMatrix;

  constructor(
    readonly dimension: number,
    initialCapacity = 1024,
  ) {
    this.matrix = new VectorMatrix(dimension, initialCapacity);
  }

  get size(): number {
    return this.matrix.size;
  }

  has(id: number): boolean {
    return this.matrix.has(id);
  }

  add(id: number, vector: Float32Array): void {
    this.matrix.set(id, vector);
  }

  remove(id: number): void {
    this.matrix.delete(id);
  }

  clear(): void {
    this.matrix.clear();
  }

  /** The ids and f32 rows (copied); see UsearchVectorIndex.exportState. */
  exportState(): { ids: Float64Array; rows: Float32Array } {
    return { ids: this.matrix.ids.slice(0, this.matrix.size), rows: this.matrix.allFullRows() };
  }

  restoreState(state: { ids: Float64Array; rows: Float32Array }): void {
    this.matrix.adopt(state.ids, state.rows);
  }

  search(query: Float32Array, k: number, opts: VectorSearchOptions = {}): VectorHit[] {
    this.matrix.checkVector(query, 'query');
    const top = new TopK(resultCount(k, this.matrix.size));
    if (top.floor() === Infinity) return [];
    const scorer = new QueryScorer(this.matrix, query);
    const { allowed, accept } = opts;
    if (allowed && allowed.size < this.matrix.size) {
      scorer.scanIds(allowed, top, accept);
    } else {
      scorer.scanAll(top, accept, allowed);
    }
    return top.sorted();
  }
}
