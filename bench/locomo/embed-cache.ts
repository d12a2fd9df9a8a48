/**
 * An Embedder decorator that keeps vectors on disk keyed by a hash of (model, text), so a benchmark re-run
 * (and a peer fed the same embedder) embeds each distinct text once. SQLite file, one row per vector.
 */
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import type { Embedder } from '../../src/index.js';

export interface CachedEmbedder extends Embedder {
  /** Texts served from the cache / sent to the model since this wrapper was made. */
  stats(): { hits: number; misses: number };
}

export function cachedEmbedder(inner: Embedder, path: string, opts: { closeInner?: boolean } = {}): CachedEmbedder {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE IF NOT EXISTS vectors (key TEXT PRIMARY KEY, v BLOB NOT NULL)');
  const get = db.prepare<[string], { v: Buffer }>('SELECT v FROM vectors WHERE key = ?');
  const put = db.prepare<[string, Buffer]>('INSERT OR REPLACE INTO vectors (key, v) VALUES (?, ?)');
  const putMany = db.transaction((rows: [string, Buffer][]) => {
    for (const [k, v] of rows) put.run(k, v);
  });
  let hits = 0;
  let misses = 0;
  const keyOf = (text: string) => createHash('sha256').update(inner.model).update('\0').update(text).digest('hex');

  return {
    get model() {
      return inner.model;
    },
    get dimension() {
      return inner.dimension;
    },
    init: () => inner.init(),
    async embed(texts, o) {
      const out: (Float32Array | undefined)[] = texts.map((t) => {
        const row = get.get(keyOf(t));
        // Copy out of the Buffer: its memory is reused by better-sqlite3.
        return row ? new Float32Array(row.v.buffer.slice(row.v.byteOffset, row.v.byteOffset + row.v.byteLength)) : undefined;
      });
      const missing = texts.map((t, i) => ({ t, i })).filter(({ i }) => out[i] === undefined);
      hits += texts.length - missing.length;
      misses += missing.length;
      if (missing.length > 0) {
        const vectors = await inner.embed(missing.map((m) => m.t), o);
        putMany(missing.map((m, j) => [keyOf(m.t), Buffer.from(vectors[j]!.buffer, vectors[j]!.byteOffset, vectors[j]!.byteLength)]));
        missing.forEach((m, j) => (out[m.i] = vectors[j]!));
      }
      return out as Float32Array[];
    },
    async close() {
      db.close();
      if (opts.closeInner !== false) await inner.close();
    },
    stats: () => ({ hits, misses }),
  };
}
