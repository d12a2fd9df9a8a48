/**
 * Per-key token buckets: a key may burst up to `burst` requests, then `perSecond` sustained. A refused
 * request is LIMIT (429) with `retry-after` in whole seconds. Buckets live in this process; with several
 * server processes each enforces its own share.
 *
 * Requests without a valid key (public paths, a missing, unknown or revoked key) are limited per client
 * address instead: each one takes a token of its address's bucket, and an address whose bucket is empty is
 * refused before its key is even looked up — so guessing keys or flooding the public probes costs the server
 * nothing much. Valid-key requests never spend address tokens.
 */
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import { EngramError } from '../../core/errors.js';
import type { AppEnv } from './env.js';

export interface RateLimitSettings {
  perSecond: number;
  burst: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly settings: RateLimitSettings,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Takes one token for `key`: 0 when granted, else the milliseconds until a token is available. */
  take(key: string): number {
    const b = this.refill(key);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return ((1 - b.tokens) / this.settings.perSecond) * 1000;
  }

  /** The milliseconds until `key` has a token (0: it has one now), without taking it. */
  wait(key: string): number {
    const b = this.buckets.get(key) ? this.refill(key) : undefined;
    return !b || b.tokens >= 1 ? 0 : ((1 - b.tokens) / this.settings.perSecond) * 1000;
  }

  get size(): number {
    return this.buckets.size;
  }

  private refill(key: string): Bucket {
    const { perSecond, burst } = this.settings;
    const t = this.now();
    const b = this.buckets.get(key) ?? { tokens: burst, at: t };
    b.tokens = Math.min(burst, b.tokens + ((t - b.at) / 1000) * perSecond);
    b.at = t;
    if (!this.buckets.has(key)) {
      // Many distinct callers (addresses) must not grow the map without bound: full buckets carry no state.
      if (this.buckets.size >= MAX_BUCKETS) this.pruneFull();
      this.buckets.set(key, b);
    }
    return b;
  }

  private pruneFull(): void {
    const { perSecond, burst } = this.settings;
    const t = this.now();
    for (const [k, b] of this.buckets) if (b.tokens + ((t - b.at) / 1000) * perSecond >= burst) this.buckets.delete(k);
    // Still full of active callers: forget the oldest half rather than grow.
    if (this.buckets.size >= MAX_BUCKETS) [...this.buckets.keys()].slice(0, MAX_BUCKETS / 2).forEach((k) => this.buckets.delete(k));
  }
}

const MAX_BUCKETS = 100_000;

function limited(c: Context, seconds: number, what: string): never {
  c.header('retry-after', String(seconds));
  throw new EngramError('LIMIT', `rate limit exceeded for ${what}; retry in ${seconds}s`, {
    details: { limit: 'rate', retryAfterSeconds: seconds },
  });
}

/** The peer address of the connection ('unknown' when there is none, as under `app.request` in tests). */
function clientAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Runs before authentication; see the file comment. `perSecond: 0` disables it. */
export function addressRateLimit(settings: RateLimitSettings, now?: () => number): MiddlewareHandler<AppEnv> {
  if (settings.perSecond <= 0) return (_c, next) => next();
  const buckets = new TokenBuckets(settings, now);
  return async (c, next) => {
    const address = clientAddress(c);
    const waitMs = buckets.wait(address);
    if (waitMs > 0) limited(c, Math.max(1, Math.ceil(waitMs / 1000)), 'unauthenticated requests from this address');
    await next();
    // Hono renders errors (a failed authentication) inside next(); only a valid key sets the principal.
    if (!c.get('principal')) buckets.take(address);
  };
}

/** Runs after authentication (the bucket is the key's); public paths carry no principal and pass. */
export function rateLimit(settings: RateLimitSettings, now?: () => number): MiddlewareHandler<AppEnv> {
  if (settings.perSecond <= 0) return (_c, next) => next();
  const buckets = new TokenBuckets(settings, now);
  return async (c, next) => {
    const principal = c.get('principal') as AppEnv['Variables']['principal'] | undefined;
    if (!principal) return next();
    const waitMs = buckets.take(principal.keyId);
    if (waitMs > 0) limited(c, Math.max(1, Math.ceil(waitMs / 1000)), 'this key');
    return next();
  };
}
