import { describe, expect, it } from 'vitest';
import type { DocHit } from '../ports/storage.js';
import { fusionInputs, headIds, type FusionSources } from './fusion-inputs.js';
import { CALIBRATION_DEPTH } from './pool.js';
import { makeDoc } from './fixtures.test-support.js';

const unit = (...xs: number[]) => {
  const n = Math.hypot(...xs);
  return Float32Array.from(xs.map((x) => x / n));
};
const hit = (docId: number, score: number): DocHit => ({ docId, score }) as DocHit;

const docs = [
  makeDoc({ docId: 1, contentHash: 'h1', text: 'The deploy failed with ERR_PG_53300 again.' }),
  makeDoc({ docId: 2, contentHash: 'h2', text: 'Did the deploy fail? What happened?' }),
  makeDoc({ docId: 3, contentHash: 'h3', text: 'Lunch was good.' }),
];
const vectors = new Map([
  ['h1', unit(1, 0)],
  ['h2', unit(1, 1)],
]);
const sources = (over: Partial<FusionSources> = {}): FusionSources => ({
  docs,
  vectors,
  vector: unit(1, 0),
  useLexical: true,
  lexHits: [hit(1, 4), hit(2, 2)],
  mainLexHits: [hit(1, 4)],
  termBest: [4, 0],
  vecHits: [hit(1, 0.9)],
  conversational: false,
  ...over,
});
const query = { query: 'Why did the deploy fail with ERR_PG_53300?', questionDiscount: 1, concepts: false };

describe('fusionInputs', () => {
  it('takes a cosine from the vector pool, computes it from the stored vector outside it, and has none without one', () => {
    const input = fusionInputs(query, sources());
    expect(input.cosines?.get(1)).toBe(0.9);
    expect(input.cosines?.get(2)).toBeCloseTo(Math.SQRT1_2, 6);
    expect(input.cosines?.has(3)).toBe(false);
    expect(input.vectorPool).toEqual([0.9]);
    expect(input.lexicalPool).toEqual([4]);
  });

  it('reads BM25 of every lexical hit, the ceiling of the per-term bests, and the exact tokens', () => {
    const input = fusionInputs(query, sources());
    expect([...(input.lexical?.entries() ?? [])]).toEqual([
      [1, 4],
      [2, 2],
    ]);
    expect(input.lexicalCeiling).toBe(8);
    expect(input.exact?.get(1)).toBe(1);
    expect(input.exact?.get(2)).toBe(0);
  });

  it('leaves the vector inputs, the standout pool and the concepts out when the vector signal did not run', () => {
    const input = fusionInputs(query, sources({ vector: undefined }));
    expect(input.cosines).toBeUndefined();
    expect(input.vectorPool).toBeUndefined();
    expect(input.lexicalPool).toBeUndefined();
    expect(input.concept).toBeUndefined();
    expect(input.lexicalWeight).toBe(1);
  });

  it('leaves the lexical inputs out in vector mode', () => {
    const input = fusionInputs(query, sources({ useLexical: false }));
    expect(input.lexical).toBeUndefined();
    expect(input.lexicalPool).toBeUndefined();
    expect(input.exact?.get(1)).toBe(0);
  });

  it('applies the question form only to a conversational pool', () => {
    expect(fusionInputs(query, sources()).vectorKeep).toBeUndefined();
    const keep = fusionInputs(query, sources({ conversational: true })).vectorKeep;
    expect(keep?.get(1)).toBe(1);
    expect(keep?.get(2)).toBeLessThan(1);
  });

  it('weighs the lexical standout per memory only when the lexical head is flooded by long memories', () => {
    expect(fusionInputs(query, sources()).standoutWeight).toBeUndefined();
    // A lexical head of long answers and a vector head of one short statement: w < 1, the statement keeps more.
    const long = (id: number) => makeDoc({ docId: id, contentHash: `l${id}`, text: `The deploy ${'failed again and again, '.repeat(60)}` });
    const flooded = [...docs, long(4), long(5)];
    const input = fusionInputs(query, sources({ docs: flooded, mainLexHits: [hit(4, 5), hit(5, 5), hit(1, 4)], lexHits: [hit(4, 5), hit(5, 5), hit(1, 4)], vecHits: [hit(1, 0.9)] }));
    expect(input.lexicalWeight).toBeLessThan(1);
    expect(input.standoutWeight?.get(1)).toBeGreaterThan(input.standoutWeight!.get(4)!);
    expect(input.standoutWeight!.get(4)!).toBeLessThanOrEqual(input.lexicalWeight!);
  });

  it('relieves only a memory that shares two content words with the query, not one that names a single word of it', () => {
    const long = (id: number) => makeDoc({ docId: id, contentHash: `l${id}`, text: `The deploy ${'failed again and again, '.repeat(60)}` });
    const one = makeDoc({ docId: 6, contentHash: 'h6', text: 'Can we deploy on Fridays?' });
    const input = fusionInputs(query, sources({ docs: [...docs, long(4), long(5), one], mainLexHits: [hit(4, 5), hit(5, 5), hit(1, 4), hit(6, 4)], lexHits: [hit(4, 5), hit(5, 5), hit(1, 4), hit(6, 4)], vecHits: [hit(1, 0.9)] }));
    expect(input.standoutWeight?.get(1)).toBeGreaterThan(input.lexicalWeight!);
    expect(input.standoutWeight?.get(6)).toBe(input.lexicalWeight);
  });

  it('marks the memories both signals rank near the top as agreed only under length flooding, outside a conversation, and not a memory that only asks', () => {
    const long = (id: number) => makeDoc({ docId: id, contentHash: `l${id}`, text: `The deploy ${'failed again and again, '.repeat(60)}` });
    const flooded = { docs: [...docs, long(4), long(5)], mainLexHits: [hit(4, 5), hit(5, 5), hit(1, 4), hit(2, 3)], lexHits: [hit(4, 5), hit(5, 5), hit(1, 4), hit(2, 3)], vecHits: [hit(1, 0.9), hit(2, 0.8)] };
    const input = fusionInputs(query, sources(flooded));
    expect(input.lexicalWeight).toBeLessThan(1);
    expect([...(input.agreed ?? [])]).toEqual([1]);
    expect(fusionInputs(query, sources({ ...flooded, conversational: true })).agreed).toBeUndefined();
    expect(fusionInputs(query, sources({ mainLexHits: [hit(1, 4), hit(2, 3)], lexHits: [hit(1, 4), hit(2, 3)], vecHits: [hit(1, 0.9), hit(2, 0.8)] })).agreed).toBeUndefined();
  });
});

describe('headIds', () => {
  // Every hit scores the same and arrives with the ids descending: the head is the first CALIBRATION_DEPTH as they
  // came (the index's tie-break), not those a re-sort by score and id would pick.
  const tied = Array.from({ length: CALIBRATION_DEPTH + 1 }, (_, i) => hit(CALIBRATION_DEPTH + 1 - i, 0.5));

  it('takes the first CALIBRATION_DEPTH hits in the order the index returned them, ties included', () => {
    const head = headIds(tied);
    expect(head).toHaveLength(CALIBRATION_DEPTH);
    expect(head[0]).toBe(CALIBRATION_DEPTH + 1);
    expect(head).not.toContain(1);
  });

  it('leaves a tied vector hit past the head to the cosine of its stored vector in fusionInputs', () => {
    const input = fusionInputs(query, sources({ vecHits: tied }));
    expect(input.cosines?.get(2)).toBe(0.5);
    expect(input.cosines?.get(1)).toBeCloseTo(1, 6);
  });
});
