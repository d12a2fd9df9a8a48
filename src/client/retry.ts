/**
 * A `fetch` that retries what is safe to retry: 429 and 503 answers (the server refused before doing the work,
 * and says when to come back in `retry-after`), and network failures — for any method when the connection was
 * refused (nothing was sent), for idempotent methods otherwise. Backoff is exponential with full jitter,
 * capped, and never shorter than `retry-after`.
 */

export interface RetryOptions {
  /** Attempts after the first (default 3; 0 disables retries). */
  retries?: number;
  /** First backoff in ms (default 200); doubles per attempt. */
  baseDelayMs?: number;
  /** Longest wait between attempts, retry-after included (default 10 s). */
  maxDelayMs?: number;
}

const RETRY_STATUSES = new Set([429, 503]);
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
/** Errors that mean no byte of the request reached a server. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

function causeCode(e: unknown): string | undefined {
  const cause = (e as { cause?: { code?: unknown } } | undefined)?.cause;
  return typeof cause?.code === 'string' ? cause.code : undefined;
}

function retryAfterMs(res: Response): number | undefined {
  const v = res.headers.get('retry-after');
  if (!v) return undefined;
  const seconds = Number(v);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(v);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function retryingFetch(base: typeof fetch, opts: RetryOptions = {}): typeof fetch {
  const retries = opts.retries ?? 3;
  const baseDelay = opts.baseDelayMs ?? 200;
  const maxDelay = opts.maxDelayMs ?? 10_000;
  const backoff = (attempt: number, floor = 0) => Math.min(maxDelay, Math.max(floor, Math.random() * baseDelay * 2 ** attempt));

  return async (input, init) => {
    const request = new Request(input, init);
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await base(request.clone());
      } catch (e) {
        const retryable = NOT_SENT.has(causeCode(e) ?? '') || IDEMPOTENT.has(request.method);
        if (!retryable || attempt >= retries) throw e;
        await sleep(backoff(attempt));
        continue;
      }
      if (!RETRY_STATUSES.has(res.status) || attempt >= retries) return res;
      await res.body?.cancel();
      await sleep(backoff(attempt, retryAfterMs(res)));
    }
  };
}
