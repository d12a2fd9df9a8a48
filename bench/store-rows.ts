/**
 * A bench store's vectors read straight from its SQLite file, as exact search needs them: each doc's id and its
 * unit vector, packed row after row; and the clustered synthetic vectors the cold-open store and its queries are
 * made of. Shared by bench/cold-open.ts and bench/store-recall.ts.
 */
import Database from 'better-sqlite3';
import { blobToVector, unit } from '../src/adapters/storage/sql/vector-codec.js';
import { rng } from './perf/synthetic.js';

export interface StoreRows {
  /** Doc id of each row, in row order. */
  ids: number[];
  /** Unit vectors, `dim` floats per row. */
  data: Float32Array;
}

export function readStoreRows(dbPath: string, tenant: string, model: string, dim: number): StoreRows {
  const db = new Database(dbPath, { readonly: true });
  try {
    const rows = db
      .prepare('SELECT d.doc_id, e.vector FROM docs d JOIN embeddings e ON e.model = ? AND e.content_hash = d.content_hash WHERE d.tenant = ?')
      .raw()
      .all(model, tenant) as [number, Buffer][];
    const data = new Float32Array(rows.length * dim);
    rows.forEach(([, v], i) => data.set(unit(blobToVector(v)), i * dim));
    return { ids: rows.map(([id]) => id), data };
  } finally {
    db.close();
  }
}

/** Clustered unit vectors (200 clusters), deterministic per index: the same index gives the same vector everywhere. */
export function clusteredVector(i: number, dim: number): Float32Array {
  const r = rng(1_000_003 + i);
  const c = rng(7 + (i % 200));
  const v = new Float32Array(dim);
  let norm = 0;
  for (let j = 0; j < dim; j++) {
    v[j] = c() - 0.5 + (r() - 0.5) * 0.6;
    norm += v[j]! ** 2;
  }
  norm = Math.sqrt(norm);
  for (let j = 0; j < dim; j++) v[j]! /= norm;
  return v;
}
