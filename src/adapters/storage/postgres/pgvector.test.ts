/**
 * The pgvector path on PGlite: searches above `ann.exactLimit` candidates go through the HNSW index with
 * iterative scan, stay within tenant, scope and filter, and find (nearly) what an exact scan finds; a
 * process initialised with another embedding model searches its own vectors in process.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventToDoc } from '../../../core/docs.js';
import { matchesFilter, type FilterNode } from '../../../core/filter.js';
import type { DocQuery, NewEvent } from '../../../ports/storage.js';
import { dropSchema, freshSchema, sharedPglite, sharedPglitePool } from '../../../../testing/postgres-pglite.js';
import { cosine, makeEvent, NOW, seededRng, type Rng } from '../../../testing/storage-factories.js';
import { openPostgresStorage, type PoolLike, type PostgresStorage } from './index.js';

const DIM = 32;
const MODEL = 'structured-v1';
const r: Rng = seededRng(5);

/** Vectors around a few centres, as real embeddings cluster (random vectors make every ANN look broken). */
const centres = Array.from({ length: 6 }, () => Float32Array.from({ length: DIM }, () => r() * 2 - 1));
function near(c: Float32Array, spread = 0.35): Float32Array {
  const v = Float32Array.from(c, (x) => x + (r() * 2 - 1) * spread);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

let pool: PoolLike;
let storage: PostgresStorage;
const schema = freshSchema('ann');
const events: NewEvent[] = [];
const vectors = new Map<string, Float32Array>();

async function idxScans(): Promise<number> {
  await pool.query('SELECT pg_stat_force_next_flush()');
  const res = await pool.query(`SELECT COALESCE(SUM(idx_scan), 0)::int AS n FROM pg_stat_user_indexes WHERE schemaname = $1 AND indexrelname = 'docs_embedding_hnsw'`, [schema]);
  return (res.rows[0] as { n: number }).n;
}

beforeAll(async () => {
  pool = await sharedPglitePool();
  storage = await openPostgresStorage({ pool, schema, ann: { exactLimit: 40, efSearch: 40 } });
  await storage.init({ embeddingModel: MODEL, dimension: DIM });
  for (let i = 0; i < 480; i++) {
    events.push(makeEvent({ content: `event number ${i}`, userId: `u${i % 4}`, metadata: { bucket: i % 10 }, tenant: i % 8 === 7 ? 'tenant-z' : 'tenant-a' }, r));
  }
  await storage.appendEvents(events);
  const pending = await storage.pendingEmbeddings(1000);
  for (const [i, p] of pending.entries()) vectors.set(p.contentHash, near(centres[i % centres.length]!));
  await storage.putEmbeddings([...vectors].map(([contentHash, vector]) => ({ contentHash, vector })));
});

afterAll(async () => {
  await storage.close();
  await dropSchema(pool, schema);
  await (await sharedPglite()).close();
});

function exact(q: Omit<DocQuery, 'now'> & { vector: Float32Array }) {
  return events
    .map(eventToDoc)
    .filter((d) => d.tenant === q.tenant && (q.scope?.userId === undefined || d.userId === q.scope.userId))
    .filter((d) => matchesFilter({ ...d, docId: 0 }, q.filter))
    .map((d) => ({ refId: d.refId, score: cosine(q.vector, vectors.get(d.contentHash)!) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, q.k);
}

describe('pgvector search', () => {
  it('answers large candidate sets through HNSW, within tenant, scope and filter, with high recall', async () => {
    expect(storage.vectorSearchMode).toBe('hnsw');
    // A table this small is cheaper to sort than to walk an index, so the planner would skip HNSW; PGlite is
    // one session, so this setting reaches the storage's statements: the index is then the only way to order without a sort.
    await pool.query('SET enable_sort = off');
    const before = await idxScans();
    const bucketFilter: FilterNode = { op: 'in', field: { kind: 'meta', path: ['bucket'] }, values: [1, 2, 3, 4, 5, 6] };
    const queries: (Omit<DocQuery, 'now' | 'vector'>)[] = [
      { tenant: 'tenant-a', k: 10 },
      { tenant: 'tenant-a', k: 10, scope: { userId: 'u1' } },
      { tenant: 'tenant-a', k: 20, filter: bucketFilter },
    ];
    let found = 0;
    let wanted = 0;
    for (const base of queries) {
      for (let i = 0; i < 6; i++) {
        const q = { ...base, vector: near(centres[i]!, 0.5) };
        const hits = await storage.vectorSearch({ ...q, now: NOW });
        const docs = await storage.getDocs(q.tenant, hits.map((h) => h.docId));
        expect(docs).toHaveLength(hits.length);
        for (const d of docs) {
          expect(d.tenant).toBe(q.tenant);
          if (q.scope?.userId) expect(d.userId).toBe(q.scope.userId);
          expect(matchesFilter(d, q.filter)).toBe(true);
        }
        expect(hits.map((h) => h.score)).toEqual([...hits.map((h) => h.score)].sort((a, b) => b - a));
        const truth = exact(q);
        expect(hits).toHaveLength(truth.length);
        const truthIds = new Set(truth.map((t) => t.refId));
        found += docs.filter((d) => truthIds.has(d.refId)).length;
        wanted += truth.length;
      }
    }
    expect(found / wanted).toBeGreaterThan(0.9);
    // The index answered (pg_stat counts its scans), not a sequential scan.
    expect(await idxScans()).toBeGreaterThan(before);
    await pool.query('RESET enable_sort');
  });

  it('answers a selective query exactly (few candidates: no index needed)', async () => {
    const filter: FilterNode = { op: 'cmp', field: { kind: 'meta', path: ['bucket'] }, cmp: 'eq', value: 3 };
    const q = { tenant: 'tenant-a', k: 5, scope: { userId: 'u3' }, filter, vector: near(centres[2]!, 0.5) };
    const hits = await storage.vectorSearch({ ...q, now: NOW });
    const truth = exact(q);
    expect(hits.map((h) => h.score)).toHaveLength(truth.length);
    hits.forEach((h, i) => expect(h.score).toBeCloseTo(truth[i]!.score, 5));
  });

  it('searches in process for a model the pgvector column does not serve, and says so once', async () => {
    const warnings: string[] = [];
    const other = await openPostgresStorage({ pool, schema, logger: { warn: (m) => warnings.push(m) } });
    await other.init({ embeddingModel: 'other-model', dimension: 4 });
    try {
      expect(other.vectorSearchMode).toBe('in-process');
      expect(warnings).toEqual([expect.stringMatching(/serves model structured-v1/)]);
      const pending = await other.pendingEmbeddings(5);
      expect(pending).toHaveLength(5);
      const v = Float32Array.from([1, 0, 0, 0]);
      await other.putEmbeddings(pending.map((p, i) => ({ contentHash: p.contentHash, vector: i === 0 ? v : Float32Array.from([0, 1, 0, i]) })));
      const hits = await other.vectorSearch({ tenant: 'tenant-a', k: 3, vector: v, now: NOW });
      expect(hits[0]!.score).toBeCloseTo(1, 6);
      expect(hits).toHaveLength(3);
      // The first model's HNSW search is unaffected by the other model's vectors.
      const own = await storage.vectorSearch({ tenant: 'tenant-a', k: 5, vector: near(centres[0]!), now: NOW });
      expect(own).toHaveLength(5);
    } finally {
      await other.close();
    }
  });
});

describe('lexical search on arbitrary user text', () => {
  it('never throws and finds only docs holding one of the words', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 40 }), async (text) => {
        const hits = await storage.lexicalSearch({ tenant: 'tenant-a', text: `${text} number`, k: 3, now: NOW });
        expect(hits.length).toBeLessThanOrEqual(3);
        for (const d of await storage.getDocs('tenant-a', hits.map((h) => h.docId))) expect(d.tenant).toBe('tenant-a');
      }),
      { numRuns: 60, seed: 11 },
    );
    const nasty = ["'", "''", 'a:b', 'a & b | !c', '<->', '(x', "\\'x", 'x:*', 'NOT', 'AND OR', '\u0301', 'x\u200by'];
    for (const t of nasty) await expect(storage.lexicalSearch({ tenant: 'tenant-a', text: t, k: 3, now: NOW })).resolves.toBeInstanceOf(Array);
  });
});
