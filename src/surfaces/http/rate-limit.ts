/**
 * Per-key token buckets: a key may burst up to `burst` requests, then `perSecond` sustained. A refused
 * request is LIMIT (429) with `retry-after` in whole seconds. Buckets live in this process; with several
 * server processes each enforces its own share.
 */
import type { MiddlewareHandler } from 'hono';
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
    const { perSecond, burst } = this.settings;
    const t = this.now();
    const b = this.buckets.get(key) ?? { tokens: burst, at: t };
    b.tokens = Math.min(burst, b.tokens + ((t - b.at) / 1000) * perSecond);
    b.at = t;
    this.buckets.set(key, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return ((1 - b.tokens) / perSecond) * 1000;
  }
}

/** Runs after authentication (the bucket is the key's); public paths carry no principal and pass. */
export function rateLimit(settings: RateLimitSettings, now?: () => number): MiddlewareHandler<AppEnv> {
  if (settings.perSecond <= 0) return (_c, next) => next();
  const buckets = new TokenBuckets(settings, now);
  return async (c, next) => {
    const principal = c.get('principal') as AppEnv['Variables']['principal'] | undefined;
    if (!principal) return next();
    const waitMs = buckets.take(principal.keyId);
    if (waitMs > 0) {
      const seconds = Math.max(1, Math.ceil(waitMs / 1000));
      c.header('retry-after', String(seconds));
      throw new EngramError('LIMIT', `rate limit exceeded for this key; retry in ${seconds}s`, {
        details: { limit: 'rate', retryAfterSeconds: seconds },
      });
    }
    return next();
  };
}
