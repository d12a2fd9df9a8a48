import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AGREED_SHARE, agreedEvidence, calibrateLexical, calibrateVector, fuse, fuseEvidence, LEXICAL_STANDOUT, lexicalCeiling, lexicalEvidence, lexicalStandout, vectorEvidence } from './fuse.js';

/** A pool of n cosines spread evenly over [lo, hi]. */
const spread = (n: number, lo: number, hi: number) => Array.from({ length: n }, (_, i) => lo + ((hi - lo) * i) / Math.max(1, n - 1));

describe('calibrateVector', () => {
  it('measures the pool and uses midpoint 3 for full pools', () => {
    const cal = calibrateVector(spread(50, 0.2, 0.4))!;
    expect(cal.mean).toBeCloseTo(0.3, 10);
    expect(cal.midpoint).toBe(3);
  });

  it('lowers the midpoint for small pools, where no point can reach z = 3', () => {
    const cal = calibrateVector([0.1, 0.15, 0.2, 0.7])!;
    expect(cal.midpoint).toBeLessThan(1);
    // The outlier of a 4-doc corpus still counts as clearly relevant.
    expect(vectorEvidence(0.7, cal)).toBeGreaterThan(0.6);
    expect(vectorEvidence(0.1, cal)).toBeLessThan(0.3);
  });

  it('floors the spread so identical cosines do not explode z', () => {
    const cal = calibrateVector(Array(20).fill(0.5))!;
    expect(cal.std).toBeGreaterThan(0);
    expect(Number.isFinite(vectorEvidence(0.5001, cal))).toBe(true);
  });

  it('is undefined for an empty pool', () => {
    expect(calibrateVector([])).toBeUndefined();
  });
});

describe('vectorEvidence', () => {
  it('depends on how far a doc stands out of its query pool, not on the raw cosine', () => {
    // Same raw cosine 0.6: an outlier in a low pool, ordinary in a high pool.
    const low = calibrateVector(spread(50, 0.1, 0.3))!;
    const high = calibrateVector(spread(50, 0.5, 0.7))!;
    expect(vectorEvidence(0.6, low)).toBeGreaterThan(0.9);
    expect(vectorEvidence(0.6, high)).toBeLessThan(0.1);
  });

  it('is monotone in the cosine', () => {
    const cal = calibrateVector(spread(30, 0.2, 0.5))!;
    fc.assert(
      fc.property(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), (a, b) => {
        const [x, y] = a <= b ? [a, b] : [b, a];
        expect(vectorEvidence(x, cal)).toBeLessThanOrEqual(vectorEvidence(y, cal));
      }),
    );
  });
});

describe('lexicalEvidence', () => {
  it('is the share of the query ceiling, clamped to 0..1', () => {
    expect(lexicalEvidence(3, 12)).toBeCloseTo(0.25, 12);
    expect(lexicalEvidence(20, 12)).toBe(1);
    expect(lexicalEvidence(0, 12)).toBe(0);
    expect(lexicalEvidence(2, 0)).toBe(1);
    expect(lexicalEvidence(0, 0)).toBe(0);
  });

  it('takes the exact code share when it is higher than the BM25 share', () => {
    expect(lexicalEvidence(1, 10, 1)).toBe(1);
    expect(lexicalEvidence(8, 10, 0.5)).toBeCloseTo(0.8, 12);
  });
});

describe('lexicalCeiling', () => {
  it('sums the terms\' best scores and counts an unmatched term as the rarest matched one', () => {
    expect(lexicalCeiling([2, 5, 1])).toBe(8);
    expect(lexicalCeiling([2, 0, 5, 0])).toBe(2 + 5 + 2 * 5);
    expect(lexicalCeiling([0, 0])).toBe(0);
    expect(lexicalCeiling([])).toBe(0);
  });

  it('keeps a doc that shares one stray word with a long query low', () => {
    // 12 query words, only "was" occurs in the corpus (in one doc, so it looks rare).
    const best = [3.1, ...Array(11).fill(0)];
    expect(lexicalEvidence(3.1, lexicalCeiling(best))).toBeLessThan(0.1);
  });
});

describe('fuseEvidence', () => {
  it('is a noisy-OR: either signal alone counts, agreement counts more', () => {
    expect(fuseEvidence(0.8, 0)).toBeCloseTo(0.8, 12);
    expect(fuseEvidence(0, 0.8)).toBeCloseTo(0.8, 12);
    expect(fuseEvidence(0.5, 0.5)).toBeCloseTo(0.75, 12);
    expect(fuseEvidence(null, 0.3)).toBeCloseTo(0.3, 12);
    expect(fuseEvidence(null, null)).toBeNull();
  });

  it('stays in 0..1 and never falls below either input', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (v, l) => {
        const r = fuseEvidence(v, l)!;
        expect(r).toBeGreaterThanOrEqual(Math.max(v, l) - 1e-12);
        expect(r).toBeLessThanOrEqual(1);
      }),
    );
  });
});

describe('fuse', () => {
  // A 40-doc pool of unrelated memories around cosine 0.3, with a few candidates of interest.
  const background = spread(40, 0.2, 0.4);

  it("scales each doc's vector evidence by the share it keeps (the question form), and nothing else", () => {
    const input = { cosines: new Map([[1, 0.6], [2, 0.6], [3, 0.6]]), vectorPool: [0.6, 0.6, 0.6, ...background], lexical: new Map([[1, 3]]), lexicalCeiling: 10 };
    const plain = fuse([1, 2, 3], input);
    const kept = fuse([1, 2, 3], { ...input, vectorKeep: new Map([[1, 0], [2, 0.5]]) });
    expect(plain.get(1)!.vector).toBeGreaterThan(0.5);
    expect(kept.get(1)!.vector).toBe(0);
    expect(kept.get(1)!.lexical).toBe(plain.get(1)!.lexical);
    expect(kept.get(1)!.relevance).toBeCloseTo(plain.get(1)!.lexical!, 12);
    expect(kept.get(2)!.vector).toBeCloseTo(plain.get(2)!.vector! / 2, 12);
    expect(kept.get(3)).toEqual(plain.get(3));
  });

  it('a paraphrase (vector outlier, no shared words) beats a doc sharing only common words', () => {
    const paraphrase = 1;
    const wordy = 2;
    const fused = fuse([paraphrase, wordy], {
      cosines: new Map([
        [paraphrase, 0.62],
        [wordy, 0.33],
      ]),
      vectorPool: [0.62, ...background],
      // The wordy doc matches "the", "what" and "did": low-IDF terms, a small share of the ceiling.
      lexical: new Map([[wordy, 1.1]]),
      lexicalCeiling: 14,
    });
    expect(fused.get(paraphrase)!.lexical).toBe(0);
    expect(fused.get(paraphrase)!.relevance!).toBeGreaterThan(fused.get(wordy)!.relevance! + 0.3);
  });

  it('a rare exact term (lexical) beats the nearest vector neighbour that lacks it', () => {
    const exact = 1;
    const nearest = 2;
    const fused = fuse([exact, nearest], {
      cosines: new Map([
        [exact, 0.31],
        [nearest, 0.42],
      ]),
      vectorPool: [0.42, ...background],
      // The error code is the rarest term: holding it is most of what the query can score.
      lexical: new Map([[exact, 9.5]]),
      lexicalCeiling: 11,
    });
    expect(fused.get(exact)!.vector!).toBeLessThan(fused.get(nearest)!.vector!);
    expect(fused.get(exact)!.relevance!).toBeGreaterThan(fused.get(nearest)!.relevance!);
  });

  it('marks a signal that did not run as null and one that ran without a hit as 0', () => {
    const lexicalOnly = fuse([1, 2], { lexical: new Map([[1, 4]]), lexicalCeiling: 8 });
    expect(lexicalOnly.get(1)).toEqual({ vector: null, lexical: 0.5, relevance: 0.5 });
    expect(lexicalOnly.get(2)).toEqual({ vector: null, lexical: 0, relevance: 0 });
    const vectorOnly = fuse([1], { cosines: new Map([[1, 0.5]]), vectorPool: [0.5, 0.1, 0.2] });
    expect(vectorOnly.get(1)!.lexical).toBeNull();
    expect(vectorOnly.get(1)!.relevance).toBe(vectorOnly.get(1)!.vector);
  });

  it('leaves vector null for a doc whose embedding is unknown', () => {
    const fused = fuse([1, 2], { cosines: new Map([[1, 0.5]]), vectorPool: [0.5, 0.3], lexical: new Map([[2, 3]]), lexicalCeiling: 3 });
    expect(fused.get(2)).toEqual({ vector: null, lexical: 1, relevance: 1 });
  });
});

describe('lexical reliability weight', () => {
  it('scales the BM25 share of every doc of the query', () => {
    expect(lexicalEvidence(3, 12, 0, 0.5)).toBeCloseTo(0.125, 12);
    const whole = fuse([1, 2], { lexical: new Map([[1, 6]]), lexicalCeiling: 12 });
    const halved = fuse([1, 2], { lexical: new Map([[1, 6]]), lexicalCeiling: 12, lexicalWeight: 0.5 });
    expect(whole.get(1)!.lexical).toBeCloseTo(0.5, 12);
    expect(halved.get(1)!.lexical).toBeCloseTo(0.25, 12);
    expect(halved.get(2)!.lexical).toBe(0);
  });

  it('weighs a doc listed in shareWeight by its own weight instead of the query\'s', () => {
    const input = { lexical: new Map([[1, 6], [2, 6]]), lexicalCeiling: 12, lexicalWeight: 0.2 };
    const fused = fuse([1, 2], { ...input, shareWeight: new Map([[1, 0.8]]) });
    expect(fused.get(1)!.lexical).toBeCloseTo(0.4, 12);
    expect(fused.get(2)!.lexical).toBeCloseTo(0.1, 12);
  });

  it('keeps the evidence of a verbatim code-like token whole', () => {
    expect(lexicalEvidence(3, 12, 1, 0.1)).toBe(1);
  });

  it('lets a vector-only memory pass a weighed-down lexical flood that outranked it', () => {
    // Doc 1: a long answer sharing the query's common words; doc 2: the short message the vector signal found.
    const input = { lexical: new Map([[1, 3]]), lexicalCeiling: 10, cosines: new Map([[1, 0.2], [2, 0.5]]), vectorPool: spread(50, 0.1, 0.52) };
    const before = fuse([1, 2], input);
    const after = fuse([1, 2], { ...input, lexicalWeight: 0.2 });
    expect(before.get(1)!.relevance!).toBeGreaterThan(before.get(2)!.relevance!);
    expect(after.get(1)!.relevance!).toBeLessThan(after.get(2)!.relevance!);
  });
});

describe('fuse: concept evidence', () => {
  it('joins the noisy-OR as a third signal, keeps the other signals as they were, and leaves unlisted docs alone', () => {
    const input = { lexical: new Map([[1, 2]]), lexicalCeiling: 4, cosines: new Map([[1, 0.3], [2, 0.3]]), vectorPool: spread(50, 0.1, 0.5) };
    const plain = fuse([1, 2], input);
    const withConcept = fuse([1, 2], { ...input, concept: new Map([[2, 0.4]]) });
    expect(withConcept.get(1)).toEqual(plain.get(1));
    const p = plain.get(2)!;
    const c = withConcept.get(2)!;
    expect(c.vector).toBe(p.vector);
    expect(c.lexical).toBe(p.lexical);
    expect(c.relevance).toBeCloseTo(1 - (1 - p.relevance!) * 0.6, 10);
    expect(c.relevance).toBeGreaterThan(p.relevance!);
  });
});

describe('lexical standout', () => {
  // A lexical pool of 50 hits sharing the query's common words (BM25 1..2) and one that stands out (6).
  const pool = [6, ...spread(49, 1, 2)];

  it('counts a BM25 score by how far it stands out of the query pool, up to the standout weight', () => {
    const cal = calibrateLexical(pool)!;
    expect(lexicalStandout(6, cal)).toBeGreaterThan(0.9 * LEXICAL_STANDOUT);
    expect(lexicalStandout(6, cal)).toBeLessThanOrEqual(LEXICAL_STANDOUT);
    expect(lexicalStandout(1.5, cal)).toBeLessThan(0.02);
    expect(lexicalStandout(0, cal)).toBe(0);
    expect(lexicalStandout(6, undefined)).toBe(0);
    expect(calibrateLexical([4])).toBeUndefined();
  });

  it('is monotone in the BM25 score, so the lexical order of a query is unchanged', () => {
    const cal = calibrateLexical(pool)!;
    fc.assert(
      fc.property(fc.double({ min: 0, max: 20, noNaN: true }), fc.double({ min: 0, max: 20, noNaN: true }), (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(lexicalEvidence(lo, 40, 0, 1, lexicalStandout(lo, cal))).toBeLessThanOrEqual(lexicalEvidence(hi, 40, 0, 1, lexicalStandout(hi, cal)) + 1e-12);
      }),
    );
  });

  it("lifts the lexical signal's standout hit of a reworded query above a vector-only neighbour it lost to", () => {
    // Doc 1: BM25's clear best hit, but only 0.15 of the attainable BM25 (common words); no vector evidence to speak of.
    // Doc 2: a vector neighbour standing out of its pool (calibrated evidence ≈ 0.28), with no shared word.
    const input = { lexical: new Map(pool.map((x, i) => [i + 1, x])), lexicalCeiling: 40, cosines: new Map([[1, 0.2], [100, 0.45]]), vectorPool: [0.45, ...spread(49, 0.1, 0.4)] };
    const without = fuse([1, 100], input);
    const withPool = fuse([1, 100], { ...input, lexicalPool: pool });
    expect(without.get(1)!.relevance!).toBeLessThan(without.get(100)!.relevance!);
    expect(withPool.get(1)!.relevance!).toBeGreaterThan(withPool.get(100)!.relevance!);
    // Only the standout hit moves: an ordinary hit of the pool keeps its share.
    expect(withPool.get(30)?.lexical ?? 0).toBeCloseTo(without.get(30)?.lexical ?? 0, 2);
  });

  it('is weighed by the lexical reliability like the share, and leaves a verbatim code-like token whole', () => {
    const cal = calibrateLexical(pool)!;
    const s = lexicalStandout(6, cal);
    expect(lexicalEvidence(6, 40, 0, 0.5, s)).toBeCloseTo(0.5 * s, 12);
    expect(lexicalEvidence(6, 40, 1, 0.5, s)).toBe(1);
  });

  it("weighs each memory's standout by its own weight when given, and leaves the share weighed by w", () => {
    // Doc 1 (a short statement) and doc 2 (a long answer echoing it) stand out alike; the head is flooded (w 0.1).
    const input = { lexical: new Map([[1, 6], [2, 6], ...spread(48, 1, 2).map((x, i) => [i + 3, x] as [number, number])]), lexicalCeiling: 40, lexicalPool: [6, 6, ...spread(48, 1, 2)], lexicalWeight: 0.1 };
    const flat = fuse([1, 2, 3], input);
    const own = fuse([1, 2, 3], { ...input, standoutWeight: new Map([[1, 0.9], [2, 0.1], [3, 1]]) });
    expect(flat.get(1)!.lexical).toBeCloseTo(flat.get(2)!.lexical!, 12);
    expect(own.get(2)!.lexical).toBeCloseTo(flat.get(2)!.lexical!, 12);
    expect(own.get(1)!.lexical!).toBeGreaterThan(5 * own.get(2)!.lexical!);
    // An ordinary hit does not stand out: a full standout weight leaves it near its weighed share.
    expect(own.get(3)!.lexical!).toBeLessThan(0.02);
  });
});

describe('agreed memories under length flooding', () => {
  it('keep part of their unweighted share, never above it nor above the vector evidence', () => {
    expect(agreedEvidence(0.4, 0.2)).toBeCloseTo(AGREED_SHARE * 0.2, 12);
    expect(agreedEvidence(0.1, 0.6)).toBeCloseTo(AGREED_SHARE * 0.1, 12);
    expect(agreedEvidence(0.4, 0.2, 0)).toBe(0);
  });

  it('lift a lexical hit the vector signal also ranks above a vector-only neighbour, and leave the others as they were', () => {
    // Doc 1: BM25 share 0.4, weighed down to 0.04 by a flooded head (w 0.1), vector evidence ≈ 0.2.
    // Doc 2: vector-only, vector evidence 0.25.
    const pool = [0.5, ...spread(49, 0.1, 0.3)];
    const cal = calibrateVector(pool)!;
    const cosFor = (v: number) => cal.mean + cal.std * (cal.midpoint + Math.log(v / (1 - v)));
    const input = { lexical: new Map([[1, 4]]), lexicalCeiling: 10, lexicalWeight: 0.1, cosines: new Map([[1, cosFor(0.2)], [2, cosFor(0.25)]]), vectorPool: pool };
    const flat = fuse([1, 2], input);
    const agreed = fuse([1, 2], { ...input, agreed: new Set([1]) });
    expect(flat.get(1)!.relevance!).toBeLessThan(flat.get(2)!.relevance!);
    expect(agreed.get(1)!.relevance!).toBeGreaterThan(agreed.get(2)!.relevance!);
    expect(agreed.get(1)!.lexical!).toBeCloseTo(AGREED_SHARE * 0.2, 6);
    expect(agreed.get(2)).toEqual(flat.get(2));
  });
});
