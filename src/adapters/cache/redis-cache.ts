/**
 * The Redis connection of the hot tier and the few operations `withCache` needs: an atomic token+entry
 * lookup, token-checked fills, token bumps and tenant purges. Nothing here throws at a caller: a failed
 * command is counted, logged once per outage, and the caller serves from the primary store.
 *
 * Failure behaviour: no offline queue and no per-command retries (a command while disconnected fails at
 * once), a short command timeout, and endless background reconnects. A bump that fails is remembered and
 * replayed before this process reads from Redis again, so this process never serves what it has itself
 * overwritten in the primary; a failed purge is replayed too.
 */
import type { Redis } from 'ioredis';
import { EngramError } from '../../core/errors.js';
import { CacheHealth, type CacheLogger, type CacheStats } from './health.js';
import { freshToken, globEscape, KeyLayout, type EntryScope, type Family } from './keys.js';
import { parseRedisCacheOptions, type RedisCacheOptions, type RedisCacheOptionsInput } from './options.js';
import { FILL, LOOKUP, runScript } from './scripts.js';

export type OpenRedisCacheOptions = RedisCacheOptionsInput & { logger?: CacheLogger };

export interface CacheLookup {
  scope: EntryScope;
  /** The tokens read before the primary is read; a fill is stored only while they are still current. */
  tokens: string[];
  /** The entry key under those tokens. */
  key: string;
  /** The entry's value, when there is one (and it was asked for). */
  raw: string | undefined;
}

/** stored; refused because the key holds that version or newer; refused because a write bumped the tokens; Redis failed. */
export type FillResult = 'stored' | 'older' | 'stale' | 'failed';

const consoleLogger: CacheLogger = {
  warn: (m) => console.warn(`[engram] ${m}`),
  info: (m) => console.info(`[engram] ${m}`),
};

const SCAN_BATCH = 1000;
const RETRY_MS = 250;

export class RedisCache {
  readonly keys: KeyLayout;
  readonly ttlMs: Readonly<Record<Family, number>>;
  readonly limits: { readonly maxWindowEvents: number; readonly maxEntryChars: number };
  /** The families this process reads from Redis (all of them are invalidated by writes regardless). */
  readonly families: ReadonlySet<Family>;
  /** Token keys whose bump failed: replayed before this process reads from Redis again. */
  private readonly pendingBumps = new Set<string>();
  /** Key patterns whose purge failed: replayed with the next bump or read. */
  private readonly pendingPurges = new Set<string>();
  private closed = false;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly client: Redis,
    opts: RedisCacheOptions,
    private readonly health: CacheHealth,
  ) {
    this.keys = new KeyLayout(opts.keyPrefix);
    this.ttlMs = {
      events: Math.max(1, Math.round(opts.ttl.windowSeconds * 1000)),
      facts: Math.max(1, Math.round(opts.ttl.factHours * 3_600_000)),
      workingMemory: Math.max(1, Math.round(opts.ttl.workingMemorySeconds * 1000)),
    };
    this.limits = { maxWindowEvents: opts.maxWindowEvents, maxEntryChars: opts.maxEntryChars };
    this.families = new Set(opts.families);
    client.on('error', (e: unknown) => health.failed(e));
    client.on('ready', () => void this.flushPending());
  }

  /** Hits, misses, bypasses (per family and in total), errors, fills, invalidations, outages. */
  stats(): CacheStats {
    return this.health.stats();
  }

  /** True when Redis answers and no invalidation of this process is waiting to be replayed. */
  async ping(): Promise<boolean> {
    if (!(await this.usable())) return false;
    try {
      await this.client.ping();
      this.health.answered();
      return true;
    } catch (e) {
      this.health.failed(e);
      return false;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.retryTimer);
    this.client.disconnect();
  }

  count(family: Family, what: 'hits' | 'misses' | 'bypasses'): void {
    this.health.count(family, what);
  }

  /**
   * Reads (creating when absent) the tokens of `scope` and, unless `opts.value` is false, the entry `sub`
   * under them: one atomic script. Undefined when Redis cannot be used (go to the primary).
   */
  async lookup(scope: EntryScope, sub: string, opts: { value: boolean } = { value: true }): Promise<CacheLookup | undefined> {
    if (!opts.value) {
      const tokens = await this.lookupMany(scope, []);
      return tokens && { scope, tokens: tokens.tokens, key: this.keys.entry(scope, tokens.tokens, sub), raw: undefined };
    }
    return (await this.lookupMany(scope, [sub]))?.found[0];
  }

  /**
   * `lookup` of several entries of one scope in one atomic script (a batched read): one CacheLookup per sub,
   * in order, all under the same tokens. Undefined when Redis cannot be used.
   */
  async lookupMany(scope: EntryScope, subs: readonly string[]): Promise<{ tokens: string[]; found: CacheLookup[] } | undefined> {
    if (!(await this.usable())) return undefined;
    try {
      const fresh = scope.tokenKeys.map(() => freshToken());
      const base = this.keys.entryBase(scope.family, scope.tenant);
      const reply = await runScript(this.client, LOOKUP, scope.tokenKeys, [...fresh, base, ...subs]);
      this.health.answered();
      const tokens = parseTokens(reply, scope.tokenKeys.length);
      const raws: unknown = (reply as unknown[])[1];
      if (!Array.isArray(raws) || raws.length !== subs.length) {
        throw new EngramError('ADAPTER', 'redis cache: unexpected reply from the lookup script', { details: { reply: String(reply) } });
      }
      const found = subs.map((sub, i) => {
        const raw: unknown = raws[i];
        return { scope, tokens, key: this.keys.entry(scope, tokens, sub), raw: typeof raw === 'string' ? raw : undefined };
      });
      return { tokens, found };
    } catch (e) {
      this.health.failed(e);
      return undefined;
    }
  }

  /**
   * Stores `json` under the lookup's key while its tokens are current. With `version`, stores
   * `<version>|<json>` unless the key already holds that version or a newer one.
   */
  async fill(at: CacheLookup, json: string, version?: number): Promise<FillResult> {
    if (json.length > this.limits.maxEntryChars || this.closed) return 'failed';
    const value = version === undefined ? json : `${version}|${json}`;
    try {
      const reply = await runScript(
        this.client,
        FILL,
        [...at.scope.tokenKeys, at.key],
        [...at.tokens, value, this.ttlMs[at.scope.family], version ?? ''],
      );
      this.health.answered();
      if (reply === 1) this.health.filled();
      return reply === 1 ? 'stored' : reply === 0 ? 'older' : 'stale';
    } catch (e) {
      this.health.failed(e);
      return 'failed';
    }
  }

  /**
   * Bumps the tokens of `families` for each tenant. With `purge`, also deletes every entry of those tenants
   * and families (forgotten or redacted data must not linger in Redis memory until a TTL). Never throws; a
   * failure is replayed later.
   */
  async invalidate(tenants: Iterable<string>, families: readonly Family[], opts: { purge?: boolean } = {}): Promise<void> {
    const unique = [...new Set(tenants)];
    for (const t of unique) {
      for (const f of families) {
        this.pendingBumps.add(this.keys.familyToken(f, t));
        if (opts.purge) this.pendingPurges.add(`${globEscape(this.keys.entryBase(f, t))}*`);
      }
    }
    await this.flushPending();
  }

  /** Bumps the stream tokens an append of `events` affects: each session's, and each tenant's "any". */
  async invalidateStreams(events: readonly { tenant: string; sessionId?: string | undefined }[]): Promise<void> {
    for (const e of events) {
      this.pendingBumps.add(this.keys.streamToken(e.tenant, undefined));
      if (e.sessionId !== undefined) this.pendingBumps.add(this.keys.streamToken(e.tenant, e.sessionId));
    }
    await this.flushPending();
  }

  /** Bumps the global token: every entry of every tenant becomes unreachable. */
  async invalidateAll(): Promise<void> {
    this.pendingBumps.add(this.keys.globalToken);
    await this.flushPending();
  }

  /** Replays pending bumps (one MSET), then pending purges; true when no bump is left. */
  private async flushPending(): Promise<boolean> {
    if (this.pendingBumps.size === 0 && this.pendingPurges.size === 0) {
      if (this.retryTimer) this.scheduleRetry();
      return true;
    }
    if (this.closed || this.client.status !== 'ready') {
      this.scheduleRetry();
      return this.pendingBumps.size === 0;
    }
    try {
      const bumps = [...this.pendingBumps];
      if (bumps.length > 0) {
        await this.client.mset(Object.fromEntries(bumps.map((k) => [k, freshToken()])));
        for (const k of bumps) this.pendingBumps.delete(k);
        this.health.invalidated(bumps.length);
      }
      for (const pattern of [...this.pendingPurges]) {
        await this.deleteMatching(pattern);
        this.pendingPurges.delete(pattern);
      }
      this.health.answered();
    } catch (e) {
      this.health.failed(e);
    }
    this.scheduleRetry();
    return this.pendingBumps.size === 0;
  }

  /**
   * While anything is pending, retry in the background too: other processes cannot know this one missed a
   * bump, so the sooner it lands after Redis answers again, the shorter they may serve a stale entry.
   */
  private scheduleRetry(): void {
    const idle = this.pendingBumps.size === 0 && this.pendingPurges.size === 0;
    if (idle || this.closed) {
      clearInterval(this.retryTimer);
      this.retryTimer = undefined;
    } else if (!this.retryTimer) {
      this.retryTimer = setInterval(() => void this.flushPending(), RETRY_MS);
      this.retryTimer.unref();
    }
  }

  private async deleteMatching(pattern: string): Promise<void> {
    let cursor = '0';
    do {
      const [next, keys] = await this.client.scan(cursor, 'MATCH', pattern, 'COUNT', SCAN_BATCH);
      if (keys.length > 0) await this.client.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  }

  private async usable(): Promise<boolean> {
    if (this.closed || this.client.status !== 'ready') return false;
    return this.flushPending();
  }
}

function parseTokens(reply: unknown, n: number): string[] {
  const tokens: unknown = Array.isArray(reply) ? reply[0] : undefined;
  if (!Array.isArray(tokens) || tokens.length !== n || !tokens.every((t) => typeof t === 'string')) {
    throw new EngramError('ADAPTER', 'redis cache: unexpected reply from the lookup script', { details: { reply: String(reply) } });
  }
  return tokens as string[];
}

async function loadIoredis(): Promise<{ Redis: typeof Redis }> {
  try {
    const { Redis } = await import('ioredis');
    return { Redis };
  } catch (e) {
    throw new EngramError('CONFIG', 'the redis cache needs the "ioredis" package (npm install ioredis)', {
      issues: [{ path: 'cache.url', message: 'ioredis is not installed' }],
      cause: e,
    });
  }
}

/**
 * Opens the hot tier. Validates the options (a CONFIG error naming the field), then connects; if Redis does
 * not answer yet this still resolves: the tier starts in an outage, logs it once, and keeps reconnecting.
 */
export async function openRedisCache(input: OpenRedisCacheOptions): Promise<RedisCache> {
  const { logger = consoleLogger, ...rest } = input;
  const opts = parseRedisCacheOptions(rest);
  const { Redis } = await loadIoredis();
  let client: Redis;
  try {
    client = new Redis(opts.url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: opts.commandTimeoutMs,
      connectTimeout: opts.connectTimeoutMs,
      // Reconnect forever, backing off to at most two seconds.
      retryStrategy: (times) => Math.min(50 * 2 ** Math.min(times, 6), 2000),
    });
  } catch (e) {
    throw new EngramError('CONFIG', `invalid redis cache url: ${e instanceof Error ? e.message : String(e)}`, {
      issues: [{ path: 'cache.url', message: 'not a usable redis URL' }],
      cause: e,
    });
  }
  const health = new CacheHealth(logger);
  const cache = new RedisCache(client, opts, health);
  await client.connect().catch((e: unknown) => health.failed(e));
  return cache;
}
