/**
 * The storage conformance suite through the hot tier: `withCache(sqlite, redis)` must be indistinguishable
 * from SQLite alone. Each test gets its own key prefix, dropped afterwards.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { describeStorageConformance } from '../../testing/storage-conformance.js';
import { adminClient, dropPrefix, REDIS_URL, requireRedis, testPrefix } from '../../../testing/redis-server.js';
import type { Storage } from '../../ports/storage.js';
import { readTwice } from '../../../testing/redis-read-twice.js';
import { openSqliteStorage } from '../storage/sqlite/index.js';
import { openRedisCache } from './redis-cache.js';
import { withCache } from './with-cache.js';

const { skip } = await requireRedis('storage conformance through the redis hot tier');

if (skip) {
  describe('storage conformance: sqlite + redis hot tier', () => it.skip('needs Redis on loopback', () => undefined));
} else {
  const admin = adminClient();
  afterAll(() => admin.quit());
  const silent = { warn: () => undefined };

  const variant = (name: string, wrap: <S extends Storage>(s: S) => S) =>
    describeStorageConformance(name, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'engram-cache-'));
      const path = join(dir, 'engram.db');
      const keyPrefix = testPrefix();
      const cacheOptions = { url: REDIS_URL, keyPrefix, logger: silent, commandTimeoutMs: 5000 };
      const open = async () => wrap(withCache(await openSqliteStorage({ path }), await openRedisCache(cacheOptions)));
      return {
        storage: await open(),
        reopen: open,
        cleanup: async () => {
          await dropPrefix(admin, keyPrefix);
          rmSync(dir, { recursive: true, force: true });
        },
      };
    });

  variant('sqlite + redis hot tier', (s) => s);
  // Every cached read made twice: the second is answered from Redis and must equal the first.
  variant('sqlite + redis hot tier, reads answered from the cache', readTwice);
}
