import { readFileSync } from 'node:fs';
import { HTTPException } from 'hono/http-exception';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, EngramError } from '../../core/errors.js';
import { z } from 'zod';
import { errorBody, STATUS_BY_CODE, statusOf, toEngramError, validationHook } from './errors.js';

describe('error table', () => {
  it('maps every error code, client errors to 4xx and backend failures to 5xx', () => {
    const status = (code: (typeof ERROR_CODES)[number], details = {}) => statusOf(new EngramError(code, 'm', { details }));
    expect(Object.keys(STATUS_BY_CODE).sort()).toEqual([...ERROR_CODES].sort());
    expect(status('VALIDATION')).toBe(400);
    expect(status('UNAUTHORIZED')).toBe(401);
    expect(status('FORBIDDEN')).toBe(403);
    expect(status('NOT_FOUND')).toBe(404);
    expect(status('CONFLICT')).toBe(409);
    expect(status('LIMIT')).toBe(413);
    expect(status('LIMIT', { limit: 'rate' })).toBe(429);
    expect(status('ADAPTER')).toBe(502);
    expect(status('UNAVAILABLE')).toBe(503);
    expect(status('CONFIG')).toBe(500);
  });

  it('keeps the message and issue paths for client errors and hides internals for server errors', () => {
    const client = errorBody(new EngramError('VALIDATION', 'bad ts', { issues: [{ path: 'events.3.ts', message: 'not a time' }] }), 'r1');
    expect(client).toEqual({ status: 400, body: { error: { code: 'VALIDATION', message: 'bad ts', issues: [{ path: 'events.3.ts', message: 'not a time' }], request_id: 'r1' } } });
    const backend = errorBody(new EngramError('ADAPTER', 'SQLITE_FULL at /var/lib/engram/engram.db', { issues: [{ path: 'x', message: 'y' }] }), 'r2');
    expect(backend.status).toBe(502);
    expect(JSON.stringify(backend.body)).not.toContain('/var/lib');
    expect(backend.body.error.issues).toEqual([]);
    const unknown = errorBody(toEngramError(new TypeError('cannot read x of undefined at handler.ts:12')), 'r3');
    expect(unknown).toEqual({ status: 500, body: { error: { code: 'INTERNAL', message: 'internal error', issues: [], request_id: 'r3' } } });
  });

  it("is the table docs/http.md shows: each code's row names every status it can answer", () => {
    const doc = readFileSync(new URL('../../../docs/http.md', import.meta.url), 'utf8');
    const rows = doc.split('\n').filter((l) => /^\| [A-Z_, ]+ \| [\d /]+ \|/.test(l));
    const statusesIn = (code: string) => rows.find((r) => r.split('|')[1]!.split(',').map((c) => c.trim()).includes(code))?.split('|')[2]?.trim() ?? '';
    // Every way a code picks its status: plain, a wrong method (NOT_FOUND), a rate limit (LIMIT).
    const variants = [{}, { allow: 'GET' }, { limit: 'rate' }];
    for (const code of ERROR_CODES) {
      const statuses = [...new Set(variants.map((details) => statusOf(new EngramError(code, 'm', { details }))))].sort();
      expect(statusesIn(code).split(' / ').map(Number).sort(), code).toEqual(statuses);
    }
  });

  it('names a body field left out as required, and a wrong value with the schema\'s message', () => {
    const schema = z.object({ query: z.string(), k: z.number().optional() }).strict();
    const hook = (data: unknown) => {
      try {
        validationHook({ success: false, target: 'json', error: schema.safeParse(data).error!, data }, {} as never);
      } catch (e) {
        return e as EngramError;
      }
      throw new Error('no error');
    };
    expect(hook({})).toMatchObject({ message: 'invalid request: query: required', issues: [{ path: 'query', message: 'required' }] });
    expect(hook({ query: 'q', k: 'x' }).issues).toEqual([{ path: 'k', message: 'Invalid input: expected number, received string' }]);
  });

  it("turns Hono's own refusals into VALIDATION: malformed JSON and a wrong content type", () => {
    expect(toEngramError(new HTTPException(400, { message: 'Malformed JSON in request body' }))).toMatchObject({ code: 'VALIDATION', message: 'request body is not valid JSON' });
    expect(toEngramError(new HTTPException(415, { message: 'Unsupported Media Type' }))).toMatchObject({ code: 'VALIDATION', issues: [{ path: 'content-type' }] });
  });
});
