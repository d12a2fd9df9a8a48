/** Vector helpers for the learn path. Vectors need not be unit length: every comparison normalises. */

/** Cosine similarity; 0 when the lengths differ or either vector is all zeros. */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length || a.length === 0) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** 1 − cosine: 0 for the same direction, 1 for orthogonal, 2 for opposite. */
export function cosineDistance(a: Float32Array, b: Float32Array): number {
  return 1 - cosine(a, b);
}

/**
 * Running mean: the centroid of n vectors updated with one more, without keeping the vectors.
 * Returns a new array (callers hand snapshots out, so nothing is mutated in place).
 */
export function addToMean(mean: Float32Array | undefined, n: number, v: Float32Array): Float32Array {
  if (!mean || n === 0) return Float32Array.from(v);
  const out = new Float32Array(mean.length);
  for (let i = 0; i < mean.length; i++) out[i] = mean[i]! + (v[i]! - mean[i]!) / (n + 1);
  return out;
}
