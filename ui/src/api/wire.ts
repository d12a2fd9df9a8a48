/**
 * The API's one wire casing is snake_case; a server from before that change answered in camelCase and took
 * camelCase query parameters. The client speaks snake_case and converts at this edge, so the views are
 * written once. Maps that belong to the caller (metadata, tool args and result, a retrieval's config, PII
 * counts) keep their keys.
 */
const OPAQUE = new Set(['metadata', 'args', 'result', 'config', 'counts']);

const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const camel = (k: string) => k.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/** Every key snake_case (a no-op on a snake_case body). */
export function snakeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[snake(k)] = OPAQUE.has(k) ? v : snakeKeys(v);
  return out;
}

/** Query parameter names for a camelCase server. */
export function camelParams(q: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(q).map(([k, v]) => [camel(k), v]));
}
