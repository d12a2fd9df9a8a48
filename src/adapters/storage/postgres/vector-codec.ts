/**
 * Vectors on the wire. With pgvector they are written as text literals ('[0.1,0.2,…]'; JavaScript's
 * shortest round-trip form of a float32 value parses back to the same float32) and read through
 * `vector_send` (big-endian float32s after a 4-byte header); without it they are little-endian float32
 * bytes in a bytea. Both directions are exact.
 */
import type { VectorMode } from './vector-setup.js';

export function toVectorLiteral(v: Float32Array): string {
  return `[${Array.from(v).join(',')}]`;
}

export function toVectorBytes(v: Float32Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

/** The parameter that stores `v` in an `embeddings.vec` column of this mode. */
export function vectorParam(mode: VectorMode, v: Float32Array): string | Buffer {
  return mode === 'pgvector' ? toVectorLiteral(v) : toVectorBytes(v);
}

/** The SQL expression that reads `column` as bytes `decodeVector` understands. */
export function vectorRead(mode: VectorMode, column: string): string {
  return mode === 'pgvector' ? `pgv.vector_send(${column})` : column;
}

export function decodeVector(mode: VectorMode, bytes: Uint8Array): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (mode === 'pgvector') {
    const dim = view.getUint16(0);
    const out = new Float32Array(dim);
    for (let i = 0; i < dim; i++) out[i] = view.getFloat32(4 + i * 4, false);
    return out;
  }
  const out = new Float32Array(bytes.byteLength / 4);
  // Little-endian float32s: on a little-endian host one copy of the bytes, else one read per value.
  if (LITTLE_ENDIAN) new Uint8Array(out.buffer).set(bytes);
  else for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
