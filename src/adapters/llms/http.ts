/**
 * The one HTTP path every LLM provider goes through: a per-attempt timeout, bounded retries with back-off on
 * 408/429/5xx, network errors and timeouts (honouring `retry-after`), and typed errors. Providers only build
 * request bodies and read replies.
 */
import { setTimeout as sleepFor } from 'node:timers/promises';
import type { z } from 'zod';
import { EngramError } from '../../core/errors.js';
import { issuePath } from '../../core/validate.js';
import { backoffDelay, DEFAULT_BACKOFF, parseRetryAfter, type BackoffOptions } from './backoff.js';

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Runtime knobs for a provider, beyond its config. Tests pass small back-off; the defaults suit production. */
export interface LlmHttpOptions {
  fetch?: typeof fetch;
  backoff?: Partial<BackoffOptions>;
  /** Waits between attempts; must reject when `signal` aborts. */
  sleep?: Sleep;
  /** Source of jitter in [0, 1). */
  random?: () => number;
}

export interface HttpTransport {
  provider: string;
  timeoutMs: number;
  maxRetries: number;
  fetch: typeof fetch;
  backoff: BackoffOptions;
  sleep: Sleep;
  random: () => number;
}

export function createTransport(
  provider: string,
  cfg: { timeoutMs: number; maxRetries: number },
  opts: LlmHttpOptions = {},
): HttpTransport {
  return {
    provider,
    timeoutMs: cfg.timeoutMs,
    maxRetries: cfg.maxRetries,
    fetch: opts.fetch ?? globalThis.fetch,
    backoff: { ...DEFAULT_BACKOFF, ...opts.backoff },
    sleep: opts.sleep ?? ((ms, signal) => sleepFor(ms, undefined, { signal })),
    random: opts.random ?? Math.random,
  };
}

export interface PostJsonRequest {
  url: string;
  headers: Record<string, string>;
  body: unknown;
  signal?: AbortSignal;
}

/** What one attempt produced: a parsed body, or an error and whether another attempt may succeed. */
type Attempt =
  | { ok: true; body: unknown }
  | { ok: false; retryable: boolean; message: string; details: Record<string, unknown>; retryAfterMs?: number; cause?: unknown };

const RETRYABLE_STATUS = (status: number): boolean => status === 408 || status === 429 || status >= 500;

/** POSTs JSON and returns the parsed JSON reply, retrying what is worth retrying. Throws EngramError('ADAPTER'). */
export async function postJson(t: HttpTransport, req: PostJsonRequest): Promise<unknown> {
  for (let attempt = 1; ; attempt++) {
    const result = await attemptOnce(t, req);
    if (result.ok) return result.body;
    const retriesLeft = attempt <= t.maxRetries;
    const wait = result.retryable && retriesLeft ? retryWait(t, attempt - 1, result.retryAfterMs) : undefined;
    if (wait === undefined) {
      const tries = attempt > 1 ? ` (after ${attempt} attempts)` : '';
      throw new EngramError('ADAPTER', `${t.provider}: ${result.message}${tries}`, {
        details: { provider: t.provider, attempts: attempt, ...result.details },
        cause: result.cause,
      });
    }
    try {
      await t.sleep(wait, req.signal);
    } catch (cause) {
      throw abortedError(t, attempt, cause);
    }
  }
}

/** Undefined when the server asked for a longer wait than we are willing to spend. */
function retryWait(t: HttpTransport, retry: number, retryAfterMs: number | undefined): number | undefined {
  if (retryAfterMs === undefined) return backoffDelay(retry, t.backoff, t.random);
  return retryAfterMs <= t.backoff.maxRetryAfterMs ? retryAfterMs : undefined;
}

async function attemptOnce(t: HttpTransport, req: PostJsonRequest): Promise<Attempt> {
  const timeout = AbortSignal.timeout(t.timeoutMs);
  const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
  let res: Response;
  let text: string;
  try {
    res = await t.fetch(req.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...req.headers },
      body: JSON.stringify(req.body),
      signal,
    });
    // Read inside the try: the timeout covers a body that trickles in, not only the headers.
    text = await res.text();
  } catch (cause) {
    if (req.signal?.aborted) return { ok: false, retryable: false, message: 'request aborted by caller', details: { aborted: true }, cause };
    if (timeout.aborted) {
      return { ok: false, retryable: true, message: `timed out after ${t.timeoutMs} ms`, details: { timeout: true, timeoutMs: t.timeoutMs }, cause };
    }
    return { ok: false, retryable: true, message: `network error: ${networkReason(cause)}`, details: { network: true }, cause };
  }
  if (!res.ok) return httpFailure(res, text);
  try {
    return { ok: true, body: JSON.parse(text) as unknown };
  } catch (cause) {
    return { ok: false, retryable: false, message: `reply is not JSON: ${snippet(text)}`, details: { status: res.status }, cause };
  }
}

function httpFailure(res: Response, text: string): Attempt {
  const serverMessage = errorMessageOf(text);
  const retryAfterMs = parseRetryAfter(res.headers, Date.now());
  const auth = res.status === 401 || res.status === 403;
  const message = auth
    ? `HTTP ${res.status}, not authorised (check the API key and its permissions): ${serverMessage}`
    : `HTTP ${res.status}: ${serverMessage}`;
  return {
    ok: false,
    retryable: RETRYABLE_STATUS(res.status),
    message,
    details: { status: res.status, serverMessage, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) },
    retryAfterMs,
  };
}

/**
 * The server's own words from an error body: OpenAI/Anthropic `{error:{message}}`, Ollama `{error:"…"}`,
 * vLLM `{message}`, FastAPI `{detail}`; else the raw text.
 */
export function errorMessageOf(text: string): string {
  try {
    const body: unknown = JSON.parse(text);
    if (isRecord(body)) {
      const err = body.error;
      if (typeof err === 'string') return err;
      if (isRecord(err) && typeof err.message === 'string') return err.message;
      if (typeof body.message === 'string') return body.message;
      if (typeof body.detail === 'string') return body.detail;
    }
  } catch {
    // Not JSON: fall through to the raw text.
  }
  return snippet(text) || '(empty body)';
}

/**
 * Validates a successful reply against the fields a provider reads, so a protocol mismatch (wrong baseUrl, a
 * proxy's HTML page) fails with a clear ADAPTER error instead of a TypeError deep inside.
 */
export function readReply<S extends z.ZodType>(provider: string, schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => ({ path: issuePath('', i.path), message: i.message }));
  const first = issues[0]!;
  throw new EngramError('ADAPTER', `${provider}: unexpected reply shape at ${first.path || '(root)'}: ${first.message}`, {
    issues,
    details: { provider },
  });
}

function abortedError(t: HttpTransport, attempts: number, cause: unknown): EngramError {
  return new EngramError('ADAPTER', `${t.provider}: request aborted by caller`, {
    details: { provider: t.provider, attempts, aborted: true },
    cause,
  });
}

function networkReason(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  // undici reports "fetch failed" and puts the useful part (ECONNREFUSED …) in `cause`.
  const inner = cause.cause;
  if (inner instanceof Error) {
    const code = (inner as { code?: unknown }).code;
    return typeof code === 'string' ? `${cause.message} (${code})` : `${cause.message} (${inner.message})`;
  }
  return cause.message;
}

function snippet(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > 500 ? `${trimmed.slice(0, 500)}…` : trimmed;
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Joins an API root and a path without doubling or dropping the slash. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}
