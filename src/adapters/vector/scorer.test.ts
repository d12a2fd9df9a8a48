import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkpointsFor, VectorMatrix } from './matrix.js';
import { QueryScorer } from './scorer.js';

const vectorOf = (dim: number) =>
  fc.float32Array({ minLength: dim, maxLength: dim, noNaN: true, noDefaultInfinity: true, min: -4, max: 4 });

describe('QueryScorer', () => {
  it('places checkpoints on multiples of 4, only for dimensions of 32 and more', () => {
    expect(checkpointsFor(31)).toBeNull();
    expect(checkpointsFor(512)).toEqual([128, 256]);
    expect(checkpointsFor(50)).toEqual([12, 24]);
  });

  it('scores like a float64 dot product', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 70 }).chain((d) => fc.tuple(vectorOf(d), vectorOf(d))), ([x, q]) => {
        const m = new VectorMatrix(x.length);
        m.set(1, x);
        let want = 0;
        for (let j = 0; j < x.length; j++) want += x[j]! * q[j]!;
        expect(new QueryScorer(m, q).score(0)).toBeCloseTo(want, 6);
      }),
    );
  });

  it('skips a row only when it cannot beat the floor, and otherwise returns the exact score', () => {
    const dim = 40;
    fc.assert(
      fc.property(fc.array(vectorOf(dim), { minLength: 1, maxLength: 20 }), vectorOf(dim), fc.double({ min: -20, max: 20, noNaN: true }), (rows, q, floor) => {
        const m = new VectorMatrix(dim, 2);
        rows.forEach((r, i) => m.set(i, r));
        const s = new QueryScorer(m, q);
        for (let slot = 0; slot < m.size; slot++) {
          const full = s.score(slot);
          const bounded = s.scoreAbove(slot, floor);
          if (bounded === -Infinity) expect(full).toBeLessThanOrEqual(floor);
          else expect(bounded).toBe(full);
        }
      }),
    );
  });

  it('keeps tail norms right when a removal moves the last row', () => {
    const dim = 32;
    const m = new VectorMatrix(dim, 2);
    const a = new Float32Array(dim).fill(0);
    a[0] = 1;
    const b = new Float32Array(dim).fill(0);
    b[31] = 1;
    m.set(10, a);
    m.set(20, b);
    m.delete(10);
    expect(m.slot(20)).toBe(0);
    const s = new QueryScorer(m, b);
    // With a stale tail norm of 0 the bound would wrongly skip the only row that matches.
    expect(s.scoreAbove(0, 0.5)).toBeCloseTo(1, 6);
  });
});
