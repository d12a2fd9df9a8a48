import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WorkingMemoryRecord } from '../../core/types.js';
import type { EventQuery, Storage } from '../../ports/storage.js';
import { openPair, openSide, type Pair, type Side } from '../../../testing/redis-fixture.js';
import { adminClient, keysWithPrefix, REDIS_URL, requireRedis } from '../../../testing/redis-server.js';
import { BASE_TS, makeEvent, makeEvents, makeFact, NOW, reviseFact, liveTs } from '../../testing/storage-factories.js';
import { isEngramError } from '../../core/errors.js';
import { openSqliteStorage } from '../storage/sqlite/index.js';
import { windowKeyOf } from './freshness.js';
import { queryDigest } from './keys.js';
import { openRedisCache } from './redis-cache.js';
import { withCache } from './with-cache.js';

const { skip } = await requireRedis('redis hot tier');
const T = 'tenant-a';
const window = (extra: Partial<EventQuery> = {}): EventQuery => ({ tenant: T, lastN: 5, now: NOW, ...extra });
const wm = (state: Record<string, number | string>, extra: Partial<WorkingMemoryRecord> = {}) => ({
  tenant: T,
  sessionId: 's1',
  state,
  updatedAt: NOW - 100,
  ...extra,
});

describe.skipIf(skip)('withCache over SQLite on the shared Redis', () => {
  let pair: Pair;
  let a: Side;
  let b: Side;
  beforeEach(async () => {
    pair = await openPair();
    ({ a, b } = pair);
  });
  afterEach(() => pair.close());

  /** Reads twice through `side`: the second answer must come from Redis (a hit) and equal the primary's. */
  async function warm<T>(side: Side, read: (s: Storage) => Promise<T>): Promise<T> {
    const truth = await read(side.primary);
    expect(await read(side.storage)).toEqual(truth);
    const hits = side.cache.stats().hits;
    expect(await read(side.storage)).toEqual(truth);
    expect(side.cache.stats().hits).toBe(hits + 1);
    return truth;
  }

  describe('hit path', () => {
    it('answers every cached read from Redis with exactly what the primary returns', async () => {
      await a.storage.appendEvents(makeEvents(8, { sessionId: 'sess' }));
      const f1 = makeFact({ text: 'the staging database is postgres 15' });
      await a.storage.putFact(f1);
      const f2 = reviseFact(f1, 'the staging database is postgres 16');
      await a.storage.putFact(f2);
      await a.storage.putWorkingMemory(wm({ goal: 'ship' }), 0);

      await warm(b, (s) => s.queryEvents(window()));
      await warm(b, (s) => s.queryEvents({ tenant: T, scope: { sessionId: 'sess' }, since: BASE_TS, limit: 3, now: NOW }));
      expect(await warm(b, (s) => s.getFact(T, f1.id))).toMatchObject({ id: f1.id, expiredAt: f2.recordedAt });
      expect(await warm(b, (s) => s.getLiveFact(T, f1.key, NOW))).toMatchObject({ id: f2.id });
      expect((await warm(b, (s) => s.getFactVersions({ tenant: T, key: f1.key }))).map((f) => f.version)).toEqual([1, 2]);
      expect(await warm(b, (s) => s.getWorkingMemory(T, 's1', NOW))).toMatchObject({ version: 1, state: { goal: 'ship' } });
      // Absences are answers too.
      expect(await warm(b, (s) => s.getFact(T, 'fact_01ARZ3NDEKTSV4RRFFQ69G5FAV'))).toBeUndefined();
      expect(await warm(b, (s) => s.getWorkingMemory(T, 'nobody', NOW))).toBeUndefined();
      expect(b.cache.stats()).toMatchObject({ errors: 0, bypasses: 0, hits: 8 });
    });

    it('really serves from Redis: a write that goes around the decorator stays unseen until a decorated write', async () => {
      await a.storage.appendEvents(makeEvents(3));
      const before = await warm(b, (s) => s.queryEvents(window()));
      await b.primary.appendEvents([makeEvent({ ts: liveTs(), content: 'written behind the cache' })]);
      expect(await b.storage.queryEvents(window())).toEqual(before);
      await a.storage.appendEvents([makeEvent({ ts: liveTs(), content: 'written through the cache' })]);
      const after = (await b.storage.queryEvents(window())).map((e) => e.content);
      expect(after.slice(-2)).toEqual(['written behind the cache', 'written through the cache']);
    });

    it('serves the batched fact read from the same entries as getFact: hits, misses and absences, in the order asked', async () => {
      const [f1, f2, f3] = [makeFact({ text: 'one' }), makeFact({ text: 'two' }), makeFact({ text: 'three' })];
      for (const f of [f1, f2, f3]) await a.storage.putFact(f);
      const missing = 'fact_01ARZ3NDEKTSV4RRFFQ69G5FAV';
      await warm(b, (s) => s.getFact(T, f3.id));
      const ids = [f2.id, missing, f1.id, f3.id, f2.id];
      const truth = await b.primary.getFacts(T, ids);
      expect(truth.map((f) => f.id)).toEqual([f2.id, f1.id, f3.id, f2.id]);
      const before = b.cache.stats();
      expect(await b.storage.getFacts!(T, ids)).toEqual(truth);
      // f3 came from getFact's entry; f1, f2 and the absence from the primary, which were then stored.
      expect(b.cache.stats()).toMatchObject({ hits: before.hits + 1, misses: before.misses + 3 });
      expect(await b.storage.getFacts!(T, ids)).toEqual(truth);
      expect(b.cache.stats()).toMatchObject({ hits: before.hits + 5, misses: before.misses + 3 });
      // getFact reads what the batched read stored.
      expect(await b.storage.getFact(T, f1.id)).toEqual(await b.primary.getFact(T, f1.id));
      expect(b.cache.stats().hits).toBe(before.hits + 6);
      expect(await b.storage.getFacts!(T, [])).toEqual([]);
      expect(b.cache.stats()).toMatchObject({ errors: 0, bypasses: 0 });
    });

    it('the batched fact read really serves from Redis until a decorated write', async () => {
      const f = makeFact({ confidence: 0.5 });
      await a.storage.putFact(f);
      const before = await warm(b, (s) => s.getFacts!(T, [f.id]));
      await b.primary.updateFactStats(T, f.id, { confidence: 0.7, supportCount: 1, contradictCount: 0 });
      expect(await b.storage.getFacts!(T, [f.id])).toEqual(before);
      await a.storage.updateFactStats(T, f.id, { confidence: 0.9, supportCount: 2, contradictCount: 0 });
      expect(await b.storage.getFacts!(T, [f.id])).toMatchObject([{ id: f.id, confidence: 0.9 }]);
    });

    it('does not cache unbounded event queries, and leaves adapter extras reachable', async () => {
      await a.storage.appendEvents(makeEvents(2));
      await b.storage.queryEvents({ tenant: T, now: NOW });
      await b.storage.queryEvents({ tenant: T, now: NOW });
      expect(b.cache.stats().byFamily.events).toEqual({ hits: 0, misses: 0, bypasses: 0 });
      expect(b.storage.db).toBe(b.primary.db);
      expect(b.storage.name).toBe(b.primary.name);
    });
  });

  describe('invalidation: a write through one process is seen at once by the other', () => {
    const cases: {
      name: string;
      setup?: (s: Storage) => Promise<void>;
      read: (s: Storage) => Promise<unknown>;
      write: (s: Storage) => Promise<unknown>;
    }[] = [
      {
        name: 'appendEvents (lastN window)',
        setup: (s) => s.appendEvents(makeEvents(3)).then(() => undefined),
        read: (s) => s.queryEvents(window()),
        write: (s) => s.appendEvents([makeEvent({ ts: liveTs(), content: 'new' })]),
      },
      {
        name: 'appendEvents (since window, scoped)',
        setup: (s) => s.appendEvents(makeEvents(3, { sessionId: 'x' })).then(() => undefined),
        read: (s) => s.queryEvents({ tenant: T, scope: { sessionId: 'x' }, since: BASE_TS, now: NOW }),
        write: (s) => s.appendEvents([makeEvent({ ts: liveTs(), sessionId: 'x', content: 'new' })]),
      },
      {
        name: 'redactEvent',
        setup: (s) => s.appendEvents([makeEvent({ ts: liveTs(), id: 'evt_01ARZ3NDEKTSV4RRFFQ69G5FAV', content: 'my pin is 4242' })]).then(() => undefined),
        read: (s) => s.queryEvents(window()),
        write: (s) => s.redactEvent(T, 'evt_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'asked', NOW),
      },
      {
        name: 'forget by id (events)',
        setup: (s) => s.appendEvents([makeEvent({ ts: liveTs(), id: 'evt_01ARZ3NDEKTSV4RRFFQ69G5FAV' }), makeEvent({ ts: liveTs() })]).then(() => undefined),
        read: (s) => s.queryEvents(window()),
        write: (s) => s.forget({ tenant: T, ids: ['evt_01ARZ3NDEKTSV4RRFFQ69G5FAV'] }, NOW),
      },
      {
        name: 'forget by scope (facts)',
        setup: (s) => s.putFact(makeFact({ id: 'fact_01ARZ3NDEKTSV4RRFFQ69G5FAV', userId: 'u1' })).then(() => undefined),
        read: (s) => s.getFactVersions({ tenant: T, key: 'fact_01ARZ3NDEKTSV4RRFFQ69G5FAV' }),
        write: (s) => s.forget({ tenant: T, scope: { userId: 'u1' } }, NOW),
      },
      {
        name: 'forget of the whole tenant (working memory)',
        setup: (s) => s.putWorkingMemory(wm({ n: 1 }), 0).then(() => undefined),
        read: (s) => s.getWorkingMemory(T, 's1', NOW),
        write: (s) => s.forget({ tenant: T, scope: {} }, NOW),
      },
      {
        name: 'sweepExpired (a window read at an earlier now)',
        setup: (s) => s.appendEvents([makeEvent({ ts: liveTs(), expiresAt: NOW - 10 }), makeEvent({ ts: liveTs() })]).then(() => undefined),
        read: (s) => s.queryEvents(window({ now: NOW - 20 })),
        write: (s) => s.sweepExpired(NOW),
      },
      {
        name: 'sweepExpired (fact versions)',
        setup: (s) => s.putFact(makeFact({ id: 'fact_01ARZ3NDEKTSV4RRFFQ69G5FAV', expiresAt: NOW - 10 })).then(() => undefined),
        read: (s) => s.getFactVersions({ tenant: T, key: 'fact_01ARZ3NDEKTSV4RRFFQ69G5FAV' }),
        write: (s) => s.sweepExpired(NOW),
      },
      {
        name: 'putFact (a revision: live version)',
        setup: (s) => s.putFact(makeFact({ id: 'fact_01ARZ3NDEKTSV4RRFFQ69G5FAV', text: 'v1' })).then(() => undefined),
        read: (s) => s.getLiveFact(T, 'fact_01ARZ3NDEKTSV4RRFFQ69G5FAV', NOW),
        write: async (s) => s.putFact(reviseFact((await s.getFact(T, 'fact_01ARZ3NDEKTSV4RRFFQ69G5FAV'))!, 'v2')),
      },
      {
        name: 'putFact (a revision closes the old version)',
        setup: (s) => s.putFact(makeFact({ id: 'fact_01ARZ3NDEKTSV4RRFFQ69G5FAV', text: 'v1' })).then(() => undefined),
        read: (s) => s.getFact(T, 'fact_01ARZ3NDEKTSV4RRFFQ69G5FAV'),
        write: async (s) => s.putFact(reviseFact((await s.getFact(T, 'fact_01ARZ3NDEKTSV4RRFFQ69G5FAV'))!, 'v2')),
      },
      {
        name: 'putFact (a first version where none was)',
        read: (s) => s.getLiveFact(T, 'fact_01ARZ3NDEKTSV4RRFFQ69G5FAV', NOW),
        write: (s) => s.putFact(makeFact({ id: 'fact_01ARZ3NDEKTSV4RRFFQ69G5FAV' })),
      },
      {
        name: 'updateFactStats (the batched read)',
        setup: (s) => s.putFact(makeFact({ id: 'fact_01ARZ3NDEKTSV4RRFFQ69G5FAV', confidence: 0.5 })).then(() => undefined),
        read: (s) => s.getFacts!(T, ['fact_01ARZ3NDEKTSV4RRFFQ69G5FAV']),
        write: (s) => s.updateFactStats(T, 'fact_01ARZ3NDEKTSV4RRFFQ69G5FAV', { confidence: 0.9, supportCount: 3, contradictCount: 0 }),
      },
      {
        name: 'putFact (a revision closes the old version; the batched read)',
        setup: (s) => s.putFact(makeFact({ id: 'fact_01ARZ3NDEKTSV4RRFFQ69G5FAV', text: 'v1' })).then(() => undefined),
        read: (s) => s.getFacts!(T, ['fact_01ARZ3NDEKTSV4RRFFQ69G5FAV']),
        write: async (s) => s.putFact(reviseFact((await s.getFact(T, 'fact_01ARZ3NDEKTSV4RRFFQ69G5FAV'))!, 'v2')),
      },
      {
        name: 'updateFactStats',
        setup: (s) => s.putFact(makeFact({ id: 'fact_01ARZ3NDEKTSV4RRFFQ69G5FAV', confidence: 0.5 })).then(() => undefined),
        read: (s) => s.getFact(T, 'fact_01ARZ3NDEKTSV4RRFFQ69G5FAV'),
        write: (s) => s.updateFactStats(T, 'fact_01ARZ3NDEKTSV4RRFFQ69G5FAV', { confidence: 0.9, supportCount: 3, contradictCount: 0 }),
      },
      {
        name: 'putWorkingMemory (next version)',
        setup: (s) => s.putWorkingMemory(wm({ n: 1 }), 0).then(() => undefined),
        read: (s) => s.getWorkingMemory(T, 's1', NOW),
        write: (s) => s.putWorkingMemory(wm({ n: 2 }), 1),
      },
      {
        name: 'putWorkingMemory (created where none was)',
        read: (s) => s.getWorkingMemory(T, 's1', NOW),
        write: (s) => s.putWorkingMemory(wm({ n: 1 }), 0),
      },
      {
        name: 'restoreRecords (a fact version where none was)',
        read: (s) => s.getLiveFact(T, 'fact_01ARZ3NDEKTSV4RRFFQ69G5FAV', NOW),
        write: (s) => s.restoreRecords('fact', [makeFact({ id: 'fact_01ARZ3NDEKTSV4RRFFQ69G5FAV' })]),
      },
      {
        name: 'restoreRecords (events of a window)',
        setup: (s) => s.appendEvents(makeEvents(3)).then(() => undefined),
        read: (s) => s.queryEvents(window()),
        write: (s) => s.restoreRecords('event', [{ ...makeEvent({ content: 'restored', ts: NOW - 1 }), seq: 99 }]),
      },
      {
        name: 'deleteWorkingMemory',
        setup: (s) => s.putWorkingMemory(wm({ n: 1 }), 0).then(() => undefined),
        read: (s) => s.getWorkingMemory(T, 's1', NOW),
        write: (s) => s.deleteWorkingMemory(T, 's1'),
      },
    ];

    for (const c of cases) {
      it(c.name, async () => {
        await c.setup?.(a.storage);
        const before = await warm(b, c.read);
        await c.write(a.storage);
        const truth = await c.read(b.primary);
        expect(truth).not.toEqual(before);
        expect(await c.read(b.storage)).toEqual(truth);
        // And it is cached again afterwards.
        await warm(b, c.read);
      });
    }

    it('addFactEvidence invalidates the facts of its tenant (the next read goes to the primary)', async () => {
      const f = makeFact();
      await a.storage.putFact(f);
      await warm(b, (s) => s.getFact(T, f.id));
      const episodeId = 'epi_01ARZ3NDEKTSV4RRFFQ69G5FAV';
      await a.storage.addFactEvidence([{ tenant: T, factId: f.id, episodeId, polarity: 'support', weight: 1, at: NOW }]);
      const misses = b.cache.stats().misses;
      expect(await b.storage.getFact(T, f.id)).toEqual(await b.primary.getFact(T, f.id));
      expect(b.cache.stats().misses).toBe(misses + 1);
    });

    it("an append to one session leaves other sessions' windows cached and invalidates tenant-wide ones", async () => {
      await a.storage.appendEvents([...makeEvents(2, { sessionId: 's1' }), ...makeEvents(2, { sessionId: 's2' })]);
      const s2 = (s: Storage) => s.queryEvents(window({ scope: { sessionId: 's2' } }));
      const all = (s: Storage) => s.queryEvents(window());
      await warm(b, s2);
      await warm(b, all);
      await a.storage.appendEvents([makeEvent({ ts: liveTs(), sessionId: 's1', content: 'new in s1' })]);
      const hits = b.cache.stats().hits;
      expect(await s2(b.storage)).toEqual(await s2(b.primary));
      expect(b.cache.stats().hits).toBe(hits + 1);
      expect((await all(b.storage)).at(-1)!.content).toBe('new in s1');
      await a.storage.appendEvents([makeEvent({ ts: liveTs(), content: 'no session' })]);
      expect((await all(b.storage)).at(-1)!.content).toBe('no session');
      expect(await s2(b.storage)).toEqual(await s2(b.primary));
      expect(b.cache.stats().hits).toBe(hits + 2);
    });

    it('keeps tenants apart: a write in one tenant leaves the other tenant cached', async () => {
      await a.storage.appendEvents([...makeEvents(2), ...makeEvents(2, { tenant: 'tenant-b' })]);
      await warm(b, (s) => s.queryEvents(window({ tenant: 'tenant-b' })));
      await a.storage.appendEvents([makeEvent({ ts: liveTs() })]);
      const hits = b.cache.stats().hits;
      await b.storage.queryEvents(window({ tenant: 'tenant-b' }));
      expect(b.cache.stats().hits).toBe(hits + 1);
    });

    it('a failed write still invalidates (a failure may follow a commit), and a CONFLICT keeps the cache', async () => {
      await a.storage.putWorkingMemory(wm({ n: 1 }), 0);
      await warm(b, (s) => s.getWorkingMemory(T, 's1', NOW));
      const conflict = await a.storage.putWorkingMemory(wm({ n: 9 }), 5).catch((e: unknown) => e);
      expect(isEngramError(conflict, 'CONFLICT')).toBe(true);
      const hits = b.cache.stats().hits;
      await b.storage.getWorkingMemory(T, 's1', NOW);
      expect(b.cache.stats().hits).toBe(hits + 1);
      const invalidations = a.cache.stats().invalidations;
      const bad = await a.storage.putFact({ ...makeFact(), version: 0 }).catch((e: unknown) => e);
      expect(isEngramError(bad, 'VALIDATION'), String(bad)).toBe(true);
      expect(a.cache.stats().invalidations).toBe(invalidations + 1);
    });
  });

  describe('forget and redaction', () => {
    async function redisHolds(text: string): Promise<string[]> {
      const admin = adminClient();
      try {
        const keys = await keysWithPrefix(admin, pair.keyPrefix);
        const values = keys.length ? await admin.mget(...keys) : [];
        return keys.filter((_, i) => values[i]?.includes(text));
      } finally {
        admin.disconnect();
      }
    }

    it('leaves no copy of forgotten data in Redis, reachable or not', async () => {
      const secret = makeEvent({ ts: liveTs(), content: 'my passport number is X1234567', sessionId: 's1' });
      const fact = makeFact({ text: 'the passport number X1234567 expires in 2031', sessionId: 's1' });
      await a.storage.appendEvents([secret, makeEvent({ ts: liveTs() })]);
      await a.storage.putFact(fact);
      await a.storage.putWorkingMemory(wm({ note: 'passport X1234567' }), 0);
      for (const side of [a, b]) {
        await warm(side, (s) => s.queryEvents(window()));
        await warm(side, (s) => s.getFact(T, fact.id));
        await warm(side, (s) => s.getWorkingMemory(T, 's1', NOW));
      }
      expect((await redisHolds('X1234567')).length).toBeGreaterThan(0);
      await a.storage.forget({ tenant: T, scope: { sessionId: 's1' } }, NOW);
      expect(await redisHolds('X1234567')).toEqual([]);
      for (const side of [a, b]) {
        expect(JSON.stringify(await side.storage.queryEvents(window()))).not.toContain('X1234567');
        expect(await side.storage.getFact(T, fact.id)).toBeUndefined();
        expect(await side.storage.getWorkingMemory(T, 's1', NOW)).toBeUndefined();
      }
    });

    it('leaves no copy of redacted content in Redis, and serves the tombstone', async () => {
      const before = makeEvent({ ts: liveTs() });
      const secret = makeEvent({ ts: liveTs(), content: 'the vault code is 8812-3344' });
      await a.storage.appendEvents([before, secret]);
      await warm(b, (s) => s.queryEvents(window()));
      await warm(b, (s) => s.getEvents(T, [secret.id]).then(() => s.queryEvents(window({ lastN: 1 }))));
      expect((await redisHolds('8812-3344')).length).toBeGreaterThan(0);
      await a.storage.redactEvent(T, secret.id, 'user asked', NOW);
      expect(await redisHolds('8812-3344')).toEqual([]);
      const [last] = await b.storage.queryEvents(window({ lastN: 1 }));
      expect(last).toMatchObject({ id: secret.id, content: '' });
    });
  });

  describe('time', () => {
    it('answers a later now from a snapshot only while nothing in it has expired', async () => {
      const events = makeEvents(5);
      events[4]!.expiresAt = NOW + 1000;
      await a.storage.appendEvents(events);
      const q = (now: number) => window({ lastN: 3, now });
      expect((await warm(b, (s) => s.queryEvents(q(NOW)))).map((e) => e.id)).toEqual(events.slice(2).map((e) => e.id));
      // At NOW + 1000 the newest event has expired: the primary lets an older one in, and so must the tier.
      const later = await b.storage.queryEvents(q(NOW + 1000));
      expect(later.map((e) => e.id)).toEqual(events.slice(1, 4).map((e) => e.id));
      expect(later).toEqual(await b.primary.queryEvents(q(NOW + 1000)));
    });

    it('never answers an earlier now from an absence observed later', async () => {
      const f = makeFact({ expiresAt: NOW });
      await a.storage.putFact(f);
      expect(await warm(b, (s) => s.getLiveFact(T, f.key, NOW + 5))).toBeUndefined();
      expect(await b.storage.getLiveFact(T, f.key, NOW - 5)).toMatchObject({ id: f.id });
      expect(await b.storage.getLiveFact(T, f.key, NOW + 6)).toBeUndefined();
      await a.storage.putWorkingMemory(wm({ n: 1 }, { updatedAt: NOW - 50, expiresAt: NOW }), 0);
      expect(await warm(b, (s) => s.getWorkingMemory(T, 's1', NOW + 5))).toBeUndefined();
      expect(await b.storage.getWorkingMemory(T, 's1', NOW - 5)).toMatchObject({ version: 1 });
      expect(await b.storage.getWorkingMemory(T, 's1', NOW)).toBeUndefined();
    });
    it('leaves a malformed now to the primary, even when an entry is warm', async () => {
      const f = makeFact();
      await a.storage.putFact(f);
      await a.storage.appendEvents(makeEvents(2));
      await warm(b, (s) => s.getLiveFact(T, f.key, NOW));
      await warm(b, (s) => s.queryEvents(window()));
      const outcome = (p: Promise<unknown>) => p.then((v) => ({ value: v }), (e: unknown) => ({ error: String(e) }));
      for (const bad of [Number.NaN, Number.POSITIVE_INFINITY]) {
        expect(await outcome(b.storage.getLiveFact(T, f.key, bad))).toEqual(await outcome(b.primary.getLiveFact(T, f.key, bad)));
        expect(await outcome(b.storage.queryEvents(window({ now: bad })))).toEqual(await outcome(b.primary.queryEvents(window({ now: bad }))));
      }
    });
  });

  describe('races, played out step by step', () => {
    it('a reader that read the primary before a write cannot store what it read after the write', async () => {
      await a.storage.appendEvents(makeEvents(2));
      const q = window();
      // Reader b: tokens first, then the primary (old data) …
      const scope = b.cache.keys.scope('events', T, [b.cache.keys.streamToken(T, undefined)]);
      const found = (await b.cache.lookup(scope, `w:${queryDigest(windowKeyOf(q))}`))!;
      const old = await b.primary.queryEvents(q);
      // … a write commits and is acknowledged in between …
      await a.storage.appendEvents([makeEvent({ ts: liveTs(), content: 'acknowledged' })]);
      // … and the slow fill lands afterwards: refused.
      expect(await b.cache.fill(found, JSON.stringify({ now: q.now, events: old }))).toBe('stale');
      expect((await b.storage.queryEvents(q)).at(-1)!.content).toBe('acknowledged');
    });

    it('a slow reader cannot replace a newer working-memory version written through', async () => {
      await a.storage.putWorkingMemory(wm({ n: 1 }), 0);
      const found = (await b.cache.lookup(b.cache.keys.scope('workingMemory', T), 'session:s1'))!;
      const v1 = await b.primary.getWorkingMemory(T, 's1', NOW);
      const v2 = await a.storage.putWorkingMemory(wm({ n: 2 }), 1);
      expect(await b.cache.fill(found, JSON.stringify({ now: NOW, rec: v1 }), 1)).toBe('older');
      const hits = b.cache.stats().hits;
      expect(await b.storage.getWorkingMemory(T, 's1', NOW)).toEqual(v2);
      expect(b.cache.stats().hits).toBe(hits + 1);
    });

    it('a write-through whose tokens moved meanwhile falls back to invalidation', async () => {
      await a.storage.putWorkingMemory(wm({ n: 1 }), 0);
      await a.storage.putWorkingMemory(wm({ n: 1 }, { sessionId: 's2' }), 0);
      // A writer whose primary write waits at a gate, after it captured the tokens.
      let reached!: () => void;
      let open!: () => void;
      const atGate = new Promise<void>((r) => (reached = r));
      const gate = new Promise<void>((r) => (open = r));
      const gated = new Proxy(a.primary, {
        get(target, prop) {
          if (prop === 'putWorkingMemory') {
            return async (...args: Parameters<Storage['putWorkingMemory']>) => {
              reached();
              await gate;
              return target.putWorkingMemory(...args);
            };
          }
          const v: unknown = Reflect.get(target, prop, target);
          return typeof v === 'function' ? (v as (...x: unknown[]) => unknown).bind(target) : v;
        },
      });
      const writer = withCache(gated, a.cache);
      const put = writer.putWorkingMemory(wm({ n: 2 }), 1);
      await atGate;
      // Meanwhile another write moves the family's tokens, and b caches s1 (still v1) under the new ones.
      await b.storage.deleteWorkingMemory(T, 's2');
      expect(await b.storage.getWorkingMemory(T, 's1', NOW)).toMatchObject({ version: 1 });
      open();
      const v2 = await put;
      // The write-through under the captured tokens is refused; the writer bumps instead, so b sees v2.
      expect(await b.storage.getWorkingMemory(T, 's1', NOW)).toEqual(v2);
    });
  });

  describe('entries and TTLs', () => {
    it('gives each family its own TTL; facts live semantic_cache_ttl_hours', async () => {
      await pair.close();
      pair = await openPair({ tuning: { ttl: { windowSeconds: 30, factHours: 2, workingMemorySeconds: 600 } } });
      ({ a, b } = pair);
      const f = makeFact();
      await a.storage.appendEvents(makeEvents(2));
      await a.storage.putFact(f);
      await a.storage.putWorkingMemory(wm({ n: 1 }), 0);
      await b.storage.queryEvents(window());
      await b.storage.getFact(T, f.id);
      await b.storage.getWorkingMemory(T, 's1', NOW);
      const admin = adminClient();
      try {
        const ttlOf = async (family: string) => {
          const [key] = (await keysWithPrefix(admin, `${pair.keyPrefix}${family}:`)).filter((k) => !k.includes(':gen'));
          return admin.pttl(key!);
        };
        const within = (ms: number, max: number) => expect(ms > max - 60_000 && ms <= max).toBe(true);
        within(await ttlOf('ev'), 30_000);
        within(await ttlOf('fact'), 2 * 3_600_000);
        within(await ttlOf('wm'), 600_000);
      } finally {
        admin.disconnect();
      }
    });

    it('lets an entry expire: the next read goes to the primary again', async () => {
      await pair.close();
      pair = await openPair({ tuning: { ttl: { windowSeconds: 0.2 } } });
      ({ a, b } = pair);
      await a.storage.appendEvents(makeEvents(2));
      await warm(b, (s) => s.queryEvents(window()));
      await new Promise((r) => setTimeout(r, 400));
      const misses = b.cache.stats().misses;
      await b.storage.queryEvents(window());
      expect(b.cache.stats().misses).toBe(misses + 1);
    });

    it('reads only the chosen families from Redis, yet invalidates all of them for the others', async () => {
      await b.storage.close();
      b = await openSide(pair.path, REDIS_URL, pair.keyPrefix, { families: ['events'] });
      pair.b = b;
      const f = makeFact({ confidence: 0.5 });
      await a.storage.putFact(f);
      await a.storage.putWorkingMemory(wm({ n: 1 }), 0);
      await warm(a, (s) => s.getFact(T, f.id));
      await warm(a, (s) => s.getWorkingMemory(T, 's1', NOW));
      expect(await b.storage.getFact(T, f.id)).toEqual(await b.primary.getFact(T, f.id));
      expect(b.cache.stats().byFamily.facts).toEqual({ hits: 0, misses: 0, bypasses: 0 });
      await b.storage.updateFactStats(T, f.id, { confidence: 0.8, supportCount: 1, contradictCount: 0 });
      await b.storage.putWorkingMemory(wm({ n: 2 }), 1);
      expect(await a.storage.getFact(T, f.id)).toMatchObject({ confidence: 0.8 });
      expect(await a.storage.getWorkingMemory(T, 's1', NOW)).toMatchObject({ version: 2, state: { n: 2 } });
    });

    it('does not cache windows above maxWindowEvents', async () => {
      await pair.close();
      pair = await openPair({ tuning: { maxWindowEvents: 3 } });
      ({ a, b } = pair);
      await a.storage.appendEvents(makeEvents(5));
      await b.storage.queryEvents(window({ lastN: 4 }));
      await b.storage.queryEvents(window({ lastN: 4 }));
      expect(b.cache.stats().byFamily.events).toMatchObject({ hits: 0, misses: 2 });
      await warm(b, (s) => s.queryEvents(window({ lastN: 3 })));
    });
  });
});

describe('withCache when Redis is not there', () => {
  it('opens anyway, serves everything from the primary, and logs the outage once', async () => {
    const logs: string[] = [];
    const cache = await openRedisCache({ url: 'redis://127.0.0.1:1', keyPrefix: 'engram-test:nowhere:', logger: { warn: (m) => logs.push(m) } });
    const primary = await openSqliteStorage({ path: ':memory:' });
    const s = withCache(primary, cache);
    await s.init({ embeddingModel: 'm', dimension: 8 });
    for (let i = 0; i < 5; i++) {
      await s.appendEvents([makeEvent({ ts: liveTs(), content: `event ${i}` })]);
      expect((await s.queryEvents(window())).at(-1)!.content).toBe(`event ${i}`);
    }
    const f = makeFact();
    await s.putFact(f);
    expect(await s.getFact(T, f.id)).toEqual(await primary.getFact(T, f.id));
    expect(await s.putWorkingMemory(wm({ n: 1 }), 0)).toMatchObject({ version: 1 });
    expect(await s.getWorkingMemory(T, 's1', NOW)).toMatchObject({ version: 1 });
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(/redis cache unavailable/);
    expect(cache.stats()).toMatchObject({ hits: 0, misses: 0, outages: 1 });
    expect(cache.stats().bypasses).toBe(7);
    expect(await cache.ping()).toBe(false);
    await s.close();
  });

  it('refuses bad options with a CONFIG error naming the field', async () => {
    for (const [input, path] of [
      [{ url: 'http://127.0.0.1:6379' }, 'cache.url'],
      [{ url: REDIS_URL, ttl: { factHours: 0 } }, 'cache.ttl.factHours'],
      [{ url: REDIS_URL, keyPrefix: 'a*b' }, 'cache.keyPrefix'],
      [{ url: REDIS_URL, ttl: { windowSecs: 3 } }, 'cache.ttl'],
    ] as const) {
      const err = await openRedisCache(input as Parameters<typeof openRedisCache>[0]).catch((e: unknown) => e);
      expect(isEngramError(err, 'CONFIG'), String(err)).toBe(true);
      expect((err as { issues: { path: string }[] }).issues.map((i) => i.path)).toContain(path);
    }
  });
});
