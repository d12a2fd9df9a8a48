/**
 * POST a JSON body to a model server and read the JSON reply, with a per-attempt timeout and bounded retries.
 * Shared by the HTTP embedder and the HTTP reranker (and usable by any other HTTP model adapter).
 */
import { setTimeout as delay } from 'node:timers/promises';
import { EngramError } from '../../core/errors.js';

export interface RetryPolicy {
  /** Extra attempts after the first one. */
  retries: number;
  /** Backoff before retry n (0-based) is about baseDelayMs·2^n, with jitter, capped at maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { retries: 3, baseDelayMs: 500, maxDelayMs: 10_000 };

/** Options of HTTP model adapters that are not part of the engine config (tuning, tests). */
export interface HttpAdapterOptions {
  /** Overrides parts of the default retry policy (3 retries, backoff from 500 ms, at most 10 s). */
  retry?: Partial<RetryPolicy>;
}

export interface PostJsonOptions {
  /** Names the call in errors, e.g. `embeddings request`. */
  what: string;
  apiKey?: string;
  timeoutMs: number;
  signal?: AbortSignal;
  retry?: RetryPolicy;
}

/** Appends a path to an API root, whether or not the root ends with a slash. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** Rate limits, timeouts and server-side failures are worth retrying; other 4xx replies will not change. */
function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** The server's own explanation, from the usual error envelopes (OpenAI, Ollama, FastAPI, TEI) or the raw body. */
export function serverMessage(body: string): string {
  let msg = body;
  try {
    const json = JSON.parse(body) as Record<string, unknown>;
    const err = json.error;
    const detail = json.detail;
    if (typeof err === 'string') msg = err;
    else if (err && typeof err === 'object' && typeof (err as { message?: unknown }).message === 'string') {
      msg = (err as { message: string }).message;
    } else if (typeof json.message === 'string') msg = json.message;
    else if (detail !== undefined) msg = typeof detail === 'string' ? detail : JSON.stringify(detail);
  } catch {
    // Not JSON: keep the body as it is.
  }
  msg = msg.replace(/\s+/g, ' ').trim();
  return msg.length > 500 ? `${msg.slice(0, 500)}…` : msg || '(empty body)';
}

/** Retry-After is either seconds or an HTTP date. */
function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function backoffMs(policy: RetryPolicy, attempt: number, hintMs: number | undefined): number {
  if (hintMs !== undefined) return Math.min(policy.maxDelayMs, hintMs);
  const full = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return full / 2 + Math.random() * (full / 2);
}

/** What fetch reports for refused connections, DNS failures and resets is in `cause`. */
function networkReason(e: unknown): string {
  const cause = e instanceof Error ? (e.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  if (cause && typeof cause.code === 'string') return cause.code;
  if (cause && typeof cause.message === 'string') return cause.message;
  return e instanceof Error ? e.message : String(e);
}

interface Failure {
  message: string;
  retryable: boolean;
  status?: number;
  serverMessage?: string;
  retryAfter?: number;
}

/**
 * One attempt. Returns the parsed reply or describes the failure. A caller abort is rethrown as the signal's
 * reason, never retried.
 */
async function attempt(url: string, body: string, opts: PostJsonOptions): Promise<{ json: unknown } | Failure> {
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, { method: 'POST', headers, body, signal });
    text = await res.text();
  } catch (e) {
    if (opts.signal?.aborted) throw opts.signal.reason;
    const message = timeout.aborted ? `no reply within ${opts.timeoutMs} ms` : `network error: ${networkReason(e)}`;
    return { message, retryable: true };
  }
  if (!res.ok) {
    const server = serverMessage(text);
    return {
      message: `HTTP ${res.status}: ${server}`,
      retryable: isRetryableStatus(res.status),
      status: res.status,
      serverMessage: server,
      retryAfter: retryAfterMs(res.headers.get('retry-after')),
    };
  }
  try {
    return { json: JSON.parse(text) as unknown };
  } catch (cause) {
    throw new EngramError('ADAPTER', `${opts.what} to ${url}: reply is not JSON: ${serverMessage(text).slice(0, 200)}`, {
      cause,
      details: { url, status: res.status },
    });
  }
}

/**
 * POSTs `body` as JSON and returns the parsed reply. Throws EngramError('ADAPTER') carrying `details.status`
 * and `details.serverMessage` when the server refuses, after retries when the failure is transient.
 */
export async function postJson(url: string, body: unknown, opts: PostJsonOptions): Promise<unknown> {
  const policy = opts.retry ?? DEFAULT_RETRY_POLICY;
  const payload = JSON.stringify(body);
  for (let n = 0; ; n++) {
    opts.signal?.throwIfAborted();
    const outcome = await attempt(url, payload, opts);
    if ('json' in outcome) return outcome.json;
    if (!outcome.retryable || n >= policy.retries) {
      const attempts = n + 1;
      throw new EngramError('ADAPTER', `${opts.what} to ${url} failed${attempts > 1 ? ` after ${attempts} attempts` : ''}: ${outcome.message}`, {
        details: { url, status: outcome.status, serverMessage: outcome.serverMessage, attempts },
      });
    }
    try {
      await delay(backoffMs(policy, n, outcome.retryAfter), undefined, { signal: opts.signal });
    } catch (e) {
      throw opts.signal?.aborted ? opts.signal.reason : e;
    }
  }
}
