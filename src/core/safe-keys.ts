/**
 * User keys become object keys (metadata, tool args and results, filters, configs). Every key is data except
 * `__proto__`: JSON.parse keeps it as an own key, but the first plain assignment (`out[key] = v`, which schema
 * validators do) turns it into the object's prototype — the key silently disappears and the object inherits
 * whatever was sent. It is rejected wherever a body or an input enters, naming its path. Other prototype names
 * (`constructor`, `toString` …) stay ordinary keys; code that looks a user key up in a table of its own uses
 * `Object.hasOwn`, never `in` or a bare index.
 */
import { EngramError } from './errors.js';

export const FORBIDDEN_KEY = '__proto__';

/**
 * The path of the first `__proto__` key inside `value` (`metadata.a.__proto__`), or undefined. Iterative, so
 * nesting of any depth is walked without recursion.
 */
export function forbiddenKeyPath(value: unknown, path = ''): string | undefined {
  const stack: [unknown, string][] = [[value, path]];
  while (stack.length > 0) {
    const [v, at] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    const join = (k: string | number) => (at ? `${at}.${k}` : String(k));
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], join(i)]);
      continue;
    }
    const keys = Object.keys(v);
    if (keys.includes(FORBIDDEN_KEY)) return join(FORBIDDEN_KEY);
    for (let i = keys.length - 1; i >= 0; i--) stack.push([(v as Record<string, unknown>)[keys[i]!], join(keys[i]!)]);
  }
  return undefined;
}

/** Throws VALIDATION naming the path of a `__proto__` key inside `value`. */
export function assertNoForbiddenKeys(value: unknown, path = ''): void {
  const at = forbiddenKeyPath(value, path);
  if (at === undefined) return;
  throw new EngramError('VALIDATION', `${at}: "__proto__" is not allowed as a key`, { issues: [{ path: at, message: '"__proto__" is not allowed as a key' }] });
}

/** Whether arrays and objects inside `value` nest deeper than `limit` (iterative: any depth is safe to check). */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}

/** How deep JSON may nest on every surface (HTTP bodies, MCP arguments, JSONL lines). */
export const MAX_JSON_DEPTH = 64;

/** Depth first (recursive validation would overflow the stack on deep nesting), then `__proto__` keys. */
export function assertSafeJson(value: unknown, path = ''): void {
  if (nestsDeeperThan(value, MAX_JSON_DEPTH)) {
    throw new EngramError('VALIDATION', `${path || 'input'} nests deeper than ${MAX_JSON_DEPTH} levels`, {
      issues: [{ path, message: `nesting deeper than ${MAX_JSON_DEPTH}` }],
    });
  }
  assertNoForbiddenKeys(value, path);
}
