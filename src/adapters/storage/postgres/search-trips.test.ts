/**
 * The hybrid search path on the real PostgreSQL server: how many statements one `search` sends (counted by a
 * wrapper around the real pool), and that hydrating candidates in one round trip (`hydrateDocs`, `getFacts`)
 * returns exactly what the call-per-record path returns. Missing server: fails under CI, skips locally.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { contentHash } from '../../../core/text.js';
import type { Storage } from '../../../ports/storage.js';
import { newEvent, putFacts, readDeps } from '../../../read/e2e.test-support.js';
import { search } from '../../../read/search.js';
import type { SearchRequest } from '../../../read/types.js';
import { reviseFact } from '../../../testing/storage-factories.js';
import { freshSchema } from '../../../../testing/postgres-pglite.js';
import { adminPool, requireServer, SERVER_URL } from '../../../../testing/postgres-server.js';
import type { PoolLike, QueryResultLike } from './pool.js';
import { openPostgresStorage, type PostgresStorage } from './index.js';

const { skip } = await requireServer('postgres search round trips');

const DIM = 64;
const NOW = Date.UTC(2026, 0, 10);
const T0 = NOW - 5 * 86_400_000;

/** Words hashed into a few dimensions, so texts sharing words are near (deterministic, no model). */
function hashVector(text: string): Float32Array {
  const v = new Float32Array(DIM);
  for (const w of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) v[Number(BigInt.asUintN(32, BigInt(`0x${contentHash(w).slice(0, 8)}`))) % DIM]! += 1;
  v[0]! += 0.01;
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

/** Counts the statements sent through a pool (on it or on a checked-out client). */
function counting(inner: pg.Pool): PoolLike & { sent: string[]; args: (unknown[] | undefined)[] } {
  const sent: string[] = [];
  const args: (unknown[] | undefined)[] = [];
  const wrap = (q: (t: string, v?: unknown[]) => Promise<unknown>) => (text: string, values?: unknown[]) => {
    sent.push(text);
    args.push(values);
    return q(text, values) as Promise<QueryResultLike>;
  };
  return {
    sent,
    args,
    query: wrap((t, v) => inner.query(t, v)),
    connect: async () => {
      const c = await inner.connect();
      return { query: wrap((t, v) => c.query(t, v)), release: (e?: Error | boolean) => c.release(e) };
    },
    end: () => inner.end(),
  };
}

/** The storage without its one-round-trip reads: the read path then calls getDocs, getEmbeddings, getFact, getEvents. */
function callPerRecord(s: Storage): Storage {
  return new Proxy(s, {
    get(target, prop) {
      if (prop === 'hydrateDocs' || prop === 'getFacts') return undefined;
      const v: unknown = Reflect.get(target, prop, target);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

const SPEAKERS = ['Alice', 'Bob', 'Carol'];
const LINES = [
  'the nightly build broke again because the runner disk was full',
  'I moved the docker cache to the bigger volume',
  'did the deploy to staging finish before lunch',
  'staging deploy failed with a 403, the token expired',
  'I rotated the service account token this morning',
  'payments tests are flaky when the clock changes',
  'we now inject a fake clock into the payments tests',
  'the search index rebuild ran out of heap',
  'Carol raised the heap size for the search cluster',
  'lunch is at noon on friday',
];

describe.skipIf(skip)('hybrid search on the postgres server', () => {
  const schema = freshSchema('trips');
  const admin = skip ? undefined : adminPool();
  let inner: pg.Pool;
  let pool: ReturnType<typeof counting>;
  let storage: PostgresStorage;

  beforeAll(async () => {
    inner = new pg.Pool({ connectionString: SERVER_URL, max: 6 });
    inner.on('error', () => undefined);
    pool = counting(inner);
    storage = await openPostgresStorage({ pool, schema, logger: { warn: () => undefined } });
    await storage.init({ embeddingModel: 'hash-64', dimension: DIM });
    // Three sessions of people talking (names, authors, neighbours), and facts, one of them revised.
    const events = Array.from({ length: 90 }, (_, i) =>
      newEvent({
        tenant: 't1',
        sessionId: `s${i % 3}`,
        userId: undefined,
        agentId: undefined,
        taskId: undefined,
        expiresAt: undefined,
        actor: 'user',
        type: 'message',
        name: SPEAKERS[i % 3],
        content: `${LINES[i % LINES.length]} (${Math.floor(i / LINES.length)})`,
        ts: T0 + i * 60_000,
        recordedAt: T0 + i * 60_000 + 1,
      }),
    );
    await storage.appendEvents(events);
    const [office] = await putFacts(storage, [
      { tenant: 't1', text: 'the team office is in Lisbon', subject: 'team office', predicate: 'is in', value: 'Lisbon', recordedAt: T0 },
      { tenant: 't1', text: 'Alice prefers the staging deploy on mondays', recordedAt: T0 + 1 },
      { tenant: 't1', text: 'the search cluster heap is 8 GB', recordedAt: T0 + 2 },
    ]);
    await storage.putFact(reviseFact(office!, 'the team office is in Porto', { recordedAt: T0 + 10 }));
    for (;;) {
      const pending = await storage.pendingEmbeddings(100);
      if (pending.length === 0) break;
      await storage.putEmbeddings(pending.map((p) => ({ contentHash: p.contentHash, vector: hashVector(p.text) })));
    }
  });

  afterAll(async () => {
    await storage?.close();
    await inner?.end();
    await admin?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin?.end();
  });

  const queries = ['what did Alice say about the staging deploy', 'why did the nightly build break', 'where is the team office', 'who raised the search heap size'];
  const request = (query: string): SearchRequest => ({ tenant: 't1', query, k: 10, rerank: true });
  const embedQuery = async (text: string) => hashVector(text);

  it('sends at most four statements per hybrid search, and one per session neighbour seed, hydrating its candidates in one round trip', async () => {
    const deps = readDeps(storage, NOW, embedQuery);
    await search(deps, request(queries[0]!)); // the tenant's indexes load on the first search
    for (const q of queries) {
      pool.sent.length = 0;
      const hits = await search(deps, request(q));
      expect(hits.length).toBeGreaterThan(0);
      // The epoch (one read for the lexical and the vector search), the lexical and the other hits' docs, the
      // graph's entity lookup; then the session windows of the expansion's seeds (at most 3, sent at once).
      const windows = pool.sent.filter((t) => /session_id = \$2/.test(t)).length;
      expect(windows).toBeLessThanOrEqual(3);
      expect(pool.sent.length - windows, pool.sent.join('\n')).toBeLessThanOrEqual(4);
    }
  });

  it('ranks exactly as the call-per-record path does, which sends more statements', async () => {
    const fast = readDeps(storage, NOW, embedQuery);
    const slow = readDeps(callPerRecord(storage), NOW, embedQuery);
    for (const q of queries) {
      pool.sent.length = 0;
      const a = await search(fast, request(q));
      const fastSent = pool.sent.length;
      pool.sent.length = 0;
      const b = await search(slow, request(q));
      expect(pool.sent.length).toBeGreaterThan(fastSent);
      expect(a).toEqual(b);
    }
  });

  it('hydrates by one primary-key probe per doc asked, whatever the planner knows of the tenant (no statistics)', async () => {
    // The schema's tables were loaded moments ago and not analyzed (as after a bulk import): the planner guesses
    // the tenant's size, and must not read the tenant's whole time index to find a few docs.
    const docs = await storage.lexicalSearch({ tenant: 't1', text: 'staging deploy token', k: 12, now: NOW });
    pool.sent.length = 0;
    pool.args.length = 0;
    const hydrated = await storage.hydrateDocs(
      't1',
      docs.map((d) => d.docId),
      { events: 3 },
    );
    expect(hydrated.docs.map((d) => d.docId)).toEqual(docs.map((d) => d.docId));
    const i = pool.sent.findIndex((t) => t.includes('WITH hit AS'));
    const plan = JSON.stringify((await inner.query(`EXPLAIN (FORMAT JSON) ${pool.sent[i]!}`, pool.args[i])).rows[0]);
    const onDocs = [...plan.matchAll(/"Relation Name":"docs"[^}]*?"Index Name":"([a-z_]+)"|"Index Name":"([a-z_]+)"[^}]*?"Relation Name":"docs"/g)].map((m) => m[1] ?? m[2]);
    expect(onDocs).toEqual(['docs_pkey']);
    expect(plan).not.toMatch(/docs_by_time/);
  });

  it('sends an append as five round trips: BEGIN with the tenant lock, the reads, the inserts, the feed, COMMIT', async () => {
    pool.sent.length = 0;
    await storage.appendEvents([newEvent({ tenant: 't1', sessionId: 's9', content: 'one more line', ts: NOW - 500, recordedAt: NOW - 499 })]);
    expect(pool.sent[0]).toMatch(/^BEGIN; INSERT INTO "[^"]+"\.tenant_state AS s \(tenant\) SELECT t FROM unnest\(ARRAY\['t1'\]::text\[\]\)/);
    expect(pool.sent.filter((t) => /^BEGIN/.test(t))).toHaveLength(1);
    expect(pool.sent.at(-1)).toBe('COMMIT');
    expect(pool.sent.length, pool.sent.join('\n')).toBe(5);
  });

  it('shares one epoch read between searches started in the same turn, never across turns', async () => {
    const epochReads = () => pool.sent.filter((t) => t.includes('vector_epoch FROM')).length;
    const lexical = (text: string) => storage.lexicalSearch({ tenant: 't1', text, k: 5, now: NOW });
    const vector = () => storage.vectorSearch({ tenant: 't1', vector: hashVector('staging deploy'), k: 5, now: NOW });
    pool.sent.length = 0;
    await Promise.all([lexical('deploy'), vector()]);
    expect(epochReads()).toBe(1);
    pool.sent.length = 0;
    await lexical('deploy');
    await new Promise((ok) => setImmediate(ok));
    await vector();
    expect(epochReads()).toBe(2);
    // A search started after a write was acknowledged sees it, even while an earlier search's read is in flight.
    const earlier = lexical('zebra');
    await storage.appendEvents([newEvent({ tenant: 't1', content: 'a zebra crossing near the office', ts: NOW - 1000, recordedAt: NOW - 999 })]);
    expect(await lexical('zebra')).toHaveLength(1);
    await earlier;
  });
});
