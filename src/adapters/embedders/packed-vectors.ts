/** One batch of vectors, row-major in one buffer, so that a worker can transfer it to the parent without copying. */
export interface PackedVectors {
  dimension: number;
  data: Float32Array;
}

/**
 * Splits a packed batch into one vector per text. Each vector gets its own buffer: callers persist
 * `vector.buffer`, which for a view into the batch would hold every vector of it.
 */
export function unpackVectors(packed: PackedVectors): Float32Array[] {
  const { dimension, data } = packed;
  const out: Float32Array[] = [];
  if (dimension === 0) return out;
  for (let off = 0; off < data.length; off += dimension) out.push(data.slice(off, off + dimension));
  return out;
}
