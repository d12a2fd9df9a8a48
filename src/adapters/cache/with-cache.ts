/**
 * `withCache(primary, cache)`: the Storage port with the Redis hot tier in front of a few hot reads — recent-
 * events windows, stable facts, working memory. The primary store is the source of truth: every write goes
 * to it first and is acknowledged only once it has the write; Redis is told afterwards. Losing Redis (or
 * everything in it) can therefore never lose data; it only costs primary reads. Every method not overridden
 * here goes straight to the primary.
 *
 * Invalidation across processes, without pub/sub: every entry key embeds generation tokens (a global one and
 * one per tenant and family, see `keys.ts`) that the reader fetched *before* reading the primary, and every
 * write replaces the family's token *after* the primary committed and *before* it acknowledges. Why no
 * reader can leave a stale entry reachable:
 *   - an entry holds what the primary said at some moment after its tokens were read;
 *   - if a write committed after that moment, its bump came later still, so the entry's tokens are already
 *     replaced: the entry is unreachable to every process (and a fill that lands after the bump is refused
 *     by the fill script, so it is not even stored);
 *   - a reader that starts after a write was acknowledged reads the new token, so it never sees entries
 *     made before the write.
 * Tokens are random, never counters, so a Redis restart or an evicted token cannot bring an old key back.
 * A bump that fails (Redis down) is replayed before this process reads from Redis again; other processes are
 * covered when Redis lost its data with the outage, and otherwise by the entry TTL: the one window where a
 * process cut off from a Redis that others still reach may leave them a stale entry.
 *
 * Working memory is written through: a put captures the tokens before writing the primary, and afterwards
 * stores the new version only if those tokens are still current and nothing as new is there ("set if
 * newer", so a slow reader's older version cannot replace it). When the tokens moved meanwhile, or the put
 * created the scratchpad (expectedVersion 0 restarts the numbering, so versions no longer order records),
 * it bumps the token instead.
 *
 * `getFacts` (a batched read) is served from the same per-fact entries as `getFact`. `hydrateDocs` goes to the
 * primary as it is: it brings a search's candidate docs, vectors, events and facts in one round trip, and
 * taking its facts from Redis would add a Redis round trip before it (the tokens must be read before the
 * primary) to save none; it caches nothing, so no write has anything of it to invalidate.
 */
import { isEngramError } from '../../core/errors.js';
import type { Fact, MemoryEvent, WorkingMemoryRecord } from '../../core/types.js';
import type { EventQuery, Storage } from '../../ports/storage.js';
import {
  decodeVersioned,
  isWindowQuery,
  parseJson,
  serveLiveFact,
  serveWindow,
  serveWorkingMemory,
  windowKeyOf,
  type LiveFactEntry,
  type Served,
  type WindowEntry,
  type WorkingMemoryEntry,
} from './freshness.js';
import { FAMILIES, idSub, queryDigest, type EntryScope, type Family } from './keys.js';
import type { RedisCache } from './redis-cache.js';

type Overridden =
  | 'queryEvents'
  | 'getFact'
  | 'getFacts'
  | 'getLiveFact'
  | 'getFactVersions'
  | 'getWorkingMemory'
  | 'appendEvents'
  | 'redactEvent'
  | 'forget'
  | 'sweepExpired'
  | 'putFact'
  | 'updateFactStats'
  | 'addFactEvidence'
  | 'putWorkingMemory'
  | 'deleteWorkingMemory'
  | 'restoreRecords'
  | 'close';

/**
 * Decorates `primary` with the hot tier. The result is the primary with a few methods replaced (adapter
 * extras such as `SqliteStorage.db` stay reachable). It owns `cache`: closing it closes both.
 */
export function withCache<S extends Storage>(primary: S, cache: RedisCache): S {
  const overrides: Pick<Storage, Overridden> = { ...cachedReads(primary, cache), ...invalidatingWrites(primary, cache) };
  return new Proxy(primary, {
    get(target, prop) {
      if (typeof prop === 'string' && Object.hasOwn(overrides, prop)) return overrides[prop as Overridden];
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

interface ReadPlan<T, E> {
  /** The caller's `now`, for reads that depend on it. */
  now?: number;
  scope: EntryScope;
  sub: string;
  load: () => Promise<T>;
  serve: (entry: E) => Served<T>;
  /** The entry to store for a primary answer; undefined stores nothing. */
  toEntry: (value: T) => E | undefined;
  /** Versioned entries (working memory) are filled with "set if newer". */
  version?: (value: T) => number;
}

/** Tokens then entry (one round trip); on a miss the primary, then a fill under the tokens read first. */
async function read<T, E>(cache: RedisCache, p: ReadPlan<T, E>): Promise<T> {
  const family = p.scope.family;
  // A malformed `now` goes to the primary, which names what is wrong; a cached answer must not hide that.
  if (!cache.families.has(family) || (p.now !== undefined && !Number.isFinite(p.now))) return p.load();
  const found = await cache.lookup(p.scope, p.sub);
  if (!found) {
    cache.count(family, 'bypasses');
    return p.load();
  }
  if (found.raw !== undefined) {
    const entry = p.version ? decodeVersioned<E>(found.raw) : parseJson<E>(found.raw);
    const served = entry === undefined ? undefined : p.serve(entry);
    if (served) {
      cache.count(family, 'hits');
      return served.value;
    }
  }
  cache.count(family, 'misses');
  const value = await p.load();
  const entry = p.toEntry(value);
  if (entry !== undefined) await cache.fill(found, JSON.stringify(entry), p.version?.(value));
  return value;
}

type CachedRead = 'queryEvents' | 'getFact' | 'getFacts' | 'getLiveFact' | 'getFactVersions' | 'getWorkingMemory';

function cachedReads(primary: Storage, cache: RedisCache): Required<Pick<Storage, CachedRead>> {
  return {
    queryEvents: (q: EventQuery) => {
      if (!isWindowQuery(q) || typeof q.tenant !== 'string') return primary.queryEvents(q);
      return read<MemoryEvent[], WindowEntry>(cache, {
        now: q.now,
        // A window scoped to a session is invalidated by that session's appends only.
        scope: cache.keys.scope('events', q.tenant, [cache.keys.streamToken(q.tenant, q.scope?.sessionId)]),
        sub: `w:${queryDigest(windowKeyOf(q))}`,
        load: () => primary.queryEvents(q),
        serve: (e) => serveWindow(e, q.now),
        toEntry: (events) => (events.length <= cache.limits.maxWindowEvents ? { now: q.now, events } : undefined),
      });
    },
    getFact: (tenant, id) =>
      read<Fact | undefined, { fact?: Fact }>(cache, {
        scope: cache.keys.scope('facts', tenant),
        sub: idSub('id', id),
        load: () => primary.getFact(tenant, id),
        serve: (e) => ({ value: e.fact }),
        toEntry: (fact) => ({ fact }),
      }),
    getFacts: (tenant, ids) => readFacts(primary, cache, tenant, ids),
    getLiveFact: (tenant, key, now) =>
      read<Fact | undefined, LiveFactEntry>(cache, {
        now,
        scope: cache.keys.scope('facts', tenant),
        sub: idSub('live', key),
        load: () => primary.getLiveFact(tenant, key, now),
        serve: (e) => serveLiveFact(e, now),
        toEntry: (fact) => ({ now, fact }),
      }),
    getFactVersions: (q) =>
      read<Fact[], { versions: Fact[] }>(cache, {
        scope: cache.keys.scope('facts', q.tenant),
        sub: idSub('versions', q.key),
        load: () => primary.getFactVersions(q),
        serve: (e) => ({ value: e.versions }),
        toEntry: (versions) => ({ versions }),
      }),
    getWorkingMemory: (tenant, sessionId, now) =>
      read<WorkingMemoryRecord | undefined, WorkingMemoryEntry>(cache, {
        now,
        scope: cache.keys.scope('workingMemory', tenant),
        sub: idSub('session', sessionId),
        load: () => primary.getWorkingMemory(tenant, sessionId, now),
        serve: (e) => serveWorkingMemory(e, now),
        toEntry: (rec) => ({ now, rec }),
        version: (rec) => rec?.version ?? 0,
      }),
  };
}

/**
 * `getFacts` through the same entries as `getFact` (`id:<id>` under the tenant's fact tokens): one lookup of
 * all of them, the primary for the misses only (one batched read), then a fill per miss under the tokens read
 * first. Answers in the order asked, skipping ids the tenant does not have, as the primary does.
 */
async function readFacts(primary: Storage, cache: RedisCache, tenant: string, ids: readonly string[]): Promise<Fact[]> {
  const batched = (wanted: readonly string[]): Promise<Fact[]> =>
    primary.getFacts ? primary.getFacts(tenant, wanted) : Promise.all(wanted.map((id) => primary.getFact(tenant, id))).then((fs) => fs.filter((f): f is Fact => f !== undefined));
  if (!cache.families.has('facts') || typeof tenant !== 'string' || !Array.isArray(ids) || !ids.every((id) => typeof id === 'string')) return batched(ids);
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const found = (await cache.lookupMany(cache.keys.scope('facts', tenant), unique.map((id) => idSub('id', id))))?.found;
  if (!found) {
    cache.count('facts', 'bypasses');
    return batched(ids);
  }
  const known = new Map<string, Fact | undefined>();
  const missed: number[] = [];
  found.forEach((f, i) => {
    const entry = f.raw === undefined ? undefined : parseJson<{ fact?: Fact }>(f.raw);
    if (entry === undefined) missed.push(i);
    else known.set(unique[i]!, entry.fact);
  });
  for (let i = 0; i < unique.length - missed.length; i++) cache.count('facts', 'hits');
  for (let i = 0; i < missed.length; i++) cache.count('facts', 'misses');
  if (missed.length > 0) {
    const loaded = await batched(missed.map((i) => unique[i]!));
    const byId = new Map(loaded.map((f) => [f.id, f]));
    await Promise.all(
      missed.map((i) => {
        const fact = byId.get(unique[i]!);
        known.set(unique[i]!, fact);
        return cache.fill(found[i]!, JSON.stringify({ fact }));
      }),
    );
  }
  return ids.map((id) => known.get(id)).filter((f): f is Fact => f !== undefined);
}

/** The tenant (and session) of each row of a batch, tolerating malformed input (the primary reports that). */
function streamsOf(rows: unknown): { tenant: string; sessionId?: string }[] {
  if (!Array.isArray(rows)) return [];
  return rows.flatMap((r: unknown) => {
    const { tenant, sessionId } = (r ?? {}) as { tenant?: unknown; sessionId?: unknown };
    if (typeof tenant !== 'string') return [];
    return [typeof sessionId === 'string' ? { tenant, sessionId } : { tenant }];
  });
}

const tenantsOf = (rows: unknown): string[] => streamsOf(rows).map((r) => r.tenant);

const one = (tenant: unknown): string[] => (typeof tenant === 'string' ? [tenant] : []);

function invalidatingWrites(primary: Storage, cache: RedisCache): Pick<Storage, Exclude<Overridden, CachedRead>> {
  /**
   * Primary first; then the bump; then the acknowledgement. The bump runs even when the primary failed, since
   * a failure can come after the commit (a lost COMMIT reply); an extra bump only costs a miss.
   */
  async function write<T>(run: () => Promise<T>, invalidate: () => Promise<void>): Promise<T> {
    try {
      return await run();
    } finally {
      await invalidate();
    }
  }
  const families = (tenants: string[], fams: readonly Family[], opts: { purge?: boolean } = {}) => () =>
    cache.invalidate(tenants, fams, opts);

  return {
    // Appends only add events: they bump the stream tokens (the session's and the tenant's "any"), not the family.
    appendEvents: (events) => write(() => primary.appendEvents(events), () => cache.invalidateStreams(streamsOf(events))),
    // Redaction and forgetting must leave no copy, reachable or not, in any family: bump and purge the tenant.
    redactEvent: (tenant, id, reason, at) =>
      write(() => primary.redactEvent(tenant, id, reason, at), families(one(tenant), FAMILIES, { purge: true })),
    forget: (sel, at) => write(() => primary.forget(sel, at), families(one(sel?.tenant), FAMILIES, { purge: true })),
    sweepExpired: async (now) => {
      let removed: number | undefined;
      try {
        removed = await primary.sweepExpired(now);
        return removed;
      } finally {
        // The sweep spans tenants: one global bump. A sweep that removed nothing changed nothing cached.
        if (removed !== 0) await cache.invalidateAll();
      }
    },
    putFact: (fact) => write(() => primary.putFact(fact), families(one(fact?.tenant), ['facts'])),
    updateFactStats: (tenant, id, stats) => write(() => primary.updateFactStats(tenant, id, stats), families(one(tenant), ['facts'])),
    addFactEvidence: (rows) => write(() => primary.addFactEvidence(rows), families(tenantsOf(rows), ['facts'])),
    deleteWorkingMemory: (tenant, sessionId) =>
      write(() => primary.deleteWorkingMemory(tenant, sessionId), families(one(tenant), ['workingMemory'])),
    putWorkingMemory: (rec, expectedVersion) => putWorkingMemory(primary, cache, rec, expectedVersion),
    // A restore adds records of any kind (a fact's live version, a window's events, a scratchpad): every family.
    restoreRecords: (kind, records) => write(() => primary.restoreRecords(kind, records), families(tenantsOf(records), FAMILIES)),
    close: async () => {
      try {
        await primary.close();
      } finally {
        await cache.close();
      }
    },
  };
}

async function putWorkingMemory(
  primary: Storage,
  cache: RedisCache,
  rec: Omit<WorkingMemoryRecord, 'version'>,
  expectedVersion: number,
): Promise<WorkingMemoryRecord> {
  const tenant = one(rec?.tenant);
  // Tokens captured before the primary write, as for a read: the write-through is stored only while they hold.
  const before =
    expectedVersion > 0 && tenant.length === 1 && typeof rec.sessionId === 'string' && cache.families.has('workingMemory')
      ? await cache.lookup(cache.keys.scope('workingMemory', rec.tenant), idSub('session', rec.sessionId), { value: false })
      : undefined;
  let stored: WorkingMemoryRecord;
  try {
    stored = await primary.putWorkingMemory(rec, expectedVersion);
  } catch (e) {
    // A CONFLICT wrote nothing; any other failure may have come after the commit.
    if (!isEngramError(e, 'CONFLICT')) await cache.invalidate(tenant, ['workingMemory']);
    throw e;
  }
  const entry: WorkingMemoryEntry = { now: stored.updatedAt, rec: stored };
  const result = before ? await cache.fill(before, JSON.stringify(entry), stored.version) : 'failed';
  // 'older': a newer version is already there. Otherwise (tokens moved since the capture, so a reader under
  // the new ones may hold the previous version; or Redis failed; or a create) fall back to a bump.
  if (result !== 'stored' && result !== 'older') await cache.invalidate(tenant, ['workingMemory']);
  return stored;
}
