/**
 * `npx tsx bench/cold-open.ts` — what a process start costs on a SQLite store of N memories, with the search
 * indexes saved beside the file (loaded from them, then caught up from the change feed) and without (built
 * from the rows: BM25 re-analyzes every text, the HNSW graph is rebuilt in the background).
 *
 *   npx tsx bench/cold-open.ts [--size 100000] [--dim 512] [--runs 3] [--dir /tmp/x] [--keep] [--reuse] [--build-only]
 *     [--runtime tsx|dist] [--after-check 20]
 *
 * --api memory measures getContext through createMemory (query vectors precomputed, heuristic reranker)
 * instead of the storage's lexical + vector search; the prime child then also reports recall@10 of the vector
 * search against the exact f32 answer.
 * --reuse keeps the store in --dir and, on a later call, skips building it when a build completed there.
 * --runtime dist runs the children with plain `node` on this file bundled to JS, loading the engine from dist
 * (the built JS a server runs) instead of src through tsx.
 *
 * Each run is a fresh `node` process that opens the store and searches one tenant (lexical + vector, k 10,
 * through the storage). Reported per mode, medians over runs:
 *   - first search: ms from process start (node's time origin) to the first answered lexical + vector search;
 *   - full speed: ms from process start until a window of 20 searches has p95 within 1.2× the warm p95 (the
 *     warm p95 is measured first, in a process whose graph is complete);
 *   - RSS (MB) at full speed.
 * Vectors are synthetic (clustered, unit, deterministic, one per doc); texts are bench/perf's synthetic events,
 * each with a per-doc reference so that no two docs share a text (and so a vector).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openSqliteStorage, type SqliteStorage } from '../src/adapters/storage/sqlite/index.js';
import { unit } from '../src/adapters/storage/sql/vector-codec.js';
import { loadUsearch } from '../src/adapters/vector/usearch-module.js';
import { createHeuristicReranker, createMemory, type Embedder, type Memory } from '../src/index.js';
import type { IndexEvent } from '../src/adapters/storage/sql/index-file.js';
import { makeEvent } from '../src/testing/storage-factories.js';
import { rng, synthEvents, synthQueries } from './perf/synthetic.js';
import { median, percentile, round } from './stats.js';
import { clusteredVector, readStoreRows } from './store-rows.js';

const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    size: { type: 'string', default: '100000' },
    dim: { type: 'string', default: '512' },
    runs: { type: 'string', default: '3' },
    dir: { type: 'string' },
    keep: { type: 'boolean', default: false },
    /** Reuse the store in --dir when a previous build completed there (a `built` marker); implies --keep. */
    reuse: { type: 'boolean', default: false },
    'build-only': { type: 'boolean', default: false },
    /** 'storage': lexical + vector search through the storage; 'memory': getContext through createMemory. */
    api: { type: 'string', default: 'storage' },
    // child only
    db: { type: 'string' },
    mode: { type: 'string' },
    warm: { type: 'string', default: '0' },
    /** Queries timed once the side files are checked (the graph in use): their p95 is `afterCheckP95`. */
    'after-check': { type: 'string', default: '20' },
    /** Skip the prime child (files must exist already) and take this warm p95. */
    'warm-p95': { type: 'string' },
    /**
     * How the children run: 'tsx' (this file and src, compiled by tsx as the process starts) or 'dist' (plain
     * `node` on this file bundled to JS, importing the engine from dist as `npm start` does; `npm run build` first).
     */
    runtime: { type: 'string', default: 'tsx' },
  },
});

const TENANT = 'bench';
const MODEL = 'bench-synthetic';
const DIM = Number(opts.dim);
const WINDOW = 20;

const vectorFor = (i: number): Float32Array => clusteredVector(i, DIM);

const queries = synthQueries(200, 1000);
const queryVectors = queries.map((_, i) => vectorFor(10_000_000 + i));

/** Hands out the precomputed query vectors (the model is kept out of the figures). */
const lookupEmbedder: Embedder = {
  model: MODEL,
  dimension: DIM,
  init: async () => ({ dimension: DIM }),
  embed: async (texts) => texts.map((t) => queryVectors[Math.max(0, queries.indexOf(t))]!),
  close: async () => undefined,
};

let memory: Memory | null = null;
/** Query index of the searches after full speed. */
let i0 = 0;

async function searchOnce(s: SqliteStorage, i: number): Promise<number> {
  const t0 = performance.now();
  if (memory) {
    await memory.getContext(queries[i % queries.length]!, { tenant: TENANT, merge_policy: { token_budget: 2000 } });
    return performance.now() - t0;
  }
  const now = Date.now();
  await s.lexicalSearch({ tenant: TENANT, text: queries[i % queries.length]!, k: 10, now });
  await s.vectorSearch({ tenant: TENANT, vector: queryVectors[i % queryVectors.length]!, k: 10, now });
  return performance.now() - t0;
}

async function child(): Promise<void> {
  const events: IndexEvent[] = [];
  const s = await openSqliteStorage({ path: opts.db!, ...(opts.mode === 'rows' ? { indexDir: false as const } : {}), onIndexEvent: (e) => events.push({ ...e, at: round(performance.now()) } as unknown as IndexEvent) });
  await s.init({ embeddingModel: MODEL, dimension: DIM });
  if (opts.api === 'memory') {
    memory = await createMemory({
      storage: s,
      embedder: lookupEmbedder,
      reranker: createHeuristicReranker(),
      // 'whole': the store's vectors are one per doc, under the model name itself.
      config: { indexing: { background: false, documentVectors: 'whole' }, retention: { sweepIntervalMinutes: 0 }, learn: { engine: { background: false } } },
    });
  }
  const opened = performance.now();
  await searchOnce(s, 0);
  const first = performance.now();
  const out: Record<string, unknown> = { openMs: round(opened), firstMs: round(first), loads: events.filter((e) => e.kind === 'loaded') };
  if (opts.mode === 'prime') {
    await s.warm(TENANT); // completes the graph and saves the files
    const lat: number[] = [];
    for (let i = 0; i < 100; i++) lat.push(await searchOnce(s, i));
    out.warmP95 = round(percentile(lat, 95));
    out.warmP50 = round(percentile(lat, 50));
    out.rssWarmMb = round(process.memoryUsage().rss / 2 ** 20);
    out.rssWarm = rssParts();
    out.recallAt10 = await recallAt10(s);
  } else {
    const target = Number(opts.warm) * 1.2;
    let i = 0;
    i0 = 1_000;
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
  if (opts.mode === 'files' && events.some((e) => e.kind === 'loaded' && e.from === 'file')) {
    // A vector file loaded in place answers exactly until its side files are checked; wait (up to a minute) for
    // that and report when it happened (the graph is in use from then on).
    const t = performance.now();
    while (!events.some((e) => e.kind === 'checked' || e.kind === 'check-failed') && performance.now() - t < 60_000) await new Promise((r) => setTimeout(r, 20));
    const lat: number[] = [];
    for (let k = 0; k < Number(opts['after-check']); k++) lat.push(await searchOnce(s, i0++));
    out.afterCheckP50 = round(percentile(lat, 50));
    out.afterCheckP95 = round(percentile(lat, 95));
  }
  out.rssMb = round(process.memoryUsage().rss / 2 ** 20);
  out.peakRssMb = round(process.resourceUsage().maxRSS / 1024);
  Object.assign(out, rssParts());
  out.checks = events.filter((e) => e.kind === 'checked' || e.kind === 'check-failed');
  if (memory) await memory.close();
  else await s.close();
  out.saves = events.filter((e) => e.kind === 'saved');
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

/**
 * recall@10 of the storage's vector search (HNSW, rescored in f32) against the exact f32 answer over every
 * vector of the tenant (read from the rows here, after the RSS figures were taken).
 */
async function recallAt10(s: SqliteStorage): Promise<number> {
  const usearch = loadUsearch();
  if (!usearch) return NaN;
  const { ids, data } = readStoreRows(opts.db!, TENANT, MODEL, DIM);
  let sum = 0;
  const n = 100;
  for (let i = 0; i < n; i++) {
    const q = unit(queryVectors[i]!);
    const exact = usearch.exactSearch(data, q, DIM, 10, 'ip', 2);
    const want = new Set(Array.from(exact.keys, (k) => ids[Number(k)]!));
    const got = await s.vectorSearch({ tenant: TENANT, vector: q, k: 10, now: Date.now() });
    sum += got.filter((h) => want.has(h.docId)).length / 10;
  }
  return round(sum / n, 3);
}

/**
 * RSS split as Linux reports it: anonymous memory (the heap, typed arrays) and file pages mapped in (a viewed
 * HNSW graph; the OS can drop them under memory pressure and read them again).
 */
function rssParts(): { rssAnonMb?: number; rssFileMb?: number } {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rssAnonMb: round(kb('RssAnon') / 1024), rssFileMb: round(kb('RssFile') / 1024) };
  } catch {
    return {};
  }
}

/**
 * This file as one ES module for plain `node` (esbuild, which tsx runs on): the bench's own helpers bundled in,
 * every import of src turned into an import of the same module in dist, packages left to node_modules.
 */
async function bundleForDist(): Promise<string> {
  const { build } = await import('esbuild');
  const src = join(import.meta.dirname, '..', 'src');
  const dist = join(import.meta.dirname, '..', 'dist');
  // Under node_modules, so that the bundle's package imports resolve as this file's do.
  const out = join(import.meta.dirname, '..', 'node_modules', '.cache', 'engram-bench', 'cold-open-child.mjs');
  await build({
    entryPoints: [import.meta.filename],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'error',
    plugins: [
      {
        name: 'src-to-dist',
        setup(b) {
          b.onResolve({ filter: /\/src\// }, (a) => {
            const path = join(a.resolveDir, a.path);
            return path.startsWith(src) ? { path: dist + path.slice(src.length), external: true } : undefined;
          });
        },
      },
    ],
  });
  return out;
}

/** The child's entry: this file through tsx, or (--runtime dist) its bundle for plain node. */
let childEntry: string[] = ['--import', 'tsx', import.meta.filename];

function runChild(db: string, mode: string, warm = 0): Record<string, unknown> {
  const r = spawnSync(process.execPath, [...childEntry, 'child', '--db', db, '--mode', mode, '--warm', String(warm), '--dim', String(DIM), '--api', opts.api, '--runtime', opts.runtime, '--after-check', opts['after-check']], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(`child ${mode} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
}

/**
 * The synthetic texts repeat (a few hundred thousand distinct among a million), and vectors are stored per
 * distinct text, so docs with the same text would share one vector and tie exactly in vector search. A per-doc
 * reference like a ticket id makes every text, and so every vector, distinct; written as two numbers below 1000
 * it adds at most a thousand terms to the lexical index, not one per doc.
 */
const distinct = (text: string, i: number): string => `${text} (ref ${Math.floor(i / 1000)}-${i % 1000})`;

async function build(db: string, n: number): Promise<void> {
  const s = await openSqliteStorage({ path: db, indexDir: false });
  await s.init({ embeddingModel: MODEL, dimension: DIM });
  const texts = synthEvents(n, 7);
  const r = rng(3);
  const t0 = performance.now();
  for (let i = 0; i < n; i += 1000) {
    await s.appendEvents(texts.slice(i, i + 1000).map((e, j) => makeEvent({ tenant: TENANT, content: distinct(e.content as string, i + j), sessionId: e.sessionId, ts: e.ts as number, recordedAt: (e.ts as number) + 1 }, r)));
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
  mkdirSync(dir, { recursive: true });
  const db = join(dir, 'bench.db');
  console.log(`cold open, SQLite, ${n} memories, ${DIM}-d vectors; load ${loadavg().map((x) => round(x, 1)).join(' ')}`);
  const marker = join(dir, `built-${n}-${DIM}`);
  try {
    if (opts.reuse && existsSync(marker)) {
      console.log(`  reusing the store in ${dir}`);
    } else {
      await build(db, n);
      writeFileSync(marker, new Date().toISOString());
    }
    if (opts['build-only']) return;
    if (opts.runtime === 'dist') childEntry = [await bundleForDist()];
    let warm = Number(opts['warm-p95'] ?? NaN);
    if (!(warm > 0)) {
      const prime = runChild(db, 'prime');
      console.log('prime (indexes loaded, graph completed, files saved):', JSON.stringify({ ...prime, loads: undefined }));
      warm = prime.warmP95 as number;
    }
    const rows: Record<string, unknown>[] = [];
    const modes = (process.env.COLD_OPEN_MODES ?? 'files,rows').split(',');
    const files: Record<string, unknown>[] = [];
    for (let i = 0; i < runs; i++) {
      if (modes.includes('files')) {
        files.push(runChild(db, 'files', warm));
        console.log(' files:', JSON.stringify({ ...files.at(-1), saves: undefined }));
      }
      if (modes.includes('rows')) {
        rows.push(runChild(db, 'rows', warm));
        console.log(' rows: ', JSON.stringify({ ...rows.at(-1), saves: undefined, loads: undefined }));
      }
    }
    const med = (xs: Record<string, unknown>[], k: string) => round(median(xs.map((x) => x[k] as number)));
    console.log(`\nwarm p95 (${opts.api === 'memory' ? 'getContext' : 'lexical + vector'}) ${warm} ms; load ${loadavg().map((x) => round(x, 1)).join(' ')}`);
    console.log('| indexes | first search ms | full speed ms | RSS MB | of which anon / file MB | peak RSS MB |');
    console.log('|---|---|---|---|---|---|');
    for (const [name, xs] of [['saved files', files], ['rebuilt from rows', rows]] as const) {
      if (xs.length === 0) continue;
      console.log(`| ${name} | ${med(xs, 'firstMs')} | ${med(xs, 'fullSpeedMs')} | ${med(xs, 'rssMb')} | ${med(xs, 'rssAnonMb')} / ${med(xs, 'rssFileMb')} | ${med(xs, 'peakRssMb')} |`);
    }
  } finally {
    if (!opts.keep && !opts.reuse) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
