/**
 * Two "processes" for hot-tier tests: two SQLite connections to one database file, each behind its own
 * `withCache` with its own Redis connection, sharing one key prefix, exactly as two servers would share one
 * database and one Redis. Each side also exposes its undecorated primary (to read the truth) and its log.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRedisCache, type RedisCache } from '../src/adapters/cache/redis-cache.js';
import type { RedisCacheOptionsInput } from '../src/adapters/cache/options.js';
import { withCache } from '../src/adapters/cache/with-cache.js';
import { openSqliteStorage, type SqliteStorage } from '../src/adapters/storage/sqlite/index.js';
import { adminClient, dropPrefix, REDIS_URL, testPrefix } from './redis-server.js';
import { TEST_DIM, TEST_MODEL } from '../src/testing/storage-factories.js';

export interface Side {
  /** The decorated storage (what the engine would use). */
  storage: SqliteStorage;
  /** The same connection without the cache: the source of truth. */
  primary: SqliteStorage;
  cache: RedisCache;
  /** Everything the cache logged. */
  logs: string[];
}

export interface Pair {
  path: string;
  keyPrefix: string;
  a: Side;
  b: Side;
  close(): Promise<void>;
}

export type CacheTuning = Omit<RedisCacheOptionsInput, 'url' | 'keyPrefix'>;

export async function openSide(path: string, url: string, keyPrefix: string, tuning: CacheTuning = {}): Promise<Side> {
  const logs: string[] = [];
  const primary = await openSqliteStorage({ path });
  await primary.init({ embeddingModel: TEST_MODEL, dimension: TEST_DIM });
  const cache = await openRedisCache({
    url,
    keyPrefix,
    commandTimeoutMs: 5000,
    ...tuning,
    logger: { warn: (m) => logs.push(`warn: ${m}`), info: (m) => logs.push(`info: ${m}`) },
  });
  return { storage: withCache(primary, cache), primary, cache, logs };
}

export async function openPair(opts: { url?: string; tuning?: CacheTuning } = {}): Promise<Pair> {
  const url = opts.url ?? REDIS_URL;
  const dir = mkdtempSync(join(tmpdir(), 'engram-cache-'));
  const path = join(dir, 'engram.db');
  const keyPrefix = testPrefix();
  const a = await openSide(path, url, keyPrefix, opts.tuning);
  const b = await openSide(path, url, keyPrefix, opts.tuning);
  return {
    path,
    keyPrefix,
    a,
    b,
    async close() {
      await a.storage.close();
      await b.storage.close();
      const admin = adminClient(url);
      try {
        await dropPrefix(admin, keyPrefix);
      } finally {
        admin.disconnect();
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
