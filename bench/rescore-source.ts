/**
 * `npx tsx bench/rescore-source.ts --db <store.db>` — where the f32 vectors of the top candidates are best read
 * from when they are not kept in memory (src/adapters/vector/rescore.ts): the store's durable rows (one batched
 * SELECT of the candidates' vector blobs, as the SQLite adapter would issue it) or a file of f32 rows read
 * with one positional read per candidate (src/adapters/vector/row-file.ts, what the index uses).
 *
 *   npx tsx bench/rescore-source.ts --db /path/bench.db [--model bench-synthetic] [--batch 40] [--batches 2000] [--limit 300000]
 *
 * Both read random docs of the store (same ids for both), after one warm-up pass over the same batches, so
 * both are served from the OS page cache as a process that searches often is. Reports p50 / p95 / p99 ms per
 * batch, including turning the bytes into unit Float32Arrays (SQLite) or into one row-major block (file).
 */
import Database from 'better-sqlite3';
import { parseArgs } from 'node:util';
import { RowFile } from '../src/adapters/vector/row-file.js';
import { blobToVector, unit } from '../src/adapters/storage/sql/vector-codec.js';
import { rng } from './perf/synthetic.js';
import { percentile, round } from './stats.js';

const { values: opts } = parseArgs({
  options: {
    db: { type: 'string' },
    model: { type: 'string', default: 'bench-synthetic' },
    batch: { type: 'string', default: '40' },
    batches: { type: 'string', default: '2000' },
    /** Read at most this many docs' vectors (the row file then holds those). */
    limit: { type: 'string', default: '300000' },
  },
});
const batch = Number(opts.batch);
const batches = Number(opts.batches);
const db = new Database(opts.db!, { readonly: true });
const t0 = performance.now();
const all = db
  .prepare('SELECT d.doc_id AS id, e.vector AS v FROM docs d JOIN embeddings e ON e.model = ? AND e.content_hash = d.content_hash LIMIT ?')
  .raw()
  .all(opts.model, Number(opts.limit)) as [number, Buffer][];
const dim = all[0]![1].byteLength / 4;
console.log(`${all.length} vectors of ${dim} dimensions read in ${round((performance.now() - t0) / 1000, 1)} s`);

// The same rows in a row file, slot = position in `all`.
const file = new RowFile(dim);
const chunk = 4096;
for (let i = 0; i < all.length; i += chunk) {
  const part = all.slice(i, i + chunk);
  const rows = new Float32Array(part.length * dim);
  part.forEach(([, v], j) => rows.set(blobToVector(v), j * dim));
  file.write(i, rows);
}

const r = rng(5);
const picks: number[][] = [];
for (let b = 0; b < batches; b++) picks.push(Array.from({ length: batch }, () => Math.floor(r() * all.length)));

const select = db.prepare(
  // json_each drives the join (primary-key lookups); `doc_id IN (SELECT … json_each)` makes SQLite walk every
  // embedding of the model instead.
  'SELECT d.doc_id, e.vector FROM json_each(?) j CROSS JOIN docs d ON d.doc_id = j.value JOIN embeddings e ON e.model = ? AND e.content_hash = d.content_hash',
);
function viaSql(slots: number[]): number {
  const rows = select.raw().all(JSON.stringify(slots.map((s) => all[s]![0])), opts.model) as [number, Buffer][];
  let n = 0;
  for (const [, v] of rows) n += unit(blobToVector(v)).length;
  return n;
}
function viaFile(slots: number[]): number {
  const out = new Float32Array(slots.length * dim);
  slots.forEach((s, i) => file.read(s, 1, out, i));
  return out.length;
}

for (const [name, fn] of [['sqlite rows', viaSql], ['row file', viaFile]] as const) {
  for (const p of picks) fn(p); // warm-up: pages into the cache, JIT
  const ms: number[] = [];
  for (const p of picks) {
    const t = performance.now();
    fn(p);
    ms.push(performance.now() - t);
  }
  console.log(`${name}: ${batch} vectors per batch, p50 ${round(percentile(ms, 50), 3)} / p95 ${round(percentile(ms, 95), 3)} / p99 ${round(percentile(ms, 99), 3)} ms`);
}
file.close();
db.close();
