import type { VectorMatrix } from './matrix.js';
import type { TopK } from './top-k.js';

/** Slack for float rounding when a bound decides to skip a row: a skipped row can never have entered. */
const BOUND_SLACK = 1e-9;

/** Sum of a[base+j]·b[j] for j in [from, to); `to − from` is a multiple of 4 except for the final range. */
function dotRange(a: Float32Array | Int8Array, base: number, b: Float32Array, from: number, to: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let j = from;
  // Four independent accumulators let the CPU overlap the multiply-adds (plain JS has no SIMD).
  for (; j + 3 < to; j += 4) {
    const o = base + j;
    s0 += a[o]! * b[j]!;
    s1 += a[o + 1]! * b[j + 1]!;
    s2 += a[o + 2]! * b[j + 2]!;
    s3 += a[o + 3]! * b[j + 3]!;
  }
  for (; j < to; j++) s0 += a[base + j]! * b[j]!;
  return s0 + s1 + s2 + s3;
}

function tailNorm(v: Float32Array, from: number): number {
  let s = 0;
  for (let j = from; j < v.length; j++) s += v[j]! ** 2;
  return Math.sqrt(s);
}

/**
 * Scores rows of a `VectorMatrix` against one query. Every score in the engine's in-process indexes comes
 * from `score`, so two indexes that return the same id return the same score.
 *
 * `scoreAbove` stops early when a row cannot beat a floor: after the first quarter (and half) of the
 * dimensions, Cauchy–Schwarz bounds the rest by ‖x_tail‖·‖q_tail‖. Most rows of a real embedding set
 * fail that bound once the top-k heap is full, so they cost a quarter of a full dot product.
 */
export class QueryScorer {
  private readonly c1: number;
  private readonly c2: number;
  private readonly q1: number;
  private readonly q2: number;
  private readonly bounded: boolean;

  constructor(
    private readonly matrix: VectorMatrix,
    private readonly query: Float32Array,
  ) {
    const cp = matrix.checkpoints;
    this.bounded = cp !== null;
    this.c1 = cp ? cp[0] : 0;
    this.c2 = cp ? cp[1] : 0;
    this.q1 = cp ? tailNorm(query, cp[0]) : 0;
    this.q2 = cp ? tailNorm(query, cp[1]) : 0;
  }

  /** The exact score of the row in `slot` (of its i8 row once the matrix is compact: an estimate then). */
  score(slot: number): number {
    const m = this.matrix;
    const d = m.dimension;
    const base = slot * d;
    const f = m.scales ? m.scales[slot]! : 1;
    if (!this.bounded) return dotRange(m.data, base, this.query, 0, d) * f;
    return (
      (dotRange(m.data, base, this.query, 0, this.c1) +
        dotRange(m.data, base, this.query, this.c1, this.c2) +
        dotRange(m.data, base, this.query, this.c2, d)) *
      f
    );
  }

  /** The exact score of `slot` when it can exceed `floor`, else −∞ (computed with the same sums as `score`). */
  scoreAbove(slot: number, floor: number): number {
    if (!this.bounded || floor === -Infinity) return this.score(slot);
    const m = this.matrix;
    const data = m.data;
    const q = this.query;
    const base = slot * m.dimension;
    const f = m.scales ? m.scales[slot]! : 1;
    const a = dotRange(data, base, q, 0, this.c1);
    if (a * f + m.tails[slot * 2]! * this.q1 + BOUND_SLACK <= floor) return -Infinity;
    const b = dotRange(data, base, q, this.c1, this.c2);
    if ((a + b) * f + m.tails[slot * 2 + 1]! * this.q2 + BOUND_SLACK <= floor) return -Infinity;
    return (a + b + dotRange(data, base, q, this.c2, m.dimension)) * f;
  }

  /**
   * Pushes every live row in `allowed` (when given; checked before scoring, it is cheap) that passes
   * `accept` (checked only for rows good enough to enter, it may be costly) into `top`.
   */
  scanAll(top: TopK, accept?: (id: number) => boolean, allowed?: ReadonlySet<number>): void {
    const m = this.matrix;
    const ids = m.ids;
    const n = m.size;
    for (let slot = 0; slot < n; slot++) {
      const id = ids[slot]!;
      if (allowed && !allowed.has(id)) continue;
      const score = this.scoreAbove(slot, top.floor());
      if (score === -Infinity || score <= top.floor()) continue;
      if (accept && !accept(id)) continue;
      top.push(id, score);
    }
  }

  /** Pushes the listed ids that are present and pass `accept` into `top`. */
  scanIds(ids: Iterable<number>, top: TopK, accept?: (id: number) => boolean): void {
    const m = this.matrix;
    for (const id of ids) {
      const slot = m.slot(id);
      if (slot === undefined) continue;
      const score = this.scoreAbove(slot, top.floor());
      if (score === -Infinity || score <= top.floor()) continue;
      if (accept && !accept(id)) continue;
      top.push(id, score);
    }
  }
}
