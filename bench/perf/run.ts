/**
 * `npm run bench:perf --`: Engram on synthetic agent memories at several sizes (ingest ack latency, bulk
 * events/s, backlog drain, search/getContext percentiles, RSS, DB size, exact vs ANN recall@10), and Mem0
 * (`infer:false`, file-backed `memory` store, same vectors) on the same 20k workload for the ratios.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { createUseLiteEmbedder } from '../../src/index.js';
import { createHeuristicReranker } from '../../src/index.js';
import { openSqliteStorage } from '../../src/index.js';
import { createVectorIndex, describeVectorIndex, FlatVectorIndex } from '../../src/adapters/vector/index.js';
import { createMemory, type Memory } from '../../src/index.js';
import { cosine } from '../lib/vector.js';
import type { Embedder } from '../../src/index.js';
import { cachedEmbedder } from '../locomo/embed-cache.js';
import { keepOpen } from '../locomo/engine.js';
import { openMem0 } from '../mem0/mem0.js';
import { compareWithModel, type ModelInCallReport } from './model-in-call.js';
import { poolEmbedder } from './pool-embedder.js';
import { causes, symptoms, synthEvents, synthQueries } from './synthetic.js';
import { fileSizeMb, latency, round, rssMb, timeEach, type Latency } from '../stats.js';

export interface PerfOptions {
  sizes: number[];
  queries: number;
  pool: number;
  mem0Size: number;
  /** Memories in the one-at-a-time comparison with the model in each side's loop (model-in-call.ts); 0: skip. */
  modelSize: number;
  mem0: boolean;
  ann: boolean;
  cacheDir: string;
  embedder?: Embedder | undefined;
  log?: ((s: string) => void) | undefined;
}

export interface SizeReport {
  n: number;
  /** Seconds `memory.warm()` took (loading indexes, completing the HNSW graph) before the searches. */
  warmSeconds: number;
  ackMs: Latency;
  bulkEventsPerSec: number;
  drainPerSec: number;
  search: Latency;
  getContext: Latency;
  rssMb: number;
  dbMb: number;
  /**
   * recallAt10: share of the exact top 10 the ANN index returns. nearRecallAt10: share of the ANN's 10 whose
   * distance (1 − cosine) is within 1% of the exact 10th's (ann-benchmarks' ε = 0.01): on near-duplicate
   * memories the exact top 10 is one arbitrary pick among equals, and a miss of that pick is no worse a result.
   */
  ann: { mode: string; recallAt10: number | null; nearRecallAt10: number | null; exactMs: Latency; annMs: Latency } | null;
}

export interface PerfReport {
  machine: string;
  loadAvg: number[];
  modelEmbeddingsPerSec: number;
  sizes: SizeReport[];
  mem0: null | {
    n: number;
    /** Writers in flight in the concurrent ingest runs (an agent fleet, or tool calls logged in parallel). */
    concurrency: number;
    mem0AddPerSec: number;
    mem0ConcurrentAddPerSec: number;
    engramLogEventPerSec: number;
    engramConcurrentLogEventPerSec: number;
    /** Memories/s through each side's batch call: Mem0 `add` of a message list, Engram `logEvents`. */
    mem0BatchAddPerSec: number;
    engramBatchLogEventsPerSec: number;
    /** Engram's sequential durable logEvent rate over Mem0's sequential add rate. */
    ingestRatio: number;
    /** The same with `concurrency` writers in flight on each side (Engram group-commits them). */
    concurrentIngestRatio: number;
    /** Engram's batch rate over Mem0's. */
    batchIngestRatio: number;
    mem0SearchMs: Latency;
    engramSearchMs: Latency;
    searchP95Ratio: number;
    mem0Precision10: number;
    engramPrecision10: number;
    /** One call at a time with the real model on both sides (model-in-call.ts); null when skipped. */
    withModel: ModelInCallReport | null;
  };
  mem0Note?: string;
}

export async function runPerfBench(opts: PerfOptions): Promise<PerfReport> {
  const log = opts.log ?? (() => undefined);
  mkdirSync(opts.cacheDir, { recursive: true });
  const real = opts.embedder ?? createUseLiteEmbedder({ provider: 'use-lite', workers: 2, batchSize: 16 });
  await real.init();
  const cached = cachedEmbedder(real, join(opts.cacheDir, 'embeddings.db'), { closeInner: false });
  try {
    log('model embedding rate: 400 fresh texts…');
    const fresh = Array.from({ length: 400 }, (_, i) => `fresh text ${Date.now()} number ${i} about the ${symptoms[i % symptoms.length]!}`);
    const t0 = performance.now();
    await real.embed(fresh);
    const modelEmbeddingsPerSec = round(400 / ((performance.now() - t0) / 1000), 1);
    const maxN = Math.max(...opts.sizes, opts.mem0 ? opts.mem0Size : 0);
    const corpus = synthEvents(maxN, 1).map((e) => ({ ...e, text: e.content! }));
    log(`embedding a pool of ${opts.pool} real texts (cached)…`);
    const vectors = await poolEmbedder(cached, corpus, opts.pool);
    const queries = synthQueries(opts.queries, 2);
    await cached.embed(queries);
    const sizes: SizeReport[] = [];
    for (const n of opts.sizes) {
      log(`size ${n}…`);
      sizes.push(await measureSize(vectors, corpus.slice(0, n), queries, opts.ann, log));
    }
    let mem0: PerfReport['mem0'] = null;
    let mem0Note: string | undefined;
    if (opts.mem0) {
      try {
        mem0 = await compareMem0(vectors, corpus.slice(0, opts.mem0Size), queries.slice(0, Math.min(50, queries.length)), log);
        if (opts.modelSize > 0) {
          log(`mem0 and engram: ${opts.modelSize} adds one at a time with the model in the loop…`);
          // Fresh texts: nothing of them is in any cache.
          const texts = corpus.slice(0, opts.modelSize).map((c, i) => `${c.content!} (model ${i} ${Date.now()})`);
          mem0.withModel = await compareWithModel(real, texts, (e) => openEngram(e, true));
        }
      } catch (e) {
        mem0Note = `Mem0 not run: ${e instanceof Error ? e.message : String(e)}`;
      }
    }
    return {
      machine: `${cpus().length} cores (${cpus()[0]?.model ?? 'cpu'}), ${round(totalmem() / 2 ** 30, 0)} GiB, Node ${process.version}`,
      loadAvg: loadavg().map((x) => round(x, 2)),
      modelEmbeddingsPerSec,
      sizes,
      mem0,
      ...(mem0Note ? { mem0Note } : {}),
    };
  } finally {
    await cached.close();
    if (!opts.embedder) await real.close();
  }
}

async function openEngram(embedder: Embedder, background: boolean): Promise<{ memory: Memory; path: string; done: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-perf-'));
  const path = join(dir, 'perf.db');
  const memory = await createMemory({
    storage: await openSqliteStorage({ path }),
    embedder: keepOpen(embedder),
    reranker: createHeuristicReranker(),
    // The vectors here are stand-ins (pool-embedder.ts), one per memory text as Mem0 gets them: the sentence
    // recipe's model cost is bench:core's embedding figure, not this bench's. Learning stays off: this bench
    // measures the write and read paths (Mem0 with `infer: false` does not learn either).
    config: { indexing: { background, documentVectors: 'whole' }, retention: { sweepIntervalMinutes: 0 }, learn: { engine: { background: false } } },
  });
  return { memory, path, done: async () => { await memory.close(); rmSync(dir, { recursive: true, force: true }); } };
}

type Corpus = (ReturnType<typeof synthEvents>[number] & { text: string })[];

async function measureSize(embedder: Embedder, corpus: Corpus, queries: string[], ann: boolean, log: (s: string) => void): Promise<SizeReport> {
  const { memory, path, done } = await openEngram(embedder, true);
  try {
    const events = corpus.map(({ family: _f, text: _t, ...e }) => e);
    const single = events.slice(0, Math.min(500, events.length));
    const ack = await timeEach(single, (e) => memory.logEvent(e));
    const t0 = performance.now();
    for (let i = single.length; i < events.length; i += 1000) await memory.logEvents(events.slice(i, i + 1000));
    const bulkSec = (performance.now() - t0) / 1000;
    const backlog = await memory.embeddingBacklog();
    const t1 = performance.now();
    // A 1M drain takes many minutes: say how it goes, at most every 10 s.
    let said = t1;
    const stop = memory.onIndexProgress((p) => {
      if (performance.now() - said < 10_000) return;
      said = performance.now();
      log(`  draining: ${p.embedded} embedded, ${p.backlog} waiting (${Math.round((said - t1) / 1000)} s)`);
    });
    await memory.flush({ learn: false }); // the embedding backlog; segmenting the synthetic timeline is not measured here
    stop();
    const drainSec = (performance.now() - t1) / 1000;
    const tw = performance.now();
    await memory.warm();
    const warmSeconds = round((performance.now() - tw) / 1000, 1);
    log(`  ingested ${events.length}, indexes warm in ${warmSeconds} s, searching…`);
    const search = await timeEach(queries, (q) => memory.search({ query: q, k: 10 }));
    const ctx = await timeEach(queries, (q) => memory.getContext(q, { semantic_retrieval: { top_k: 10 }, merge_policy: { token_budget: 2000 } }));
    return {
      n: corpus.length,
      warmSeconds,
      ackMs: latency(ack),
      bulkEventsPerSec: Math.round((events.length - single.length) / Math.max(bulkSec, 1e-9)),
      drainPerSec: backlog > 0 ? Math.round(backlog / Math.max(drainSec, 1e-9)) : 0,
      search: latency(search),
      getContext: latency(ctx),
      rssMb: rssMb(),
      dbMb: fileSizeMb(path),
      ann: ann ? await annRecall(embedder, corpus, queries) : null,
    };
  } finally {
    await done();
  }
}

/** Tolerance of nearRecallAt10 on distance (ann-benchmarks' "epsilon" recall). */
const NEAR_EPSILON = 0.01;

/** Exact scan vs the ANN index (usearch HNSW when it loads) on the same vectors: recall@10 against exact. */
async function annRecall(embedder: Embedder, corpus: Corpus, queries: string[]): Promise<SizeReport['ann']> {
  const dim = embedder.dimension;
  const exact = new FlatVectorIndex(dim);
  const approx = createVectorIndex(dim, { indexing: 'inline', annThreshold: Math.min(20_000, corpus.length) });
  const stored: Float32Array[] = [];
  for (let i = 0; i < corpus.length; i += 2000) {
    const vs = await embedder.embed(corpus.slice(i, i + 2000).map((c) => c.content!));
    vs.forEach((v, j) => {
      stored.push(v);
      exact.add(i + j, v);
      approx.add(i + j, v);
    });
  }
  const qv = await embedder.embed(queries);
  const mode = describeVectorIndex(approx).mode;
  let found = 0;
  let near = 0;
  const exactMs: number[] = [];
  const annMs: number[] = [];
  for (const q of qv) {
    let t = performance.now();
    const e = exact.search(q, 10);
    exactMs.push(performance.now() - t);
    t = performance.now();
    const hits = approx.search(q, 10);
    annMs.push(performance.now() - t);
    const a = new Set(hits.map((h) => h.id));
    found += e.filter((h) => a.has(h.id)).length;
    const limit = (1 - (e.at(-1)?.score ?? -1)) * (1 + NEAR_EPSILON);
    near += hits.filter((h) => 1 - cosine(q, stored[h.id]!) <= limit + 1e-9).length;
  }
  const share = (x: number) => (approx.approximate ? round(x / (10 * qv.length), 3) : null);
  return { mode, recallAt10: share(found), nearRecallAt10: share(near), exactMs: latency(exactMs), annMs: latency(annMs) };
}

/** Share of the top 10 whose text contains the query's subject (symptom or cause phrase). */
function precisionAt10(query: string, texts: readonly string[]): number {
  const subject = [...symptoms, ...causes].filter((s) => query.includes(s)).sort((a, b) => b.length - a.length)[0];
  if (!subject) return 0;
  return texts.slice(0, 10).filter((t) => t.includes(subject)).length / 10;
}

/** Writers in flight in the concurrent ingest comparison. */
const INGEST_CONCURRENCY = 16;
/** The batch ingest comparison: this many calls of this many memories on each side. */
const BATCH_CALLS = 2;
const BATCH_SIZE = 1000;

/** Runs `fn` over `items` with `concurrency` calls in flight; returns items per second. */
async function rate<T>(items: readonly T[], concurrency: number, fn: (item: T) => Promise<unknown>): Promise<number> {
  const t = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
  return round(items.length / ((performance.now() - t) / 1000), 1);
}

/** Runs `fn` on each batch in turn; returns items (not batches) per second. */
async function batchRate<T>(batches: readonly (readonly T[])[], fn: (batch: readonly T[]) => Promise<unknown>): Promise<number> {
  const t = performance.now();
  for (const b of batches) await fn(b);
  const items = batches.reduce((n, b) => n + b.length, 0);
  return round(items / ((performance.now() - t) / 1000), 1);
}

async function compareMem0(embedder: Embedder, corpus: Corpus, queries: string[], log: (s: string) => void): Promise<NonNullable<PerfReport['mem0']>> {
  const n = corpus.length;
  // The concurrent runs add a further slice of the corpus on top (unique texts, no dedupe shortcut).
  const extra = corpus.slice(0, Math.min(2000, n)).map((c, i) => ({ ...c, content: `${c.content!} (batch ${i})` }));
  // And the batch runs another: BATCH_CALLS calls of BATCH_SIZE memories on each side.
  const bulk = corpus.slice(0, Math.min(BATCH_CALLS * BATCH_SIZE, n)).map((c, i) => ({ ...c, content: `${c.content!} (bulk ${i})` }));
  const batches = Array.from({ length: Math.ceil(bulk.length / BATCH_SIZE) }, (_, i) => bulk.slice(i * BATCH_SIZE, (i + 1) * BATCH_SIZE));
  log(`mem0: ${n} durable adds one at a time (file-backed memory store), then ${extra.length} with ${INGEST_CONCURRENCY} in flight…`);
  const m0 = await openMem0(embedder);
  try {
    await embedder.embed([...extra, ...bulk].map((c) => c.content));
    const mem0AddPerSec = await rate(corpus, 1, (c) => m0.add(c.content!, 'perf-user', { family: c.family }));
    const mem0ConcurrentAddPerSec = await rate(extra, INGEST_CONCURRENCY, (c) => m0.add(c.content, 'perf-user', { family: c.family }));
    const mem0BatchAddPerSec = await batchRate(batches, (b) => m0.addMany(b.map((c) => c.content), 'perf-user', { bulk: true }));
    log('mem0: searching…');
    let p0 = 0;
    const mem0SearchMs = await timeEach(queries, async (q) => {
      const hits = await m0.search(q, 'perf-user', 10);
      p0 += precisionAt10(q, hits.map((h) => h.text));
    });
    log(`engram: ${n} durable logEvent calls one at a time, then ${extra.length} with ${INGEST_CONCURRENCY} in flight…`);
    const { memory, done } = await openEngram(embedder, true);
    try {
      const engramLogEventPerSec = await rate(corpus, 1, (c) => memory.logEvent({ userId: 'perf-user', type: 'note', content: c.content!, ts: c.ts! }));
      const engramConcurrentLogEventPerSec = await rate(extra, INGEST_CONCURRENCY, (c) => memory.logEvent({ userId: 'perf-user', type: 'note', content: c.content, ts: c.ts! }));
      const engramBatchLogEventsPerSec = await batchRate(batches, (b) => memory.logEvents(b.map((c) => ({ userId: 'perf-user', type: 'note' as const, content: c.content, ts: c.ts! }))));
      await memory.flush({ learn: false });
      await memory.warm();
      let pe = 0;
      const engramSearchMs = await timeEach(queries, async (q) => {
        const hits = await memory.search({ query: q, k: 10, userId: 'perf-user' });
        pe += precisionAt10(q, hits.map((h) => h.doc.text));
      });
      const m = latency(mem0SearchMs);
      const e = latency(engramSearchMs);
      return {
        n,
        concurrency: INGEST_CONCURRENCY,
        mem0AddPerSec,
        mem0ConcurrentAddPerSec,
        engramLogEventPerSec,
        engramConcurrentLogEventPerSec,
        ingestRatio: round(engramLogEventPerSec / mem0AddPerSec, 1),
        concurrentIngestRatio: round(engramConcurrentLogEventPerSec / mem0ConcurrentAddPerSec, 1),
        mem0BatchAddPerSec,
        engramBatchLogEventsPerSec,
        batchIngestRatio: round(engramBatchLogEventsPerSec / mem0BatchAddPerSec, 1),
        mem0SearchMs: m,
        engramSearchMs: e,
        searchP95Ratio: round(m.p95 / Math.max(e.p95, 1e-6), 1),
        mem0Precision10: round(p0 / queries.length, 3),
        engramPrecision10: round(pe / queries.length, 3),
        withModel: null,
      };
    } finally {
      await done();
    }
  } finally {
    rmSync(m0.dir, { recursive: true, force: true });
  }
}
