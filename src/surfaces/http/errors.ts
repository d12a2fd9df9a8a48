/**
 * The one table from error codes to HTTP statuses, and the one error body every route returns:
 *   { "error": { "code", "message", "issues": [{ "path", "message" }], "request_id" } }
 * 5xx bodies never carry the internal message (driver errors, paths, stack traces); the log has the code.
 */
import { HTTPException } from 'hono/http-exception';
import type { Context } from 'hono';
import type { z } from 'zod';
import { EngramError, HTTP_STATUS_BY_CODE, httpStatusOf, isEngramError, type ErrorCode, type ErrorIssue } from '../../core/errors.js';
import { describeIssue, issuePath } from '../../core/validate.js';
import { wirePath } from './wire.js';

/** The code → status table lives in core/errors.ts (the typed client maps statuses back with it). */
export const STATUS_BY_CODE = HTTP_STATUS_BY_CODE;

/** What a client is told for a server-side failure, by code; the real message goes to the log only. */
const PUBLIC_5XX_MESSAGE: Partial<Record<ErrorCode, string>> = {
  ADAPTER: 'a storage or model backend failed; try again later',
  LLM_OUTPUT: 'the language model returned an unusable answer',
  UNAVAILABLE: 'the service is temporarily unavailable; try again later',
  CONFIG: 'the server is misconfigured',
};

export function statusOf(e: EngramError): number {
  return httpStatusOf(e);
}

export interface ErrorBody {
  error: { code: ErrorCode | 'INTERNAL'; message: string; issues: ErrorIssue[]; request_id?: string | undefined };
}

/** Turns anything thrown in a request into an EngramError, or undefined for a genuine internal failure. */
export function toEngramError(e: unknown): EngramError | undefined {
  if (isEngramError(e)) return e;
  if (e instanceof HTTPException) return fromHttpException(e);
  return undefined;
}

/** Hono's own errors: malformed JSON (400), a missing/wrong Content-Type (415 → our VALIDATION 400). */
function fromHttpException(e: HTTPException): EngramError {
  if (e.status === 415) {
    return new EngramError('VALIDATION', 'expected Content-Type: application/json', {
      issues: [{ path: 'content-type', message: 'expected application/json' }],
    });
  }
  if (e.status === 413) return new EngramError('LIMIT', 'request body is too large', { issues: [{ path: '', message: 'body too large' }] });
  if (e.status < 500) {
    const message = /json/i.test(e.message) ? 'request body is not valid JSON' : e.message || 'bad request';
    return new EngramError('VALIDATION', message, { issues: [{ path: '', message }] });
  }
  return new EngramError('UNAVAILABLE', e.message);
}

export function errorBody(e: EngramError | undefined, requestId: string | undefined): { status: number; body: ErrorBody } {
  if (!e) {
    return { status: 500, body: { error: { code: 'INTERNAL', message: 'internal error', issues: [], request_id: requestId } } };
  }
  const status = statusOf(e);
  const message = status >= 500 ? (PUBLIC_5XX_MESSAGE[e.code] ?? 'internal error') : e.message;
  // Library errors name camelCase fields; the client sent (and reads) the wire's snake_case. Request
  // validation (validationHook) already names fields exactly as sent, unknown ones included.
  const rename = e.details.wirePaths === true ? (p: string) => p : wirePath;
  const issues = status >= 500 ? [] : e.issues.map((i) => ({ path: rename(i.path), message: i.message }));
  return { status, body: { error: { code: e.code, message, issues, request_id: requestId } } };
}

/** The zod-openapi hook: a failed request validation becomes VALIDATION naming each failing field. */
export function validationHook(result: { success: boolean; target: string; error?: z.ZodError; data?: unknown }, _c: Context): void {
  if (result.success || !result.error) return;
  const prefix = TARGET_PREFIX[result.target] ?? '';
  // An unknown field is reported at its own path, so a client sees which field to remove.
  const issues = result.error.issues.flatMap((i) =>
    i.code === 'unrecognized_keys'
      ? i.keys.map((k) => ({ path: issuePath(prefix, [...i.path, k]), message: 'unknown field' }))
      : [{ path: issuePath(prefix, i.path), message: describeIssue(i, result.data) }],
  );
  const first = issues[0]!;
  throw new EngramError('VALIDATION', `invalid request: ${first.path || '(body)'}: ${first.message}`, { issues, details: { wirePaths: true } });
}

/** Body paths are field paths as the library names them; query and path parameters say where they came from. */
const TARGET_PREFIX: Record<string, string> = { json: '', query: 'query', param: 'path', header: 'header' };
