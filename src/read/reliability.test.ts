import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AGREEMENT_TOP, corroborated, LENGTH_FLOOR, LENGTH_TOP, lengthRatio, lexicalReliability, STANDOUT_LENGTH_POWER, standoutReliability, standoutWeights } from './reliability.js';

describe('lengthRatio', () => {
  it('is the lexical head mean length over the vector head mean length', () => {
    expect(lengthRatio([100, 300], [50, 50])).toBeCloseTo(4, 12);
  });

  it('reads only the first LENGTH_TOP hits of each list', () => {
    const head = Array<number>(LENGTH_TOP).fill(100);
    expect(lengthRatio([...head, 10_000], [...head, 1])).toBeCloseTo(1, 12);
  });

  it('is 1 when a list is empty', () => {
    expect(lengthRatio([], [40])).toBe(1);
    expect(lengthRatio([400], [])).toBe(1);
  });
});

describe('lexicalReliability', () => {
  it('leaves the lexical signal whole when both heads are of like length', () => {
    expect(lexicalReliability([80, 120, 100], [90, 110, 100])).toBe(1);
    expect(lexicalReliability([LENGTH_FLOOR * 100], [100])).toBe(1);
  });

  it('weighs it down when the lexical head is made of much longer memories', () => {
    // A reworded question over long assistant answers: the lexical head is ten answers of ~1,000 characters, the
    // vector head the user's own short messages.
    const w = lexicalReliability(Array<number>(10).fill(1000), Array<number>(10).fill(100));
    expect(w).toBeLessThan(0.5);
    expect(w).toBeGreaterThan(0);
  });

  it('never rises as the lexical head grows longer, and stays in (0, 1]', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5000 }), fc.integer({ min: 1, max: 5000 }), fc.integer({ min: 1, max: 5000 }), (a, b, v) => {
        const [short, long] = a <= b ? [a, b] : [b, a];
        const ws = lexicalReliability([short], [v]);
        const wl = lexicalReliability([long], [v]);
        expect(wl).toBeLessThanOrEqual(ws);
        expect(wl).toBeGreaterThan(0);
        expect(ws).toBeLessThanOrEqual(1);
      }),
    );
  });
});

describe('standoutReliability', () => {
  // A flooded head: long answers of up to 1,500 characters.
  const head = [1500, ...Array<number>(9).fill(1200)];

  it("keeps w for a memory as long as the lexical head's longest, more for a shorter one, less for a longer one", () => {
    expect(standoutReliability(0.1, 1500, head)).toBeCloseTo(0.1, 12);
    // A user's turn of 600 characters among them keeps more than half of its standout; a 150-character one nearly all.
    expect(standoutReliability(0.1, 600, head)).toBeGreaterThan(0.5);
    expect(standoutReliability(0.1, 150, head)).toBeGreaterThan(0.9);
    expect(standoutReliability(0.1, 3000, head)).toBeLessThan(0.1);
    expect(standoutReliability(0.1, 600, head, STANDOUT_LENGTH_POWER)).toBe(standoutReliability(0.1, 600, head));
  });

  it('keeps about two thirds for a turn at 40 % of the longest (q = 2)', () => {
    expect(standoutReliability(0.1, 600, head)).toBeGreaterThan(0.65);
    expect(standoutReliability(0.1, 600, head)).toBeCloseTo(0.1 ** (0.4 ** 2), 12);
  });

  it('is w when nothing is flooded or there is no head', () => {
    expect(standoutReliability(1, 100, head)).toBe(1);
    expect(standoutReliability(0.3, 100, [])).toBe(0.3);
  });

  it('never rises with the memory\'s length, and stays in (0, 1]', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.01, max: 1, noNaN: true }), fc.integer({ min: 0, max: 4000 }), fc.integer({ min: 0, max: 4000 }), (w, a, b) => {
        const [short, long] = a <= b ? [a, b] : [b, a];
        const ws = standoutReliability(w, short, head);
        const wl = standoutReliability(w, long, head);
        expect(wl).toBeLessThanOrEqual(ws);
        expect(wl).toBeGreaterThan(0);
        expect(ws).toBeLessThanOrEqual(1);
      }),
    );
  });
});

describe('corroborated', () => {
  const hits = (...ids: number[]) => ids.map((docId, i) => ({ docId, score: 10 - i }));

  it('is the memories both lists rank in their first n hits, read best first', () => {
    expect([...corroborated(hits(1, 2, 3, 4), hits(4, 9, 1), 3)].sort()).toEqual([1]);
    expect([...corroborated(hits(1, 2, 3, 4), hits(4, 9, 1), 4)].sort()).toEqual([1, 4]);
    expect(corroborated([], hits(1)).size).toBe(0);
    expect(AGREEMENT_TOP).toBe(10);
  });

  it('agrees with re-sorting each list by score, for lists best first as the store gives them (ties included)', () => {
    // The former reading: each list sorted by score (a stable sort), then its first n.
    const resorted = (lex: readonly { docId: number; score: number }[], vec: readonly { docId: number; score: number }[], n: number) => {
      const top = (hs: readonly { docId: number; score: number }[]) => [...hs].sort((a, b) => b.score - a.score).slice(0, n).map((h) => h.docId);
      const v = new Set(top(vec));
      return new Set(top(lex).filter((id) => v.has(id)));
    };
    const list = fc
      .uniqueArray(fc.record({ docId: fc.integer({ min: 0, max: 40 }), score: fc.integer({ min: 0, max: 6 }) }), { selector: (h) => h.docId, maxLength: 30 })
      .map((hs) => [...hs].sort((a, b) => b.score - a.score));
    fc.assert(
      fc.property(list, list, fc.integer({ min: 0, max: 12 }), (lex, vec, n) => {
        expect([...corroborated(lex, vec, n)]).toEqual([...resorted(lex, vec, n)]);
      }),
      { numRuns: 500 },
    );
  });
});

describe('standoutWeights', () => {
  const head = [1500, ...Array<number>(9).fill(1200)];
  const states = (text: string) => !text.trim().endsWith('?');
  const docs = [
    { docId: 1, text: 'I ended up buying a second-hand Brompton from a guy for 650 euros.' },
    { docId: 2, text: 'Which Brompton bag fits the front block?' },
    { docId: 3, text: 'The Brompton I paid for folds in twenty seconds.' },
    { docId: 4, text: 'Nothing about bikes here at all.' },
  ];
  const query = 'How much did I pay for the Brompton?';

  it('relieves a statement that shares one content word, on its standout and its share', () => {
    const { standout, share } = standoutWeights(docs, query, head, 0.1, states);
    const relieved = standoutReliability(0.1, docs[0]!.text.length, head);
    expect(standout.get(1)).toBeCloseTo(relieved, 12);
    expect(share.get(1)).toBeCloseTo(relieved, 12);
    expect(relieved).toBeGreaterThan(0.9);
  });

  it('keeps w for a question that names one word and for a memory that shares none; no share relief for either', () => {
    const { standout, share } = standoutWeights(docs, query, head, 0.1, states);
    expect(standout.get(2)).toBe(0.1);
    expect(standout.get(4)).toBe(0.1);
    expect(share.has(2)).toBe(false);
    expect(share.has(4)).toBe(false);
  });

  it('relieves the standout of a memory sharing two content words, but not its share', () => {
    const { standout, share } = standoutWeights([{ docId: 5, text: 'How much did the Brompton cost?' }], query, head, 0.1, states);
    expect(standout.get(5)).toBeGreaterThan(0.9);
    expect(share.has(5)).toBe(false);
  });

  it('without a statement test relieves only memories that share two words', () => {
    const { standout, share } = standoutWeights(docs, query, head, 0.1);
    expect(standout.get(1)).toBe(0.1);
    expect(share.size).toBe(0);
  });
});
