/**
 * How a LangGraph store item lives in Engram: one fact lineage per (namespace, key).
 *
 *   fact.key        `lg:<label>:<label>::<key>` (readable), or `lg#<sha256>` when that would pass 200 characters
 *   fact.text       what search ranks: the value's indexed fields rendered as text (the whole value by default)
 *   fact.metadata   lg_namespace (labels), lg_path (labels joined by ":"), lg_prefixes (every ancestor path, so a
 *                   namespace-prefix search is one `contains` filter), lg_key, lg_value (the value itself),
 *                   lg_created_at (epoch ms of the first put), lg_indexed (false when put with `index: false`)
 *   fact.expiresAt  now + TTL when the item has one
 *
 * A new put is a new version of the lineage (Engram never overwrites); delete forgets the whole lineage.
 * Pure functions only: the store (store.ts) does the I/O.
 */
import { createHash } from 'node:crypto';
import { EngramError } from '../../core/errors.js';
import type { Fact, Json, JsonObject } from '../../core/types.js';

const MAX_FACT_KEY = 200;

export interface StoredItem {
  namespace: string[];
  key: string;
  value: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
  indexed: boolean;
}

export function namespacePath(namespace: readonly string[]): string {
  return namespace.join(':');
}

/** A lineage key that is injective over (namespace, key): labels hold no ":", so the first "::" ends them. */
export function factKeyOf(namespace: readonly string[], key: string): string {
  const readable = `lg:${namespacePath(namespace)}::${key}`;
  if (readable.length <= MAX_FACT_KEY) return readable;
  return `lg#${createHash('sha256').update(JSON.stringify([namespace, key])).digest('hex')}`;
}

/** Every ancestor path of a namespace, itself included: ["a","b"] → ["a", "a:b"]. */
export function prefixPaths(namespace: readonly string[]): string[] {
  return namespace.map((_, i) => namespacePath(namespace.slice(0, i + 1)));
}

/** Labels are non-empty strings without "." or ":" (LangGraph's own rule; ":" also keeps fact keys injective). */
export function assertNamespace(namespace: unknown, path: string, opts: { allowEmpty: boolean }): asserts namespace is string[] {
  const fail = (message: string) => {
    throw new EngramError('VALIDATION', `invalid ${path}: ${message}`, { issues: [{ path, message }] });
  };
  if (!Array.isArray(namespace)) fail('expected an array of labels');
  const labels = namespace as unknown[];
  if (labels.length === 0 && !opts.allowEmpty) fail('a namespace needs at least one label');
  labels.forEach((label, i) => {
    if (typeof label !== 'string' || label === '') fail(`label ${i} must be a non-empty string`);
    else if (/[.:\0]/.test(label)) fail(`label ${i} ("${label}") may not contain ".", ":" or NUL`);
  });
}

export function assertKey(key: unknown, path = 'key'): asserts key is string {
  if (typeof key !== 'string' || key === '') {
    throw new EngramError('VALIDATION', `invalid ${path}: a non-empty string`, { issues: [{ path, message: 'a non-empty string' }] });
  }
}

/** Values are stored as JSON (as LangGraph's own stores do): Dates become strings, undefined fields drop. */
export function toJsonValue(value: unknown): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new EngramError('VALIDATION', 'invalid value: a JSON object', { issues: [{ path: 'value', message: 'a JSON object' }] });
  }
  let json: unknown;
  try {
    json = JSON.parse(JSON.stringify(value));
  } catch (e) {
    throw new EngramError('VALIDATION', 'invalid value: not JSON-serializable', { issues: [{ path: 'value', message: 'not JSON-serializable' }], cause: e });
  }
  return json as JsonObject;
}

/**
 * The text Engram indexes for an item. `fields` uses LangGraph's path syntax (`a.b`, `list[*]`, `list[0]`, `$` for
 * the whole value); the whole value renders as `field: value` lines so both names and values are searchable.
 */
export function searchText(key: string, value: JsonObject, fields: readonly string[]): string {
  const parts = fields.flatMap((f) => (f === '$' ? [renderValue(value)] : textsAt(value, f)));
  const body = parts.filter((p) => p.trim() !== '').join('\n');
  return body === '' ? key : body;
}

function renderValue(value: JsonObject): string {
  return Object.entries(value)
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join('\n');
}

/** The strings at a LangGraph field path (`a.b`, `a[*].b`, `a[0]`, `a[-1]`); non-string leaves are JSON. */
export function textsAt(value: Json, path: string): string[] {
  let current: Json[] = [value];
  for (const token of path.split('.')) {
    const m = /^([^[]*)(?:\[(\*|-?\d+)\])?$/.exec(token);
    if (!m) return [];
    const [, name, index] = m;
    current = current.flatMap((node) => {
      const child = name ? childOf(node, name) : node;
      if (child === undefined) return [];
      if (index === undefined) return [child];
      if (!Array.isArray(child)) return [];
      if (index === '*') return child;
      const i = Number(index);
      const at = child[i < 0 ? child.length + i : i];
      return at === undefined ? [] : [at];
    });
  }
  return current.filter((v) => v !== null).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
}

function childOf(node: Json, name: string): Json | undefined {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return undefined;
  return Object.hasOwn(node, name) ? node[name] : undefined;
}

export function itemMetadata(namespace: readonly string[], key: string, value: JsonObject, createdAt: number, indexed: boolean): JsonObject {
  return {
    lg_namespace: [...namespace],
    lg_path: namespacePath(namespace),
    lg_prefixes: prefixPaths(namespace),
    lg_key: key,
    lg_value: value,
    lg_created_at: createdAt,
    ...(indexed ? {} : { lg_indexed: false }),
  };
}

/** The item a fact holds, or undefined for a fact that is not a LangGraph item. */
export function itemOf(fact: Fact): StoredItem | undefined {
  const m = fact.metadata;
  const ns = m['lg_namespace'];
  const key = m['lg_key'];
  const value = m['lg_value'];
  if (!Array.isArray(ns) || typeof key !== 'string' || value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const created = typeof m['lg_created_at'] === 'number' ? m['lg_created_at'] : fact.recordedAt;
  return {
    namespace: ns.map(String),
    key,
    value: value as Record<string, unknown>,
    createdAt: new Date(created),
    updatedAt: new Date(fact.recordedAt),
    indexed: m['lg_indexed'] !== false,
  };
}

export function hasPrefix(namespace: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= namespace.length && prefix.every((label, i) => namespace[i] === label);
}

/** LangGraph's namespace match conditions: a path of labels or "*" wildcards, anchored at the start or the end. */
export function matchesCondition(namespace: readonly string[], cond: { matchType: 'prefix' | 'suffix'; path: readonly string[] }): boolean {
  if (cond.path.length > namespace.length) return false;
  const offset = cond.matchType === 'prefix' ? 0 : namespace.length - cond.path.length;
  return cond.path.every((label, i) => label === '*' || namespace[offset + i] === label);
}
