/**
 * `npm run bench:store` — the storage adapters side by side on the same synthetic memories and the same vectors:
 *   - single durable appends (`logEvent`, one at a time, on a store already holding ~N memories): p50/p95
 *   - bulk writes/s (`logEvents` in batches of 1,000), fact writes/s (`remember` one at a time), vector writes/s
 *     (`putEmbeddings` in batches of 2,000: vector column, HNSW or in-process index upkeep)
 *   - lexical search p95 (`storage.lexicalSearch`, BM25, k 10), vector search p95 (`storage.vectorSearch`, k 10)
 *   - hybrid `search` p95 through `createMemory` (lexical + vector + fusion + heuristic rerank, k 10)
 *
 *   npx tsx bench/store.ts [--sizes 10000,100000] [--adapters sqlite,pglite,pglite-socket,postgres]
 *                          [--queries 200] [--runs 3] [--warmup 10] [--pool 1000] [--singles 500]
 *                          [--cap pglite=20000,pglite-socket=20000] [--timeout 1200] [--pg-url postgres://…] [--json]
 *
 * Adapters:
 *   sqlite         better-sqlite3 file in a temp dir (FTS5, vectors as BLOBs, in-process vector index)
 *   pglite         PGlite (WASM) with pgvector, files in a temp dir, in this process (HNSW on the vector column)
 *   pglite-socket  the same PGlite served by pglite-socket from a child process, reached with `pg` over loopback
 *                  (the production code path: the wire protocol and a `pg.Pool`)
 *   postgres       the local PostgreSQL server (`--pg-url`, default postgres://postgres@127.0.0.1:5432/postgres);
 *                  a scratch database is created and dropped per size. No pgvector here: bytea vectors scored
 *                  in process (the adapter's fallback).
 *
 * The model is kept out of the measurement: `--pool` texts and every query are embedded once by USE-lite; every
 * other memory gets the real vector of a text of its own template family plus Gaussian noise (cosine ≈ 0.9),
 * seeded by its text, so each adapter stores exactly the same vectors. `search` receives the precomputed query
 * vectors through a lookup embedder. Nothing is embedded while a store is being measured.
 *
 * Bounded: each adapter × size has a time budget (`--timeout` seconds; checked between batches, and a hard
 * race); on expiry the figures measured so far are kept and the row says where it stopped. `--cap` runs slow
 * adapters at a smaller size instead of the one asked for (PGlite is single-threaded WASM: research measured
 * 67 s to COPY 100k vectors and 271 s to build HNSW on them), and the output says so.
 */
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { createHeuristicReranker } from '../src/index.js';
import { createMemory, type Memory } from '../src/index.js';
import { latency, median, round, table } from './stats.js';
import { ADAPTERS, openAdapter, type AdapterName } from './store-adapters.js';
import { memoriesOf, prepareVectors, type Vectors } from './store-vectors.js';

const { values: opts } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000' },
    adapters: { type: 'string', default: ADAPTERS.join(',') },
    queries: { type: 'string', default: '200' },
    runs: { type: 'string', default: '3' },
    pool: { type: 'string', default: '1000' },
    singles: { type: 'string', default: '500' },
    warmup: { type: 'string', default: '10' },
    cap: { type: 'string', default: 'pglite=20000,pglite-socket=20000' },
    timeout: { type: 'string', default: '1200' },
    'pg-url': { type: 'string', default: process.env.ENGRAM_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
    json: { type: 'boolean', default: false },
  },
});

// ---------------------------------------------------------------------------------------------------------------

interface Latency {
  p50: number;
  p95: number;
  p99: number;
}

interface Row {
  adapter: AdapterName;
  requested: number;
  memories: number;
  notes: string[];
  vectorMode?: string;
  loadSec?: number;
  append?: Latency;
  bulkEventsPerSec?: number;
  factsPerSec?: number;
  vectorsPerSec?: number;
  lexical?: Latency;
  vector?: Latency;
  hybrid?: Latency;
  firstVectorSearchMs?: number;
  /** `storage.warm`: the tenant's in-process indexes loaded and their background building finished, before any timed search. */
  warmMs?: number;
  /** Results per query (k 10): a sanity check that every engine answers. */
  meanHits?: { lexical: number; vector: number; hybrid: number };
  dbMb?: number;
  seconds?: number;
  stopped?: string;
}

async function main(): Promise<void> {
  const sizes = opts.sizes.split(',').map(Number);
  const adapters = opts.adapters.split(',').map((a) => a.trim()) as AdapterName[];
  for (const a of adapters) if (!ADAPTERS.includes(a)) throw new Error(`unknown adapter ${a} (known: ${ADAPTERS.join(', ')})`);
  if (sizes.some((n) => !Number.isInteger(n) || n < 1000)) throw new Error('--sizes: integers ≥ 1000');
  const caps = new Map<string, number>();
  for (const part of opts.cap.split(',').filter(Boolean)) {
    const [name, n] = part.split('=');
    caps.set(name!.trim(), Number(n));
  }
  const nQueries = Number(opts.queries);
  const runs = Number(opts.runs);
  const budgetSec = Number(opts.timeout);
  const started = performance.now();
  const load0 = loadavg();

  log(`embedding ${opts.pool} pool texts and ${nQueries + WARM} queries once with USE-lite…`);
  const vectors = await prepareVectors(Math.max(...sizes), Number(opts.pool), nQueries + WARM, log);

  const rows: Row[] = [];
  for (const requested of sizes) {
    for (const adapter of adapters) {
      const cap = caps.get(adapter);
      const n = cap !== undefined && cap < requested ? cap : requested;
      const row: Row = { adapter, requested, memories: n, notes: [] };
      if (n !== requested) row.notes.push(`capped at ${n.toLocaleString('en')} (--cap ${adapter}=${cap}); ${requested.toLocaleString('en')} asked`);
      if (n !== requested && rows.some((r) => r.adapter === adapter && r.memories === n && !r.stopped)) {
        row.stopped = `skipped: already measured at ${n.toLocaleString('en')}`;
        rows.push(row);
        log(`${adapter} @ ${requested}: ${row.stopped}`);
        continue;
      }
      log(`${adapter} @ ${n.toLocaleString('en')} memories…`);
      const t0 = performance.now();
      await runBounded(row, budgetSec, (deadline) => measure(adapter, n, vectors, nQueries, runs, row, deadline));
      row.seconds = round((performance.now() - t0) / 1000, 1);
      rows.push(row);
      log(`  done in ${row.seconds} s${row.stopped ? ` (${row.stopped})` : ''}`);
    }
  }
  await vectors.close();

  const report = {
    machine: machineInfo(load0),
    options: { sizes, adapters, queries: nQueries, runs, pool: Number(opts.pool), singles: Number(opts.singles), caps: Object.fromEntries(caps), timeoutSec: budgetSec },
    totalSeconds: round((performance.now() - started) / 1000, 1),
    rows,
  };
  if (opts.json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  const m = report.machine;
  process.stdout.write(`\nEngram storage benchmark — ${m.cpu} × ${m.cores} cores, ${m.memGiB} GiB, Node ${m.node}; load average ${m.loadStart} at start, ${m.loadEnd} at end\n\n`);
  const f = (x: number | undefined, d = 2) => (x === undefined ? '–' : String(round(x, d)));
  const lat = (x: Latency | undefined) => (x ? `${f(x.p50)}/${f(x.p95)}` : '–');
  process.stdout.write(
    `${table(
      rows.map((r) => ({
        adapter: r.adapter,
        memories: r.memories,
        vectors: r.vectorMode ?? '–',
        'append p50/p95': lat(r.append),
        'bulk ev/s': f(r.bulkEventsPerSec, 0),
        'facts/s': f(r.factsPerSec, 0),
        'vectors/s': f(r.vectorsPerSec, 0),
        'lexical p50/p95': lat(r.lexical),
        'vector p50/p95': lat(r.vector),
        'hybrid p50/p95': lat(r.hybrid),
        '1st vec ms': f(r.firstVectorSearchMs, 0),
        'warm ms': f(r.warmMs, 0),
        'hits/q l/v/h': r.meanHits ? `${r.meanHits.lexical}/${r.meanHits.vector}/${r.meanHits.hybrid}` : '–',
        'db MB': f(r.dbMb, 1),
        's': f(r.seconds, 0),
      })),
    )}\n`,
  );
  process.stdout.write(`(ms; search figures are the median over ${runs} runs of ${nQueries} queries, k 10; append = one durable logEvent on a store of ~N)\n`);
  const notes = rows.flatMap((r) => [...r.notes, ...(r.stopped ? [r.stopped] : [])].map((n) => `${r.adapter} @ ${r.requested.toLocaleString('en')}: ${n}`));
  if (notes.length) process.stdout.write(`\nNotes:\n${notes.map((n) => `  - ${n}`).join('\n')}\n`);
}

function log(s: string): void {
  if (!opts.json) process.stderr.write(`${s}\n`);
}

function machineInfo(load0: number[]) {
  const fmt = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');
  return {
    cpu: cpus()[0]?.model ?? 'cpu',
    cores: availableParallelism(),
    memGiB: round(totalmem() / 2 ** 30, 0),
    node: process.version,
    loadStart: fmt(load0),
    loadEnd: fmt(loadavg()),
  };
}

// --- the time budget -------------------------------------------------------------------------------------------

class Timeout extends Error {}

/** Runs `fn` with a deadline it checks between batches, and a hard race in case one call never returns. */
async function runBounded(row: Row, budgetSec: number, fn: (deadline: Deadline) => Promise<void>): Promise<void> {
  const deadline = new Deadline(budgetSec * 1000);
  let timer: NodeJS.Timeout | undefined;
  const hard = new Promise<never>((_, reject) => {
    // Some slack past the soft deadline so that a phase that checks it can stop and close its store cleanly.
    timer = setTimeout(() => reject(new Timeout(`hard timeout after ${budgetSec + 60} s during ${deadline.phase}`)), (budgetSec + 60) * 1000);
  });
  try {
    await Promise.race([fn(deadline), hard]);
  } catch (e) {
    row.stopped = e instanceof Timeout ? `stopped: ${e.message}; the figures shown were measured before` : `failed during ${deadline.phase}: ${e instanceof Error ? e.message : String(e)}`;
  } finally {
    clearTimeout(timer);
  }
}

class Deadline {
  phase = 'setup';
  private readonly end: number;
  constructor(private readonly ms: number) {
    this.end = performance.now() + ms;
  }
  private entered = performance.now();
  enter(phase: string): void {
    const now = performance.now();
    log(`  ${phase}… (${round((now - this.entered) / 1000, 1)} s since the previous step)`);
    this.phase = phase;
    this.entered = now;
    this.check();
  }
  check(): void {
    if (performance.now() > this.end) throw new Timeout(`time budget of ${Math.round(this.ms / 1000)} s (--timeout) used up during ${this.phase}`);
  }
}

// --- one adapter at one size ---------------------------------------------------------------------------------

async function measure(adapter: AdapterName, n: number, vectors: Vectors, nQueries: number, runs: number, row: Row, deadline: Deadline): Promise<void> {
  deadline.enter('open');
  const opened = await openAdapter(adapter, row, opts['pg-url']);
  let memory: Memory | undefined;
  try {
    memory = await createMemory({
      storage: opened.storage,
      embedder: vectors.embedder(),
      reranker: createHeuristicReranker(),
      config: { indexing: { background: false }, retention: { sweepIntervalMinutes: 0 }, learn: { engine: { background: false } } },
    });
    const { storage } = memory;
    const mode = (storage as { vectorSearchMode?: string }).vectorSearchMode;
    row.vectorMode = adapter === 'sqlite' ? 'in-process' : mode === 'hnsw' ? 'pgvector' : mode === 'in-process' ? 'bytea' : (mode ?? '?');

    const singles = Math.min(Number(opts.singles), Math.floor(n * 0.1));
    const { events, facts } = memoriesOf(n);
    const strip = <T extends { family: string }>({ family: _f, ...rest }: T) => rest;
    const bulk = events.slice(0, events.length - singles);
    const tail = events.slice(events.length - singles);

    const tLoad = performance.now();
    deadline.enter(`bulk logEvents (${bulk.length.toLocaleString('en')} events in batches of 1,000)`);
    let t = performance.now();
    for (let i = 0; i < bulk.length; i += 1000) {
      await memory.logEvents(bulk.slice(i, i + 1000).map(strip));
      deadline.check();
    }
    row.bulkEventsPerSec = round(bulk.length / ((performance.now() - t) / 1000), 0);

    deadline.enter(`remember (${facts.length.toLocaleString('en')} facts, one at a time)`);
    t = performance.now();
    let done = 0;
    for (const f of facts) {
      await memory.remember(strip(f));
      if (++done % 200 === 0) deadline.check();
    }
    row.factsPerSec = round(facts.length / ((performance.now() - t) / 1000), 0);

    deadline.enter(`single durable logEvent × ${singles}`);
    const acks: number[] = [];
    for (const e of tail) {
      const t1 = performance.now();
      await memory.logEvent(strip(e));
      acks.push(performance.now() - t1);
      if (acks.length % 100 === 0) deadline.check();
    }
    row.append = latency(acks);

    deadline.enter('putEmbeddings (precomputed vectors, batches of 2,000)');
    t = performance.now();
    let stored = 0;
    for (;;) {
      const pending = await storage.pendingEmbeddings(2000);
      if (pending.length === 0) break;
      await storage.putEmbeddings(pending.map((p) => ({ contentHash: p.contentHash, vector: vectors.forText(p.text) })));
      stored += pending.length;
      deadline.check();
    }
    row.vectorsPerSec = round(stored / ((performance.now() - t) / 1000), 0);
    row.loadSec = round((performance.now() - tLoad) / 1000, 1);
    if (vectors.derivedMisses() > 0) row.notes.push(`${vectors.derivedMisses()} stored texts were not synthetic texts (vectors derived from the whole pool)`);

    const tenant = 'default';
    const warm = vectors.queries.slice(0, WARM);
    const qs = vectors.queries.slice(WARM, WARM + nQueries);
    const qv = new Map(vectors.queries.map((q) => [q, vectors.forText(q)]));
    deadline.enter(`first vector search (loads an in-process index where there is one), then ${WARM} warm-up queries of each kind`);
    t = performance.now();
    await storage.vectorSearch({ tenant, vector: qv.get(warm[0]!)!, k: 10, now: Date.now() });
    row.firstVectorSearchMs = round(performance.now() - t, 1);
    // What the port asks of benchmarks: the searches timed below measure a complete index on every adapter, not
    // one whose graph a background build is still filling (that cost is the first search's and cold-open's).
    deadline.enter('warm (the tenant\'s indexes complete)');
    t = performance.now();
    await storage.warm?.(tenant);
    row.warmMs = round(performance.now() - t, 1);
    for (const q of warm) {
      await storage.lexicalSearch({ tenant, text: q, k: 10, now: Date.now() });
      await storage.vectorSearch({ tenant, vector: qv.get(q)!, k: 10, now: Date.now() });
      await memory.search({ query: q, k: 10 });
      deadline.check();
    }
    const lex: Latency[] = [];
    const vec: Latency[] = [];
    const hyb: Latency[] = [];
    const med = (xs: Latency[]): Latency => ({ p50: median(xs.map((x) => x.p50)), p95: median(xs.map((x) => x.p95)), p99: median(xs.map((x) => x.p99)) });
    /** Times each query; the row shows the figures so far after every one, so a timeout keeps a partial run. */
    const timed = async (done: Latency[], show: (l: Latency) => void, fn: (q: string) => Promise<unknown>): Promise<void> => {
      const out: number[] = [];
      for (const q of qs) {
        const t1 = performance.now();
        await fn(q);
        out.push(performance.now() - t1);
        show(med([...done, latency(out)]));
        if (out.length < qs.length) {
          try {
            deadline.check();
          } catch (e) {
            row.notes.push(`search run ${done.length + 1} stopped after ${out.length} of ${qs.length} queries of one kind; figures for it are partial`);
            throw e;
          }
        }
      }
      done.push(latency(out));
    };
    const hits = { lexical: 0, vector: 0, hybrid: 0 };
    for (let run = 0; run < runs; run++) {
      deadline.enter(`search run ${run + 1}/${runs}`);
      await timed(lex, (l) => (row.lexical = l), async (q) => (hits.lexical += (await storage.lexicalSearch({ tenant, text: q, k: 10, now: Date.now() })).length));
      await timed(vec, (l) => (row.vector = l), async (q) => (hits.vector += (await storage.vectorSearch({ tenant, vector: qv.get(q)!, k: 10, now: Date.now() })).length));
      await timed(hyb, (l) => (row.hybrid = l), async (q) => (hits.hybrid += (await memory!.search({ query: q, k: 10 })).length));
      row.meanHits = { lexical: round(hits.lexical / qs.length / (run + 1), 1), vector: round(hits.vector / qs.length / (run + 1), 1), hybrid: round(hits.hybrid / qs.length / (run + 1), 1) };
      log(`    lexical p95 ${lex.at(-1)!.p95} ms, vector p95 ${vec.at(-1)!.p95} ms, hybrid search p95 ${hyb.at(-1)!.p95} ms`);
    }
    deadline.phase = 'size';
    row.dbMb = await opened.sizeMb();
  } finally {
    if (memory) await memory.close().catch((e: unknown) => row.notes.push(`close: ${String(e)}`));
    else await opened.storage.close().catch(() => undefined);
    await opened.cleanup().catch((e: unknown) => row.notes.push(`cleanup: ${String(e)}`));
  }
}

// Last, so that every class above is initialised before it runs.
/** Queries run before the measured ones (first-search costs, caches, JIT). */
const WARM = Number(opts.warmup);

await main();
