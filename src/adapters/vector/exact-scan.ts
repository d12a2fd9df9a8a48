import { adapterError } from '../../core/errors.js';
import type { VectorHit } from '../../ports/vector-index.js';
import { quantizeRow, type VectorMatrix } from './matrix.js';
import { subsetBeatsSimd } from './search-plan.js';
import type { Accept, SearchRun } from './search-run.js';
import { TopK } from './top-k.js';
import type { UsearchMatches, UsearchModule } from './usearch-module.js';

/** Exact searches over the whole matrix with usearch's SIMD scan: the index's answer below the graph and its fallback. */
export class ExactScan {
  constructor(
    private readonly usearch: UsearchModule,
    private readonly matrix: VectorMatrix,
    private readonly dimension: number,
  ) {}

  /** The `count` nearest ids over the whole matrix. */
  ids(query: Float32Array, count: number): number[] {
    // exactSearch reads from the buffer start, so a query that is a view into a larger buffer is copied.
    const rows = this.matrix.rows();
    let q: Float32Array | Int8Array = query.byteOffset === 0 ? query : query.slice();
    if (rows instanceof Int8Array) {
      // i8 rows carry per-row scales, which cosine ignores; on unit vectors cosine ranks as the inner product.
      q = new Int8Array(this.dimension);
      quantizeRow(query, 0, this.dimension, q, 0);
    }
    let m: UsearchMatches;
    try {
      m = this.usearch.exactSearch(rows as Float32Array, q as Float32Array, this.dimension, count, rows instanceof Int8Array ? 'cos' : 'ip', 1);
    } catch (e) {
      throw adapterError('usearch exact search failed', e);
    }
    const ids = this.matrix.ids;
    const out: number[] = [];
    for (let i = 0; i < m.keys.length; i++) out.push(ids[Number(m.keys[i]!)]!);
    return out;
  }

  /** The exact answer restricted to `eligible` (every id in it is present and passed the filters). */
  overEligible(s: SearchRun, eligible: Set<number>): VectorHit[] {
    const top = new TopK(Math.min(s.want, eligible.size));
    if (subsetBeatsSimd(eligible.size, this.matrix.size)) {
      s.scorer.scanIds(eligible, top);
      return top.sorted();
    }
    const admit: Accept = (id) => eligible.has(id);
    const size = this.matrix.size;
    const first = Math.min(size, Math.ceil((2 * s.want * size) / eligible.size) + s.want);
    s.pushAll(this.ids(s.query, first), top, admit);
    if (top.length < Math.min(s.want, eligible.size) && first < size) {
      const all = new TopK(Math.min(s.want, eligible.size));
      s.pushAll(this.ids(s.query, size), all, admit);
      return all.sorted();
    }
    return top.sorted();
  }

  /** The present ids that pass both filters. */
  eligible(allowed: ReadonlySet<number> | undefined, accept: Accept | undefined): Set<number> {
    const out = new Set<number>();
    const ids: Iterable<number> = allowed && allowed.size < this.matrix.size ? allowed : this.matrix.idList();
    for (const id of ids) {
      if (!this.matrix.has(id) || (allowed && !allowed.has(id)) || (accept && !accept(id))) continue;
      out.add(id);
    }
    return out;
  }
}
