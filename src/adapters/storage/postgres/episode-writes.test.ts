/**
 * Episode writes on the real PostgreSQL server: a rewrite of an episode is one upsert that also returns the cause it
 * had (no read of the row first), and the lookup by root cause that decides whether the old cause's vector is still
 * needed reads the episodes_by_root_cause index (migration 008). Missing server: fails under CI, skips locally.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { causeVectorKey } from '../../../core/docs-learn.js';
import { makeEpisode } from '../../../testing/storage-factories-learn.js';
import { TEST_DIM, TEST_MODEL, unitVector } from '../../../testing/storage-factories.js';
import { freshSchema } from '../../../../testing/postgres-pglite.js';
import { adminPool, requireServer, SERVER_URL } from '../../../../testing/postgres-server.js';
import type { PoolLike, QueryResultLike } from './pool.js';
import { openPostgresStorage, type PostgresStorage } from './index.js';

const { skip } = await requireServer('postgres episode writes');

/** Records the statements sent through a pool (on it or on a checked-out client). */
function recording(inner: pg.Pool): PoolLike & { sent: string[] } {
  const sent: string[] = [];
  const wrap = (q: (t: string, v?: unknown[]) => Promise<unknown>) => (text: string, values?: unknown[]) => {
    sent.push(text.replace(/\s+/g, ' '));
    return q(text, values) as Promise<QueryResultLike>;
  };
  return {
    sent,
    query: wrap((t, v) => inner.query(t, v)),
    connect: async () => {
      const c = await inner.connect();
      return { query: wrap((t, v) => c.query(t, v)), release: (e?: Error | boolean) => c.release(e) };
    },
    end: () => inner.end(),
  };
}

describe.skipIf(skip)('episode writes on the postgres server', () => {
  const schema = freshSchema('episodes');
  const admin = skip ? undefined : adminPool();
  let inner: pg.Pool;
  let pool: ReturnType<typeof recording>;
  let storage: PostgresStorage;

  beforeAll(async () => {
    inner = new pg.Pool({ connectionString: SERVER_URL, max: 2 });
    inner.on('error', () => undefined);
    pool = recording(inner);
    storage = await openPostgresStorage({ pool, schema, logger: { warn: () => undefined } });
    await storage.init({ embeddingModel: TEST_MODEL, dimension: TEST_DIM });
  });
  afterAll(async () => {
    await storage?.close();
    await inner?.end();
    await admin?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin?.end();
  });

  it('rewrites an episode with one upsert that returns its earlier cause, and still drops the vector of a cause corrected away', async () => {
    const episode = makeEpisode({ rootCause: 'the cron job ran twice after the clock change' });
    await storage.putEpisode(episode);
    await storage.putEmbeddings([{ contentHash: causeVectorKey(episode.rootCause!), vector: unitVector() }]);
    pool.sent.length = 0;
    await storage.putEpisode({ ...episode, rootCause: 'a stale cache entry' });
    const touching = pool.sent.filter((s) => /\bepisodes\b/.test(s));
    expect(touching.filter((s) => /^SELECT\b/i.test(s.trim()))).toEqual([]);
    expect(touching.filter((s) => /INSERT INTO/i.test(s))).toHaveLength(1);
    expect((await storage.getEmbeddings([causeVectorKey(episode.rootCause!)])).size).toBe(0);
    expect((await storage.getEpisodes(episode.tenant, [episode.id]))[0]!.rootCause).toBe('a stale cache entry');
  });

  it('looks episodes up by root cause through the index', async () => {
    const c = await inner.connect();
    try {
      await c.query(`SET search_path = "${schema}"`);
      await c.query('SET enable_seqscan = off');
      const plan = await c.query<{ 'QUERY PLAN': string }>('EXPLAIN SELECT 1 FROM episodes e WHERE e.root_cause = $1', ['a stale cache entry']);
      expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('episodes_by_root_cause');
    } finally {
      c.release();
    }
  });
});
