/**
 * The one wire casing: every key the API sends is snake_case (seed 000's casing) and every time is ISO-8601.
 * The library's records are camelCase with epoch-millisecond times; `toWire` converts them, once, here.
 * Maps that belong to the caller (`metadata`, tool `args` and `result`, a retrieval's `config`) pass through
 * untouched: their keys are data, not field names.
 */

/** Keys whose values are the caller's own JSON. */
const OPAQUE_KEYS = ['metadata', 'args', 'result', 'config', 'counts'] as const;
type OpaqueKey = (typeof OPAQUE_KEYS)[number];

/** Keys holding a time in epoch milliseconds inside the library, rendered as ISO-8601 on the wire. */
const TIME_KEYS = [
  'ts',
  'at',
  'startTs',
  'endTs',
  'recordedAt',
  'createdAt',
  'updatedAt',
  'lastUsedAt',
  'addedAt',
  'expiresAt',
  'expiredAt',
  'revokedAt',
  'validFrom',
  'validTo',
] as const;
type TimeKey = (typeof TIME_KEYS)[number];

const opaque: ReadonlySet<string> = new Set(OPAQUE_KEYS);
const times: ReadonlySet<string> = new Set(TIME_KEYS);

/** `retrievalId` → `retrieval_id` at the type level. */
export type SnakeKey<S extends string> = S extends `${infer H}${infer T}` ? `${H extends Uppercase<H> ? (H extends Lowercase<H> ? H : `_${Lowercase<H>}`) : H}${SnakeKey<T>}` : S;

type WireValue<K, V> = K extends OpaqueKey ? V : K extends TimeKey ? (V extends number ? string : Wire<V>) : Wire<V>;

/** A library record as the API sends it. */
export type Wire<T> = T extends readonly (infer U)[]
  ? Wire<U>[]
  : T extends Float32Array
    ? never
    : T extends object
      ? { [K in keyof T as K extends string ? SnakeKey<K> : K]: WireValue<K, T[K]> }
      : T;

export function snakeKey(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

export function camelKey(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

export function toWire<T>(value: T): Wire<T> {
  return convert(value) as Wire<T>;
}

function convert(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(convert);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined) continue;
    out[snakeKey(k)] = opaque.has(k) ? v : times.has(k) && typeof v === 'number' ? new Date(v).toISOString() : convert(v);
  }
  return out;
}

/** A snake_case request body as the library's camelCase input (one level: nested user maps stay as they are). */
export function fromWire<T extends Record<string, unknown>>(body: T): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) if (v !== undefined) out[camelKey(k)] = v;
  return out;
}

/** An issue path as the client named it: `events.0.userId` → `events.0.user_id`. */
export function wirePath(path: string): string {
  return path
    .split('.')
    .map((seg) => (/^[a-z][A-Za-z0-9]*$/.test(seg) ? snakeKey(seg) : seg))
    .join('.');
}
