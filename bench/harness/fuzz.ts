/**
 * Hostile requests generated from the server's own OpenAPI document (/openapi.json): for every operation, a
 * minimal valid request is derived from its schemas and then broken one way at a time — a property of the
 * wrong type, a required one missing, an unknown one added, strings huge or full of control characters and
 * lone surrogates, numbers out of range, nesting 200 deep, `__proto__` keys, not JSON, the wrong content
 * type, junk path and query parameters, no key or a bad one. Counts answers by status; every 5xx is a failure.
 * Writes: the tenant's export is counted before and after, and the difference must equal exactly what the
 * accepted (2xx) writes reported creating — so a rejected request that wrote anything is caught.
 * Destructive operations (forget, redact, key revocation) are left out: a valid-by-chance `{}` forget empties
 * the tenant by design.
 */
import { call } from './server.js';
import { rng } from '../lib/rng.js';

type Schema = Record<string, unknown>;
interface Operation {
  method: string;
  path: string;
  body?: Schema;
  contentType?: string;
  params: { name: string; in: string; schema: Schema; required?: boolean }[];
}

const SKIP = new Set(['post /v1/forget', 'post /v1/events/{id}/redact', 'delete /admin/keys/{id}']);

export interface FuzzResult {
  requests: number;
  byStatus: Record<number, number>;
  serverErrors: { method: string; path: string; status: number; body: string }[];
  expectedWrites: number;
  observedWrites: number;
}

export function operations(doc: Schema): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Schema>>)) {
    for (const [method, op] of Object.entries(item)) {
      if (SKIP.has(`${method} ${path}`) || path.startsWith('/admin') || path === '/openapi.json') continue;
      const content = (op.requestBody as { content?: Record<string, { schema: Schema }> } | undefined)?.content ?? {};
      const [contentType, media] = Object.entries(content)[0] ?? [];
      out.push({ method: method.toUpperCase(), path, body: media?.schema, contentType, params: (op.parameters as Operation['params']) ?? [] });
    }
  }
  return out;
}

function resolver(doc: Schema) {
  const components = ((doc.components as Schema | undefined)?.schemas ?? {}) as Record<string, Schema>;
  const deref = (s: Schema | undefined): Schema => {
    let cur = s ?? {};
    for (let i = 0; i < 10 && typeof cur.$ref === 'string'; i++) cur = components[(cur.$ref as string).split('/').pop()!] ?? {};
    return cur;
  };
  /** A minimal value the schema accepts (best effort: enough to reach deeper validation than the first field). */
  const sample = (raw: Schema | undefined, depth = 0): unknown => {
    const s = deref(raw);
    if (depth > 6) return null;
    if (Array.isArray(s.enum)) return s.enum[0];
    const alt = (s.anyOf ?? s.oneOf ?? s.allOf) as Schema[] | undefined;
    if (alt?.length) return sample(alt[0], depth + 1);
    const type = Array.isArray(s.type) ? s.type[0] : s.type;
    if (type === 'object' || s.properties) {
      const props = (s.properties ?? {}) as Record<string, Schema>;
      return Object.fromEntries(((s.required as string[] | undefined) ?? []).map((k) => [k, sample(props[k], depth + 1)]));
    }
    if (type === 'array') return Array.from({ length: Number(s.minItems ?? 0) }, () => sample(s.items as Schema, depth + 1));
    if (type === 'integer' || type === 'number') return typeof s.minimum === 'number' ? s.minimum : 1;
    if (type === 'boolean') return true;
    if (type === 'string') return 'fuzz text';
    return 'fuzz';
  };
  return { deref, sample };
}

const HOSTILE_STRINGS = ['', ' ', 'x'.repeat(100_000), '\ud800', 'nul\u0000byte', '\u202e## SYSTEM', '../../etc/passwd', '%00', '{"a":1}', '<script>', '1e309', '-1'];
const HOSTILE_VALUES: unknown[] = [null, true, -1, 0, 1e300, -1e300, 2 ** 53 + 1, [], {}, [[[]]], JSON.parse('{"__proto__":1}') as unknown, ...HOSTILE_STRINGS];

const queryValue = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));
/** Percent-encodes; a lone surrogate goes out as the invalid UTF-8 it would be (%ED%A0%80). */
const enc = (s: string): string => (s.isWellFormed() ? encodeURIComponent(s) : '%ED%A0%80');

function deep(n: number): unknown {
  let v: unknown = 'leaf';
  for (let i = 0; i < n; i++) v = { a: v };
  return v;
}

/** One hostile request for `op`. */
function mutate(op: Operation, r: () => number, res: ReturnType<typeof resolver>): { path: string; body?: string; headers: Record<string, string>; auth: 'ok' | 'none' | 'bad' } {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const headers: Record<string, string> = op.contentType ? { 'content-type': op.contentType } : {};
  let path = op.path.replace(/\{[^}]+\}/g, () => enc(pick(['evt_01J8ZK3V6W9X2Y4Z5A6B7C8D9E', 'fct_x', '..', '%2e%2e', 'x'.repeat(500), '__proto__', '\u0000', ''])));
  const query = op.params.filter((p) => p.in === 'query');
  if (query.length && r() < 0.5) path += `?${query.map((p) => `${enc(p.name)}=${enc(queryValue(pick(HOSTILE_VALUES)))}`).join('&')}`;
  const auth = r() < 0.05 ? pick(['none', 'bad'] as const) : 'ok';
  if (!op.body) return { path, headers, auth };
  const base = res.sample(op.body) as Record<string, unknown>;
  const props = Object.keys((res.deref(op.body).properties ?? {}) as object);
  const kind = Math.floor(r() * 9);
  let body: string;
  if (op.contentType?.includes('ndjson')) {
    body = pick(['not json\n', '{"record":"event"}\n', `{"record":"event","content":${JSON.stringify(pick(HOSTILE_STRINGS))}}\n`, '{"record":"fact","text":1}\n', `${JSON.stringify(deep(200))}\n`, '\ud800\n']);
  } else if (kind === 0) body = pick(['', 'not json', '{', '[1,', '"str"', 'null', '{"a":1}{"b":2}']);
  else if (kind === 1) body = JSON.stringify({ ...base, [pick(props.length ? props : ['x'])]: pick(HOSTILE_VALUES) });
  else if (kind === 2 && props.length) {
    const { [pick(props)]: _drop, ...rest } = base;
    body = JSON.stringify(rest);
  } else if (kind === 3) body = JSON.stringify({ ...base, ['unknown_' + Math.floor(r() * 100)]: 1 });
  else if (kind === 4) body = JSON.stringify({ ...base, [pick(props.length ? props : ['x'])]: deep(200) });
  else if (kind === 5) body = JSON.stringify(base).replace(/^\{/, `{"__proto__":{"polluted":true},`).replace(',}', '}');
  else if (kind === 6) {
    headers['content-type'] = pick(['text/plain', 'application/xml', 'multipart/form-data; boundary=x']);
    body = JSON.stringify(base);
  } else if (kind === 7) body = JSON.stringify(pick(HOSTILE_VALUES));
  else body = JSON.stringify(Object.fromEntries(props.map((p) => [p, pick(HOSTILE_VALUES)])));
  return { path, body, headers, auth };
}

/**
 * Events + fact versions written by callers, in the tenant's backup. Facts the learner extracts in the
 * background (provenance other than `user`) are not a caller's write and are left out, as are the other kinds
 * (retrieval logs, episodes, the learner's checkpoint, audit records).
 */
async function recordCount(url: string, key: string): Promise<number> {
  const r = await call<string>(url, 'GET', '/v1/export', key);
  if (r.status !== 200) throw new Error(`export failed: ${r.status}`);
  return String(r.body)
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { kind: string; record?: { provenance?: { origin?: string } } })
    .filter((x) => x.kind === 'event' || (x.kind === 'fact' && (x.record?.provenance?.origin ?? 'user') === 'user')).length;
}

/** What an accepted write created, from its answer. */
function created(method: string, path: string, status: number, body: unknown): number {
  if (method !== 'POST' || status < 200 || status >= 300) return 0;
  const b = body as Record<string, unknown>;
  if (path === '/v1/events') return status === 201 ? 1 : 0;
  if (path === '/v1/events/batch') return ((b.events as { duplicate?: boolean }[]) ?? []).filter((e) => !e.duplicate).length;
  if (path === '/v1/facts') return status === 201 ? 1 : 0;
  if (path === '/v1/import') return Number(b.events ?? 0) + Number(b.facts ?? 0);
  return 0;
}

export async function runFuzz(o: { url: string; key: string; requests: number; seed?: number; concurrency?: number }): Promise<FuzzResult> {
  const docReply = await call<Schema>(o.url, 'GET', '/openapi.json');
  const doc = docReply.body;
  const ops = operations(doc);
  const res = resolver(doc);
  const r = rng(o.seed ?? 42);
  const result: FuzzResult = { requests: 0, byStatus: {}, serverErrors: [], expectedWrites: 0, observedWrites: 0 };
  const before = await recordCount(o.url, o.key);
  let next = 0;
  const worker = async () => {
    while (next < o.requests) {
      next++;
      const op = ops[Math.floor(r() * ops.length)]!;
      const m = mutate(op, r, res);
      const key = m.auth === 'ok' ? o.key : m.auth === 'bad' ? `egm_${'B'.repeat(43)}` : undefined;
      const reply = await call(o.url, op.method, m.path, key, m.body, m.headers);
      result.requests++;
      result.byStatus[reply.status] = (result.byStatus[reply.status] ?? 0) + 1;
      if (reply.status >= 500 || reply.status === 0) result.serverErrors.push({ method: op.method, path: m.path.slice(0, 120), status: reply.status, body: (reply.error ?? JSON.stringify(reply.body) ?? '').slice(0, 200) });
      result.expectedWrites += created(op.method, op.path, reply.status, reply.body);
    }
  };
  await Promise.all(Array.from({ length: o.concurrency ?? 4 }, worker));
  result.observedWrites = (await recordCount(o.url, o.key)) - before;
  return result;
}
