/**
 * `npx tsx bench/cold-open.ts` — what a process start costs on a SQLite store of N memories, with the search
 * indexes saved beside the file (loaded from them, then caught up from the change feed) and without (built
 * from the rows: BM25 re-analyzes every text, the HNSW graph is rebuilt in the background).
 *
 *   npx tsx bench/cold-open.ts [--size 100000] [--dim 512] [--runs 3] [--dir /tmp/x] [--keep]
 *
 * Each run is a fresh `node` process that opens the store and searches one tenant (lexical + vector, k 10,
 * through the storage). Reported per mode, medians over runs:
 *   - first search: ms from process start (node's time origin) to the first answered lexical + vector search;
 *   - full speed: ms from process start until a window of 20 searches has p95 within 1.2× the warm p95 (the
 *     warm p95 is measured first, in a process whose graph is complete);
 *   - RSS (MB) at full speed.
 * Vectors are synthetic (clustered, unit, deterministic); texts are bench/perf's synthetic events.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openSqliteStorage, type SqliteStorage } from '../src/adapters/storage/sqlite/index.js';
import type { IndexEvent } from '../src/adapters/storage/sql/index-file.js';
import { makeEvent } from '../src/testing/storage-factories.js';
import { rng, synthEvents, synthQueries } from './perf/synthetic.js';
import { median, percentile, round } from './stats.js';

const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    size: { type: 'string', default: '100000' },
    dim: { type: 'string', default: '512' },
    runs: { type: 'string', default: '3' },
    dir: { type: 'string' },
    keep: { type: 'boolean', default: false },
    // child only
    db: { type: 'string' },
    mode: { type: 'string' },
    warm: { type: 'string', default: '0' },
  },
});

const TENANT = 'bench';
const MODEL = 'bench-synthetic';
const DIM = Number(opts.dim);
const WINDOW = 20;

/** Clustered unit vectors, deterministic per index. */
function vectorFor(i: number): Float32Array {
  const r = rng(1_000_003 + i);
  const c = rng(7 + (i % 200));
  const v = new Float32Array(DIM);
  let norm = 0;
  for (let j = 0; j < DIM; j++) {
    v[j] = (c() - 0.5) + (r() - 0.5) * 0.6;
    norm += v[j]! ** 2;
  }
  norm = Math.sqrt(norm);
  for (let j = 0; j < DIM; j++) v[j]! /= norm;
  return v;
}

const queries = synthQueries(200, 1000);
const queryVectors = queries.map((_, i) => vectorFor(10_000_000 + i));

async function searchOnce(s: SqliteStorage, i: number): Promise<number> {
  const t0 = performance.now();
  const now = Date.now();
  await s.lexicalSearch({ tenant: TENANT, text: queries[i % queries.length]!, k: 10, now });
  await s.vectorSearch({ tenant: TENANT, vector: queryVectors[i % queryVectors.length]!, k: 10, now });
  return performance.now() - t0;
}

async function child(): Promise<void> {
  const events: IndexEvent[] = [];
  const s = await openSqliteStorage({ path: opts.db!, ...(opts.mode === 'rows' ? { indexDir: false as const } : {}), onIndexEvent: (e) => events.push(e) });
  await s.init({ embeddingModel: MODEL, dimension: DIM });
  const opened = performance.now();
  await searchOnce(s, 0);
  const first = performance.now();
  const out: Record<string, unknown> = { openMs: round(opened), firstMs: round(first), loads: events.filter((e) => e.kind === 'loaded') };
  if (opts.mode === 'prime') {
    await s.warm(TENANT); // completes the graph and saves the files
    const lat: number[] = [];
    for (let i = 0; i < 100; i++) lat.push(await searchOnce(s, i));
    out.warmP95 = round(percentile(lat, 95));
  } else {
    const target = Number(opts.warm) * 1.2;
    let i = 0;
    for (;;) {
      const lat: number[] = [];
      for (let k = 0; k < WINDOW; k++) lat.push(await searchOnce(s, i++));
      if (percentile(lat, 95) <= target || performance.now() > 900_000) {
        out.fullSpeedMs = round(performance.now());
        out.windowP95 = round(percentile(lat, 95));
        break;
      }
      await new Promise((r) => setImmediate(r)); // let the background graph build run between windows
    }
  }
  out.rssMb = round(process.memoryUsage().rss / 2 ** 20);
  await s.close();
  out.saves = events.filter((e) => e.kind === 'saved');
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

function runChild(db: string, mode: string, warm = 0): Record<string, unknown> {
  const r = spawnSync(process.execPath, ['--import', 'tsx', import.meta.filename, 'child', '--db', db, '--mode', mode, '--warm', String(warm), '--dim', String(DIM)], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(`child ${mode} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
}

async function build(db: string, n: number): Promise<void> {
  const s = await openSqliteStorage({ path: db, indexDir: false });
  await s.init({ embeddingModel: MODEL, dimension: DIM });
  const texts = synthEvents(n, 7);
  const r = rng(3);
  const t0 = performance.now();
  for (let i = 0; i < n; i += 1000) {
    await s.appendEvents(texts.slice(i, i + 1000).map((e) => makeEvent({ tenant: TENANT, content: e.content as string, sessionId: e.sessionId, ts: e.ts as number, recordedAt: (e.ts as number) + 1 }, r)));
    if (i % 20000 === 0) console.log(`  appended ${i + 1000} (${round((performance.now() - t0) / 1000, 1)} s)`);
  }
  let done = 0;
  for (;;) {
    const pending = await s.pendingEmbeddings(2000);
    if (pending.length === 0) break;
    await s.putEmbeddings(pending.map((p) => ({ contentHash: p.contentHash, vector: vectorFor(done++) })));
  }
  console.log(`  built ${n} memories, ${done} vectors in ${round((performance.now() - t0) / 1000, 1)} s`);
  await s.close();
}

async function main(): Promise<void> {
  if (positionals[0] === 'child') return child();
  const n = Number(opts.size);
  const runs = Number(opts.runs);
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'engram-cold-open-'));
  const db = join(dir, 'bench.db');
  console.log(`cold open, SQLite, ${n} memories, ${DIM}-d vectors; load ${loadavg().map((x) => round(x, 1)).join(' ')}`);
  try {
    await build(db, n);
    const prime = runChild(db, 'prime');
    console.log('prime (built from rows, graph completed, files saved):', JSON.stringify({ ...prime, loads: undefined }));
    const warm = prime.warmP95 as number;
    const rows: Record<string, unknown>[] = [];
    const files: Record<string, unknown>[] = [];
    for (let i = 0; i < runs; i++) {
      files.push(runChild(db, 'files', warm));
      console.log(' files:', JSON.stringify({ ...files.at(-1), saves: undefined }));
      rows.push(runChild(db, 'rows', warm));
      console.log(' rows: ', JSON.stringify({ ...rows.at(-1), saves: undefined, loads: undefined }));
    }
    const med = (xs: Record<string, unknown>[], k: string) => round(median(xs.map((x) => x[k] as number)));
    console.log(`\nwarm p95 (lexical + vector) ${warm} ms; load ${loadavg().map((x) => round(x, 1)).join(' ')}`);
    console.log('| indexes | first search ms | full speed ms | RSS MB |');
    console.log('|---|---|---|---|');
    for (const [name, xs] of [['saved files', files], ['rebuilt from rows', rows]] as const) {
      console.log(`| ${name} | ${med(xs, 'firstMs')} | ${med(xs, 'fullSpeedMs')} | ${med(xs, 'rssMb')} |`);
    }
  } finally {
    if (!opts.keep) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
