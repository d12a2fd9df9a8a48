import { describe, expect, it } from 'vitest';
import { cosine } from './vector.js';

describe('cosine', () => {
  it('is 1 for parallel, 0 for orthogonal, -1 for opposite vectors, 0 for a zero vector', () => {
    expect(cosine([1, 2], [2, 4])).toBeCloseTo(1);
    expect(cosine([1, 0], [0, 3])).toBeCloseTo(0);
    expect(cosine(new Float32Array([1, -1]), new Float32Array([-2, 2]))).toBeCloseTo(-1);
    expect(cosine([0, 0], [1, 1])).toBe(0);
  });
});
