import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FlatVectorIndex, TopK } from './flat.js';
import { byScoreThenId } from './top-k.js';
import { vectorIndexContract } from './vector-index-contract.test-support.js';

vectorIndexContract('FlatVectorIndex', {
  make: (dim) => new FlatVectorIndex(dim, 16),
  exact: true,
  bulkSize: 2500,
});

describe('FlatVectorIndex', () => {
  it('is never approximate', () => {
    const index = new FlatVectorIndex(4);
    index.add(1, Float32Array.of(1, 0, 0, 0));
    expect(index.approximate).toBe(false);
  });
});

describe('TopK', () => {
  it('keeps the k highest scores, best first, ties by ascending id', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: -50, max: 50 }), fc.integer({ min: 0, max: 8 })), { maxLength: 80 }),
        fc.integer({ min: 0, max: 12 }),
        (items, k) => {
          // Distinct ids; a small score range forces ties.
          const hits = items.map(([id, s], i) => ({ id: id * 100 + i, score: s / 4 }));
          const top = new TopK(k);
          for (const h of hits) top.push(h.id, h.score);
          const got = top.sorted();
          const want = [...hits].sort((a, b) => b.score - a.score || a.id - b.id).slice(0, k);
          expect(got.map((h) => h.score)).toEqual(want.map((h) => h.score));
          // Among ties at the boundary the lower ids stay: the k best are the first k of any larger k's.
          expect(got).toEqual(want);
          expect(got).toHaveLength(Math.min(k, hits.length));
          expect(got).toEqual([...got].sort(byScoreThenId));
        },
      ),
    );
  });

  it('admits nothing when k is 0', () => {
    const top = new TopK(0);
    top.push(1, 5);
    expect(top.floor()).toBe(Infinity);
    expect(top.sorted()).toEqual([]);
  });
});
