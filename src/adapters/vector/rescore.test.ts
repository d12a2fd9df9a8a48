import { describe, expect, it } from 'vitest';
import { rescoreExact, rescoreWidth } from './rescore.js';

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, j) => s + x * b[j]!, 0);

describe('rescoreExact', () => {
  it('reorders candidates by their exact f32 scores, whatever order they came in', () => {
    const query = Float32Array.of(1, 0, 0, 0);
    const vecs = [Float32Array.of(0.2, 0.98, 0, 0), Float32Array.of(0.9, 0.43, 0, 0), Float32Array.of(0.5, 0, 0.86, 0), Float32Array.of(0.9001, 0, 0, 0.43)];
    // Candidates in the (wrong) order an approximate score gave them.
    const ids = [10, 11, 12, 13];
    const rows = new Float32Array(16);
    vecs.forEach((v, i) => rows.set(v, i * 4));
    const hits = rescoreExact(ids, rows, query, 3);
    expect(hits.map((h) => h.id)).toEqual([13, 11, 12]);
    hits.forEach((h) => expect(h.score).toBeCloseTo(dot(vecs[h.id - 10]!, query), 6));
  });

  it('returns every candidate when fewer than wanted, and nothing for none', () => {
    const q = Float32Array.of(0, 1);
    expect(rescoreExact([1, 2], Float32Array.of(1, 0, 0, 1), q, 5).map((h) => h.id)).toEqual([2, 1]);
    expect(rescoreExact([], new Float32Array(0), q, 5)).toEqual([]);
  });

  it('widens the candidate list to four per result, at least 40, never beyond the index', () => {
    expect(rescoreWidth(10, 1_000_000)).toBe(40);
    expect(rescoreWidth(50, 1_000_000)).toBe(200);
    expect(rescoreWidth(10, 25)).toBe(25);
  });
});
