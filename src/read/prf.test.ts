import { describe, expect, it } from 'vitest';
import { cosine } from '../learn/vector.js';
import { prfVector } from './prf.js';

describe('prfVector', () => {
  it('moves the query toward the mean of its hits and keeps unit length', () => {
    const q = new Float32Array([1, 0, 0]);
    const hits = [new Float32Array([0, 1, 0]), new Float32Array([0, 0.6, 0.8])];
    const v = prfVector(q, hits, 0.5);
    expect(Math.hypot(...v)).toBeCloseTo(1, 6);
    expect(cosine(v, hits[0]!)).toBeGreaterThan(cosine(q, hits[0]!));
    expect(v[0]).toBeGreaterThan(v[1]!);
  });
  it('returns the query when there is no hit vector', () => {
    const q = new Float32Array([0.6, 0.8]);
    expect(prfVector(q, [])).toBe(q);
  });
});
