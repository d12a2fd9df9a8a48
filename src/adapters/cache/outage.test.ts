/**
 * Redis failures with real servers: a dedicated redis-server killed (SIGKILL) and restarted mid-run while a
 * writer keeps appending, and a network partition (a TCP proxy cut) between one process and the shared Redis.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EventQuery, Storage } from '../../ports/storage.js';
import { openPair, openSide, type Pair, type Side } from '../../../testing/redis-fixture.js';
import {
  adminClient,
  dropPrefix,
  requireRedis,
  requireRedisBinary,
  startDedicatedRedis,
  startTcpProxy,
  waitFor,
  type DedicatedRedis,
} from '../../../testing/redis-server.js';
import { makeEvent, makeEvents, makeFact, NOW, reviseFact, liveTs } from '../../testing/storage-factories.js';

const T = 'tenant-a';
const window = (lastN = 5): EventQuery => ({ tenant: T, lastN, now: NOW });
const wm = (n: number) => ({ tenant: T, sessionId: 's1', state: { n }, updatedAt: NOW - 100 });

/** Reads twice through `side`; the second must be a hit and equal the primary's answer. */
async function warm<T>(side: Side, read: (s: Storage) => Promise<T>): Promise<T> {
  const truth = await read(side.primary);
  expect(await read(side.storage)).toEqual(truth);
  const hits = side.cache.stats().hits;
  expect(await read(side.storage)).toEqual(truth);
  expect(side.cache.stats().hits).toBe(hits + 1);
  return truth;
}

/** Appends one event at a time through `side` until stopped; `acked` holds every acknowledged id. */
function startWriter(side: Side) {
  const acked: string[] = [];
  const failures: unknown[] = [];
  let stop = false;
  const done = (async () => {
    for (let i = 0; !stop; i++) {
      const e = makeEvent({ ts: liveTs(), content: `loop event ${i}` });
      try {
        await side.storage.appendEvents([e]);
        acked.push(e.id);
      } catch (err) {
        failures.push(err);
      }
      // A server yields to I/O between requests; without it (SQLite is synchronous, and a Redis that is down
      // answers at once) this loop would starve the event loop.
      await new Promise((r) => setImmediate(r));
    }
  })();
  const reach = (n: number) => waitFor(`${n} acknowledged appends`, async () => acked.length >= n);
  return { acked, failures, reach, stop: async () => ((stop = true), await done) };
}

const binary = await requireRedisBinary('redis hot tier: kill and restart');

describe.skipIf(binary.skip)('Redis killed (SIGKILL) and restarted mid-run', () => {
  let redis: DedicatedRedis;
  let pair: Pair;
  let writer: ReturnType<typeof startWriter> | undefined;
  beforeAll(async () => {
    redis = await startDedicatedRedis();
  });
  afterAll(() => redis?.stop());
  afterEach(async () => {
    await writer?.stop();
    await pair?.close();
  });

  it('loses no acknowledged write, serves from the primary while down, and uses the cache again after', async () => {
    pair = await openPair({ url: redis.url, tuning: { commandTimeoutMs: 2000 } });
    const { a, b } = pair;
    await a.storage.appendEvents(makeEvents(3));
    const f1 = makeFact({ text: 'deploys go out on tuesdays' });
    await a.storage.putFact(f1);
    await a.storage.putWorkingMemory(wm(1), 0);
    await warm(b, (s) => s.queryEvents(window()));
    await warm(b, (s) => s.getLiveFact(T, f1.key, NOW));
    await warm(b, (s) => s.getWorkingMemory(T, 's1', NOW));

    writer = startWriter(a);
    await writer.reach(20);
    await redis.kill();
    const atKill = writer.acked.length;
    await writer.reach(atKill + 20);

    // Down: writes are acknowledged from the primary alone, and every read is the primary's answer.
    const f2 = reviseFact(f1, 'deploys go out on thursdays');
    await a.storage.putFact(f2);
    const v2 = await a.storage.putWorkingMemory(wm(2), 1);
    const bypasses = b.cache.stats().bypasses;
    expect(await b.storage.queryEvents(window())).toEqual(await b.primary.queryEvents(window()));
    expect((await b.storage.queryEvents(window(1)))[0]!.id).toBe(writer.acked.at(-1) ?? 'none');
    expect(await b.storage.getLiveFact(T, f1.key, NOW)).toMatchObject({ id: f2.id, text: f2.text });
    expect(await b.storage.getWorkingMemory(T, 's1', NOW)).toEqual(v2);
    expect(b.cache.stats().bypasses).toBeGreaterThanOrEqual(bypasses + 3);

    await redis.restart();
    await waitFor('both processes to use Redis again', async () => (await a.cache.ping()) && (await b.cache.ping()));
    await writer.reach(writer.acked.length + 20);
    await writer.stop();

    expect(writer.failures).toEqual([]);
    const stored = new Set((await b.primary.queryEvents({ tenant: T, now: NOW })).map((e) => e.id));
    expect(writer.acked.filter((id) => !stored.has(id))).toEqual([]);
    // Reads are cached again, and nothing from before the outage is reachable.
    expect((await warm(b, (s) => s.queryEvents(window(1))))[0]!.id).toBe(writer.acked.at(-1));
    expect(await warm(b, (s) => s.getLiveFact(T, f1.key, NOW))).toMatchObject({ id: f2.id });
    expect(await warm(b, (s) => s.getWorkingMemory(T, 's1', NOW))).toEqual(v2);
    // At most one warning per outage and process, and word when it ended. Whether a process logs at all depends on
    // timing (a fast restart can land between its commands), so the count is bounded, not fixed.
    for (const side of [a, b]) {
      const warnings = side.logs.filter((l) => l.startsWith('warn:')).length;
      expect(warnings).toBeLessThanOrEqual(1);
      if (warnings === 1) {
        expect(side.logs).toContain('info: redis cache answering again');
        expect(side.cache.stats().outages).toBe(1);
      }
    }
  });
});

const shared = await requireRedis('redis hot tier: partition');

describe.skipIf(shared.skip)('one process cut off from Redis while the others still reach it', () => {
  it('keeps its own reads correct, and replays its missed invalidations as soon as it reconnects', async () => {
    const proxy = await startTcpProxy();
    const pair = await openPair();
    const keyPrefix = pair.keyPrefix;
    // Process c writes through the proxy; b reads straight from Redis. Same database, same prefix.
    const c = await openSide(pair.path, proxy.url, keyPrefix, { commandTimeoutMs: 2000 });
    const { b } = pair;
    try {
      const newest = async (s: Side) => (await s.storage.queryEvents(window(1)))[0]!.id;
      await c.storage.appendEvents(makeEvents(3));
      const before = (await warm(b, (s) => s.queryEvents(window(1))))[0]!.id;
      await warm(c, (s) => s.queryEvents(window(1)));

      proxy.cut();
      const written = makeEvent({ ts: liveTs(), content: 'written during the partition' });
      await c.storage.appendEvents([written]);
      // The writer never serves what it overwrote: its own reads bypass Redis until the bump has landed.
      expect(await newest(c)).toBe(written.id);
      // b cannot know about the missed bump: this is the window the entry TTL bounds (see with-cache.ts).
      expect(await newest(b)).toBe(before);

      proxy.heal();
      // No further call through c: its background replay alone must make b see the write.
      await waitFor('the missed invalidation to be replayed', async () => (await newest(b)) === written.id);
      expect(c.cache.stats().invalidations).toBeGreaterThan(0);
      expect(c.logs.filter((l) => l.startsWith('warn:'))).toHaveLength(1);
    } finally {
      await c.storage.close();
      await pair.close();
      await proxy.close();
      const admin = adminClient();
      await dropPrefix(admin, keyPrefix).finally(() => admin.disconnect());
    }
  });
});
