/**
 * Round trips of one `memory.search` (hybrid, heuristic rerank, k 10) on the PostgreSQL server: every statement a
 * search sends, in order, with its duration and how many others were in flight when it started (0 = sequential).
 *
 *   npx tsx bench/pg-trips.ts [--size 10000] [--queries 20] [--pool 300] [--pg-url postgres://…] [--show 2]
 *
 * Loads the same synthetic memories and vectors as bench:store into a scratch database (dropped at the end),
 * warms the tenant's in-process indexes, then counts statements per search over `--queries` queries and prints
 * the statements of the first `--show` searches.
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createHeuristicReranker, createMemory } from '../src/index.js';
import { openPostgresStorage } from '../src/adapters/storage/postgres/index.js';
import type { ClientLike, PoolLike, QueryResultLike } from '../src/adapters/storage/postgres/pool.js';
import { memoriesOf, prepareVectors } from './store-vectors.js';
import { latency, median, round } from './stats.js';

const { values: opts } = parseArgs({
  options: {
    size: { type: 'string', default: '10000' },
    queries: { type: 'string', default: '20' },
    pool: { type: 'string', default: '300' },
    show: { type: 'string', default: '2' },
    /** Keep the scratch database (its name is printed) for EXPLAIN. */
    keep: { type: 'boolean', default: false },
    'pg-url': { type: 'string', default: process.env.ENGRAM_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});

interface Trip {
  sql: string;
  ms: number;
  inFlight: number;
  start: number;
}

let trips: Trip[] = [];
let inFlight = 0;
async function timed(q: (t: string, v?: unknown[]) => Promise<QueryResultLike>, text: string, values?: unknown[]): Promise<QueryResultLike> {
  const t0 = performance.now();
  const trip: Trip = { sql: text.replace(/\s+/g, ' ').slice(0, 150), ms: 0, inFlight, start: t0 };
  inFlight++;
  try {
    return await q(text, values);
  } finally {
    inFlight--;
    trip.ms = performance.now() - t0;
    trips.push(trip);
  }
}

/** Wraps a pool so that every statement (on the pool or a checked-out client) is recorded. */
function counting(inner: pg.Pool): PoolLike {
  return {
    query: (text, values) => timed((t, v) => inner.query(t, v) as Promise<QueryResultLike>, text, values),
    connect: async (): Promise<ClientLike> => {
      const c = await inner.connect();
      return { query: (text, values) => timed((t, v) => c.query(t, v) as Promise<QueryResultLike>, text, values), release: (e) => c.release(e as Error | boolean | undefined) };
    },
    end: () => inner.end(),
  };
}

async function main(): Promise<void> {
  const n = Number(opts.size);
  const nq = Number(opts.queries);
  const vectors = await prepareVectors(n, Number(opts.pool), nq + 5, (s) => process.stderr.write(`${s}\n`));
  const admin = new pg.Client({ connectionString: opts['pg-url'] });
  await admin.connect();
  const db = `engram_trips_${process.pid}`;
  await admin.query(`CREATE DATABASE ${db}`);
  const url = new URL(opts['pg-url']);
  url.pathname = `/${db}`;
  const inner = new pg.Pool({ connectionString: url.toString(), max: 10 });
  inner.on('error', () => undefined);
  try {
    const storage = await openPostgresStorage({ pool: counting(inner), logger: { warn: () => undefined } });
    const memory = await createMemory({
      storage,
      embedder: vectors.embedder(),
      reranker: createHeuristicReranker(),
      config: { indexing: { background: false }, retention: { sweepIntervalMinutes: 0 }, learn: { engine: { background: false } } },
    });
    const { events, facts } = memoriesOf(n);
    const strip = <T extends { family: string }>({ family: _f, ...rest }: T) => rest;
    for (let i = 0; i < events.length; i += 1000) await memory.logEvents(events.slice(i, i + 1000).map(strip));
    for (const f of facts) await memory.remember(strip(f));
    for (;;) {
      const pending = await storage.pendingEmbeddings(2000);
      if (pending.length === 0) break;
      await storage.putEmbeddings(pending.map((p) => ({ contentHash: p.contentHash, vector: vectors.forText(p.text) })));
    }
    process.stderr.write(`loaded ${n} memories\n`);
    for (const q of vectors.queries.slice(0, 5)) await memory.search({ query: q, k: 10 });

    const counts: number[] = [];
    const serial: number[] = [];
    const dbMs: number[] = [];
    const wall: number[] = [];
    const bySql = new Map<string, { n: number; ms: number }>();
    let shown = 0;
    for (const q of vectors.queries.slice(5, 5 + nq)) {
      trips = [];
      const t0 = performance.now();
      await memory.search({ query: q, k: 10 });
      const w = performance.now() - t0;
      wall.push(w);
      counts.push(trips.length);
      serial.push(trips.filter((t) => t.inFlight === 0).length);
      dbMs.push(trips.reduce((s, t) => s + t.ms, 0));
      for (const t of trips) {
        const key = t.sql.slice(0, 90);
        const e = bySql.get(key) ?? { n: 0, ms: 0 };
        e.n++;
        e.ms += t.ms;
        bySql.set(key, e);
      }
      if (shown++ < Number(opts.show)) {
        process.stdout.write(`\nquery "${q}": ${trips.length} statements, ${round(w, 1)} ms wall\n`);
        const sorted = [...trips].sort((a, b) => a.start - b.start);
        for (const t of sorted) process.stdout.write(`  +${round(t.start - t0, 1)} ms  ${round(t.ms, 2)} ms  [${t.inFlight}]  ${t.sql}\n`);
      }
    }
    process.stdout.write(`\n${nq} searches at ${n}: statements/search median ${median(counts)} (min ${Math.min(...counts)}, max ${Math.max(...counts)}); started with none in flight: median ${median(serial)}; summed statement ms median ${round(median(dbMs), 1)}; wall ms p50 ${round(median(wall), 1)}, p95 ${round(latency(wall).p95, 1)}\n`);
    process.stdout.write('\nstatements by text (count over all searches, total ms):\n');
    for (const [k, v] of [...bySql].sort((a, b) => b[1].ms - a[1].ms)) process.stdout.write(`  ${v.n}\t${round(v.ms, 1)}\t${k}\n`);
    // One durable append, traced the same way.
    for (const [i, e] of events.slice(0, 3).entries()) {
      trips = [];
      const t0 = performance.now();
      await memory.logEvent({ ...strip(e), content: `${e.content as string} (again ${i})` });
      const w = performance.now() - t0;
      process.stdout.write(`\nlogEvent ${i + 1}: ${trips.length} statements, ${round(w, 2)} ms wall\n`);
      for (const t of [...trips].sort((a, b) => a.start - b.start)) process.stdout.write(`  +${round(t.start - t0, 2)} ms  ${round(t.ms, 2)} ms  [${t.inFlight}]  ${t.sql}\n`);
    }
    await memory.close();
  } finally {
    await inner.end().catch(() => undefined);
    if (opts.keep) process.stderr.write(`kept database ${db}\n`);
    else await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
    await admin.end();
    await vectors.close();
  }
}

await main();
