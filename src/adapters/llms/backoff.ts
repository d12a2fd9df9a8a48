/** Retry timing: exponential back-off with jitter, and the server's own `retry-after` when it sends one. */

export interface BackoffOptions {
  /** Delay before the first retry, before jitter. */
  baseDelayMs: number;
  /** Ceiling for the exponential delay. */
  maxDelayMs: number;
  /** A server asking for a longer wait than this is not retried: the call fails at once instead of stalling. */
  maxRetryAfterMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 };

/**
 * Delay before retry number `retry` (0 for the first retry): the capped exponential step, jittered into its
 * upper half so concurrent clients spread out without any retry coming back immediately.
 */
export function backoffDelay(retry: number, opts: Pick<BackoffOptions, 'baseDelayMs' | 'maxDelayMs'>, random: () => number): number {
  const step = Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** retry);
  return step / 2 + random() * (step / 2);
}

/**
 * Milliseconds the server asked us to wait, from `retry-after-ms` (OpenAI), or `retry-after` as seconds or an
 * HTTP date. Undefined when absent or unreadable.
 */
export function parseRetryAfter(headers: Headers, now: number): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '') {
    const n = Number(ms);
    if (Number.isFinite(n) && n >= 0) return n;
  }
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
