/**
 * Guards JSON bodies before anything parses them into schemas:
 *  - invalid UTF-8 is a 400, not silently replaced by U+FFFD (the stored text would differ from what was sent);
 *  - nesting deeper than a limit is a 400: JSON.parse copes with deep nesting, but recursive validation (the
 *    library's JSON-value schema for args, result and metadata) would overflow the stack on a body like
 *    `{"args":[[[[…]]]]}` and turn a bad request into a 500.
 */
import type { MiddlewareHandler } from 'hono';
import { EngramError } from '../../core/errors.js';
import { assertNoForbiddenKeys } from '../../core/safe-keys.js';
import type { AppEnv } from './env.js';

export { MAX_JSON_DEPTH } from '../../core/safe-keys.js';
import { MAX_JSON_DEPTH } from '../../core/safe-keys.js';

/** Whether arrays/objects in `text` nest deeper than `limit`, counting only brackets outside strings. */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c) i++; // backslash: skip the escaped character
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) {
      inString = true;
    } else if (ch === 0x5b || ch === 0x7b) {
      if (++depth > limit) return true;
    } else if (ch === 0x5d || ch === 0x7d) {
      depth--;
    }
  }
  return false;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes a request body as UTF-8, refusing invalid byte sequences. */
export function decodeUtf8(bytes: ArrayBuffer): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw new EngramError('VALIDATION', 'request body is not valid UTF-8', { issues: [{ path: '', message: 'invalid UTF-8' }] });
  }
}

export function jsonGuard(limit = MAX_JSON_DEPTH): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const type = c.req.header('content-type') ?? '';
    if (c.req.method === 'GET' || c.req.method === 'HEAD' || !/\bjson\b/i.test(type)) return next();
    // Hono caches the body, so the validator's later c.req.json() reads these same bytes.
    const text = decodeUtf8(await c.req.arrayBuffer());
    if (jsonDepthExceeds(text, limit)) {
      throw new EngramError('VALIDATION', `JSON nests deeper than ${limit} levels`, { issues: [{ path: '', message: `nesting deeper than ${limit}` }] });
    }
    // Before any schema assigns it: a `__proto__` key would vanish into a prototype (core/safe-keys.ts).
    // (`\u005f_proto__` is the same key once parsed, so any escape means a look too.)
    if (text.includes('__proto__') || text.includes('\\u')) assertNoForbiddenKeys(parseOrUndefined(text));
    return next();
  };
}

/** The parsed body, or undefined when it is not JSON (the route's validator reports that). */
function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
