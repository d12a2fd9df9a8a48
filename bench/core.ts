/**
 * `npm run bench:core` — the core figures of the embedded default (SQLite file + USE-lite):
 *   logEvent p50/p95 (durable ack, background embedding on), bulk events/s (not waiting for embeddings),
 *   embeddings/s (backlog drain with the worker pool), search and getContext p50/p95/p99 at 10k and 100k
 *   stored memories (query embedding included), measured once the indexes are warm (`memory.warm()`: the
 *   time that takes, mostly building the HNSW graph, is reported as `warm s`).
 * Options: --sizes 10000,100000  --runs 3  --queries 200  --json
 *
 * Populating 100k memories through the model would take ~20 minutes on 2 cores, so vectors for the large
 * stores are made this way: `--pool` texts (default 3000) are embedded by the model, and every other memory
 * gets a real embedding of a text of its own template family plus Gaussian noise (cosine ≈ 0.9 to it).
 * Search cost depends on the number and dimension of vectors, not on how they were produced; queries are
 * always embedded by the model at query time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createUseLiteEmbedder } from '../src/index.js';
import { createHeuristicReranker } from '../src/index.js';
import { openSqliteStorage } from '../src/index.js';
import { createMemory, type Memory } from '../src/index.js';
import type { Embedder } from '../src/index.js';
import { rng, synthEvents, synthFacts, synthQueries } from './perf/synthetic.js';
import { fileSizeMb, latency, machine, median, round, rssMb, table, timeEach } from './stats.js';
import { noisy } from './perf/pool-embedder.js';

/** Noise of norm 0.5 in all around a real unit vector (cosine ≈ 0.9 to it), spread over its dimensions. */
const noiseFor = (v: Float32Array) => 0.5 / Math.sqrt(v.length);
const pick = <T>(xs: readonly T[], r: () => number): T => xs[Math.floor(r() * xs.length)]!;

const { values: opts } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000' },
    runs: { type: 'string', default: '3' },
    queries: { type: 'string', default: '200' },
    pool: { type: 'string', default: '3000' },
    json: { type: 'boolean', default: false },
  },
});
const sizes = opts.sizes.split(',').map(Number);
const runs = Number(opts.runs);
const nQueries = Number(opts.queries);
const log = (s: string) => {
  if (!opts.json) process.stderr.write(`${s}\n`);
};

/** Keeps one model instance across the memories a benchmark opens. */
function keepOpen(e: Embedder): Embedder {
  return { get model() { return e.model; }, get dimension() { return e.dimension; }, init: () => e.init(), embed: (t, o) => e.embed(t, o), close: async () => undefined };
}

async function open(embedder: Embedder, background: boolean): Promise<{ memory: Memory; path: string; done: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-'));
  const path = join(dir, 'bench.db');
  const memory = await createMemory({
    storage: await openSqliteStorage({ path }),
    embedder: keepOpen(embedder),
    reranker: createHeuristicReranker(),
    config: { indexing: { background }, retention: { sweepIntervalMinutes: 0 }, learn: { engine: { background } } },
  });
  return { memory, path, done: async () => { await memory.close(); rmSync(dir, { recursive: true, force: true }); } };
}

async function writePath(embedder: Embedder) {
  const { memory, done } = await open(embedder, true);
  const events = synthEvents(22_000, 1).map(({ family: _f, ...e }) => e);
  const single = events.slice(0, 2000);
  log('write path: 2,000 sequential logEvent calls (background embedding running)…');
  const ack = await timeEach(single, (e) => memory.logEvent(e));
  log('write path: bulk logEvents, 20,000 events in batches of 1,000…');
  const t0 = performance.now();
  for (let i = 2000; i < events.length; i += 1000) await memory.logEvents(events.slice(i, i + 1000));
  const bulkSec = (performance.now() - t0) / 1000;
  log('embedding: draining 4,000 texts of the backlog with the worker pool…');
  const before = await memory.embeddingBacklog();
  const t1 = performance.now();
  const target = before - 4000;
  while ((await memory.embeddingBacklog()) > target) await new Promise((r) => setTimeout(r, 100));
  const embedSec = (performance.now() - t1) / 1000;
  await done();
  return { logEvent: latency(ack), bulkEventsPerSec: Math.round(20_000 / bulkSec), embeddingsPerSec: round(4000 / embedSec, 1) };
}

async function populate(memory: Memory, embedder: Embedder, n: number, poolSize: number): Promise<void> {
  const nFacts = Math.floor(n * 0.2);
  const events = synthEvents(n - nFacts, 7);
  const facts = synthFacts(nFacts, 8);
  const family = new Map<string, string>();
  for (const e of events) family.set(e.content as string, e.family);
  for (const f of facts) family.set(f.text, f.family);
  for (let i = 0; i < events.length; i += 1000) await memory.logEvents(events.slice(i, i + 1000).map(({ family: _f, ...e }) => e));
  for (const { family: _f, ...f } of facts) await memory.remember(f);
  const r = rng(99);
  const real = new Map<string, Float32Array[]>();
  let embedded = 0;
  for (;;) {
    const pending = await memory.storage.pendingEmbeddings(2000);
    if (pending.length === 0) break;
    const toEmbed = embedded < poolSize ? pending.slice(0, poolSize - embedded) : [];
    const vectors = toEmbed.length ? await embedder.embed(toEmbed.map((p) => p.text)) : [];
    embedded += toEmbed.length;
    const rows = pending.map((p, i) => {
      const fam = family.get(p.text) ?? 'other';
      let v = vectors[i];
      if (v) {
        real.set(fam, [...(real.get(fam) ?? []), v]);
      } else {
        const pool = real.get(fam) ?? [...real.values()].flat();
        v = noisy(pick(pool, r), r, noiseFor(pool[0]!));
      }
      return { contentHash: p.contentHash, vector: v };
    });
    await memory.storage.putEmbeddings(rows);
    log(`  vectors ${embedded} embedded + ${rows.length - toEmbed.length} derived…`);
  }
}

async function readPath(embedder: Embedder, n: number) {
  const { memory, path, done } = await open(embedder, false);
  log(`read path at ${n.toLocaleString()} memories: populating…`);
  await populate(memory, embedder, n, Number(opts.pool));
  // Steady state: the tenant's lexical and vector indexes loaded and the HNSW graph built (the time it takes
  // is reported; until it is done, searches fall back to the exact scan).
  const tw = performance.now();
  await memory.warm();
  const warmSeconds = round((performance.now() - tw) / 1000, 1);
  log(`  indexes warm in ${warmSeconds} s`);
  const searchRuns: ReturnType<typeof latency>[] = [];
  const contextRuns: ReturnType<typeof latency>[] = [];
  for (let run = 0; run < runs; run++) {
    const queries = synthQueries(nQueries + 20, 1000 + run).map((q) => `${q} r${run}`);
    const warm = queries.slice(0, 20);
    for (const q of warm) await memory.search({ query: q, k: 10 });
    const qs = queries.slice(20);
    searchRuns.push(latency(await timeEach(qs, (q) => memory.search({ query: `${q} s`, k: 10 }))));
    contextRuns.push(latency(await timeEach(qs, (q) => memory.getContext(`${q} c`, { merge_policy: { token_budget: 2000 } }))));
    log(`  run ${run + 1}/${runs}: search p95 ${searchRuns.at(-1)!.p95} ms, getContext p95 ${contextRuns.at(-1)!.p95} ms`);
  }
  const med = (xs: ReturnType<typeof latency>[], k: 'p50' | 'p95' | 'p99') => round(median(xs.map((x) => x[k])));
  const result = {
    memories: n,
    search: { p50: med(searchRuns, 'p50'), p95: med(searchRuns, 'p95'), p99: med(searchRuns, 'p99') },
    getContext: { p50: med(contextRuns, 'p50'), p95: med(contextRuns, 'p95'), p99: med(contextRuns, 'p99') },
    warmSeconds,
    dbMb: fileSizeMb(path),
    rssMb: rssMb(),
  };
  await done();
  return result;
}

const embedder = createUseLiteEmbedder({ provider: 'use-lite', workers: 2, batchSize: 16 });
await embedder.init();
const write = await writePath(embedder);
const reads = [];
for (const n of sizes) reads.push(await readPath(embedder, n));
await embedder.close();

const report = { machine: machine(), runs, queriesPerRun: nQueries, write, reads };
if (opts.json) {
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
} else {
  process.stdout.write(`\nEngram core benchmark — ${report.machine}\n\n`);
  process.stdout.write(
    `${table([
      { metric: 'logEvent p50 (ms)', value: write.logEvent.p50, target: '' },
      { metric: 'logEvent p95 (ms)', value: write.logEvent.p95, target: '≤ 2' },
      { metric: 'bulk events/s', value: write.bulkEventsPerSec, target: '≥ 5000' },
      { metric: 'embeddings/s (2 workers)', value: write.embeddingsPerSec, target: '' },
    ])}\n\n`,
  );
  process.stdout.write(
    `${table(
      reads.map((r) => ({
        memories: r.memories,
        'search p50': r.search.p50,
        'search p95': r.search.p95,
        'context p50': r.getContext.p50,
        'context p95': r.getContext.p95,
        'context p99': r.getContext.p99,
        'warm s': r.warmSeconds,
        'db MB': r.dbMb,
        'rss MB': r.rssMb,
      })),
    )}\n(ms; median over ${runs} runs of ${nQueries} queries; target: getContext p95 ≤ 30 ms at 100k)\n`,
  );
}
