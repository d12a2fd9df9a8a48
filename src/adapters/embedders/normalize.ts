import { EngramError } from '../../core/errors.js';

/**
 * Scales a vector to unit L2 length. Models usually return unit vectors already, but float drift and
 * servers that skip normalisation would otherwise make cosine and dot-product scores disagree.
 * A zero or non-finite vector has no direction, so it is rejected rather than returned as NaNs.
 */
export function l2Normalize(values: ArrayLike<number>, what = 'embedding'): Float32Array {
  const out = new Float32Array(values.length);
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (!Number.isFinite(v)) {
      throw new EngramError('ADAPTER', `${what} contains a non-finite value at position ${i}`);
    }
    out[i] = v;
    sum += v * v;
  }
  if (sum === 0) throw new EngramError('ADAPTER', `${what} is a zero vector`);
  const inv = 1 / Math.sqrt(sum);
  for (let i = 0; i < out.length; i++) out[i] = out[i]! * inv;
  return out;
}
