import { EngramError } from '../../../core/errors.js';

/** Float32 little-endian bytes, as stored in `embeddings.vector`. */
export function vectorToBlob(v: Float32Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

/** Copies out of the driver's buffer (which may be unaligned for a Float32Array view). */
export function blobToVector(b: Buffer): Float32Array {
  const copy = new Uint8Array(b.byteLength);
  copy.set(b);
  return new Float32Array(copy.buffer);
}

/** A unit-length copy; cosine similarity is then a dot product. */
export function unit(v: Float32Array): Float32Array {
  let norm = 0;
  for (let i = 0; i < v.length; i++) norm += v[i]! * v[i]!;
  norm = Math.sqrt(norm);
  const out = new Float32Array(v.length);
  if (norm === 0) return out;
  for (let i = 0; i < v.length; i++) out[i] = v[i]! / norm;
  return out;
}

/** A vector storage will accept: a Float32Array of the model's dimension, finite, not all zeros. */
export function assertVector(v: unknown, dimension: number, path: string): asserts v is Float32Array {
  const fail = (message: string) => {
    throw new EngramError('VALIDATION', `${path}: ${message}`, { issues: [{ path, message }] });
  };
  if (!(v instanceof Float32Array)) return fail('expected a Float32Array');
  if (v.length !== dimension) return fail(`has ${v.length} dimensions, the embedding model has ${dimension}`);
  let nonZero = false;
  for (let i = 0; i < v.length; i++) {
    if (!Number.isFinite(v[i]!)) return fail(`entry ${i} is not finite`);
    if (v[i] !== 0) nonZero = true;
  }
  if (!nonZero) fail('is all zeros (no direction)');
}
