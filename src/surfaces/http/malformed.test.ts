/**
 * 1,000 malformed requests over real HTTP: bad JSON, invalid UTF-8, wrong types, huge bodies (declared and
 * streamed), unknown fields, bad ids, wrong methods, wrong content types, garbage query strings, filter bombs,
 * deep nesting, missing/garbage/wrong-role keys. Every answer is a 4xx with a typed error body, the server
 * stays up, and not one row is written (every table counted before and after).
 */
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './server.test-support.js';

const BODY_LIMIT = 64 * 1024;
let t: TestServer;
let tenantKey: string;
let eventId: string;
let factId: string;

interface Req {
  method: string;
  path: string;
  auth: 'tenant' | 'admin' | 'none' | { header: string };
  headers?: Record<string, string>;
  body?: string | Uint8Array | { stream: number };
  what: string;
}

const VALID = {
  event: { content: 'a valid event', session_id: 's1' },
  fact: { text: 'A valid fact.' },
  search: { query: 'valid' },
  context: { query: 'valid' },
  forget: { ids: ['evt_01J8ZK3V6W9X2Y4Z5A6B7C8D9E'] },
  batch: { events: [{ content: 'one' }] },
  query: { session_id: 's1' },
  key: { tenant: 'newtenant', name: 'n' },
} as const;
type BodyRoute = keyof typeof VALID;

const ROUTE_PATH: Record<BodyRoute, string> = {
  event: '/v1/events',
  fact: '/v1/facts',
  search: '/v1/search',
  context: '/v1/context',
  forget: '/v1/forget',
  batch: '/v1/events/batch',
  query: '/v1/events/query',
  key: '/admin/keys',
};
const authFor = (r: BodyRoute): Req['auth'] => (r === 'key' ? 'admin' : 'tenant');
const routeArb = fc.constantFrom(...(Object.keys(VALID) as BodyRoute[]));
const json = (r: BodyRoute, body: unknown, what: string): Req => ({ method: 'POST', path: ROUTE_PATH[r], auth: authFor(r), body: JSON.stringify(body), what });

/** Per route, bodies that must fail validation. */
const WRONG: Record<BodyRoute, unknown[]> = {
  event: [
    { content: 123 }, { content: '' }, { content: '   ' }, { content: 'x', tags: 'a' }, { content: 'x', tags: [1] }, { content: 'x', importance: 2 },
    { content: 'x', importance: '0.5' }, { content: 'x', ts: {} }, { content: 'x', ts: 'yesterday-ish' }, { content: 'x', metadata: [] },
    { content: 'x', type: 'telepathy' }, { content: 'x', actor: 'robot' }, { content: 'x', session_id: '' }, { content: 'x', session_id: 5 },
    { content: 'x', id: 'evt_nope' }, { content: 'x', expiresAt: -1 }, { content: 'x', metadata: { '': 1 } }, { content: '\ud800 lone surrogate' },
    { content: 'nul \u0000 inside' }, { content: 'x'.repeat(40_000) }, { tool: '' }, null, [], 'just a string', 42, true, {},
  ],
  fact: [
    { text: 5 }, { text: ' ' }, { text: 'x', confidence: -1 }, { text: 'x', kind: 'rumour' }, { text: 'x', validFrom: '2025-02-01', validTo: '2025-01-01' },
    { text: 'x', pii: 'yes' }, { text: 'x', key: '' }, {}, null, [{ text: 'x' }],
  ],
  search: [
    { query: '' }, { query: 'x', k: 0 }, { query: 'x', k: 1.5 }, { query: 'x', k: 100_000 }, { query: 'x', mode: 'psychic' }, { query: 'x', kinds: [] },
    { query: 'x', kinds: ['memo'] }, { query: 'x', filter: { importance: { near: 1 } } }, { query: 'x', filter: { or: [] } }, { query: 'x', filter: { importance: {} } },
    { query: 'x', filter: nestNot(13) }, { query: 'x', filter: manyConditions(300) }, { query: 'x', filter: { 'bad key!': 1 } }, { query: 'x', filter: 'tags=a' },
    { query: 'x', rerank: 'yes' }, { k: 3 }, { query: 'x', conversation: { information_weight: 2 } }, { query: 'x', conversation: { question_discount: -1 } }, { query: 'x', conversation: 'off' },
  ],
  context: [
    { query: '' }, { query: 'x', episodic_window: { mode: 'bogus' } }, { query: 'x', episodic_window: { n: -1 } }, { query: 'x', merge_policy: { token_budget: 0 } },
    { query: 'x', semantic_retrieval: { top_k: 0 } }, { query: 'x', scope: { tenant: 'b' } }, { query: 'x', conflict_resolution: 'coin_flip' },
    { query: 'x', scoring: { weights: { relevance: -1 } } }, { query: 'x', semantic_retrieval: { filters: { ts: { gte: 'not a time' } } } },
    { query: 'x', episodic_window: { filters: nestNot(20) } }, { episodic_window: {} }, { query: 'x', semantic_retrieval: { conversation: { context_reach: 99 } } },
  ],
  forget: [{}, { ids: ['nope'] }, { ids: 'evt_01J8ZK3V6W9X2Y4Z5A6B7C8D9E' }, { scope: { bogus: 1 } }, { scope: 'all' }, { ids: [] }],
  batch: [{ events: [] }, { events: {} }, { events: [{ content: 1 }] }, { events: [{ content: 'ok' }, { type: 'nope', content: 'x' }] }, { events: [{ content: 'a', id: 'evt_01J8ZK3V6W9X2Y4Z5A6B7C8D9E' }, { content: 'b', id: 'evt_01J8ZK3V6W9X2Y4Z5A6B7C8D9E' }] }, {}],
  query: [{ last_n: 0 }, { limit: 'ten' }, { types: ['nope'] }, { since: {} }, { filter: { x: { between: [1, 2] } } }, { after_seq: -1 }, { since_minutes: 0 }],
  key: [{ tenant: 'bad tenant!', name: 'n' }, { tenant: '', name: 'n' }, { tenant: 'ok', name: '' }, { tenant: 'ok' }, { name: 'n' }, { tenant: 5, name: 'n' }, { tenant: 'x'.repeat(101), name: 'n' }],
};

function nestNot(depth: number): unknown {
  let f: unknown = { importance: { gte: 0.5 } };
  for (let i = 0; i < depth; i++) f = { not: f };
  return f;
}

function manyConditions(n: number): unknown {
  return { or: Array.from({ length: n }, (_, i) => ({ [`k${i}`]: i })) };
}

const badJsonArb: fc.Arbitrary<Req> = fc
  .tuple(
    routeArb,
    fc.oneof(
      fc.constantFrom('{', '{"content":', '{"content":"x"', "{'content':'x'}", '{"content":"x"}}', 'nul', '[1,2', '{"a":1,}', '\u0000', '{"content":"x" "tags":[]}', ''),
      fc.string({ minLength: 1, maxLength: 40 }).filter((s) => !isJsonObject(s)),
    ),
  )
  .map(([r, body]) => ({ method: 'POST', path: ROUTE_PATH[r], auth: authFor(r), body, what: `bad JSON to ${r}` }));

const invalidUtf8Arb: fc.Arbitrary<Req> = fc
  .tuple(routeArb, fc.constantFrom([0xff], [0xc3, 0x28], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80]))
  .map(([r, bad]) => {
    const field = r === 'fact' ? 'text' : r === 'key' ? 'name' : 'query';
    const prefix = new TextEncoder().encode(`{"${r === 'event' ? 'content' : field}":"ok `);
    const body = new Uint8Array([...prefix, ...bad, ...new TextEncoder().encode('"}')]);
    return { method: 'POST', path: ROUTE_PATH[r], auth: authFor(r), body, what: `invalid UTF-8 to ${r}` };
  });

const wrongTypeArb: fc.Arbitrary<Req> = routeArb.chain((r) => fc.constantFrom(...WRONG[r]).map((b) => json(r, b, `wrong types to ${r}: ${JSON.stringify(b)?.slice(0, 80)}`)));

const unknownFieldArb: fc.Arbitrary<Req> = fc
  .tuple(routeArb, fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,15}$/), fc.jsonValue({ maxDepth: 2 }))
  .filter(([r, k]) => !(k in VALID[r]) && !KNOWN_FIELDS.has(k))
  .map(([r, k, v]) => json(r, { ...VALID[r], [`x_${k}`]: v }, `unknown field x_${k} to ${r}`));

const KNOWN_FIELDS = new Set(['tenant', 'userId', 'agentId', 'sessionId', 'taskId']);

const hugeArb: fc.Arbitrary<Req> = fc
  .tuple(routeArb, fc.integer({ min: BODY_LIMIT + 1, max: BODY_LIMIT * 3 }), fc.boolean())
  .map(([r, size, streamed]) => ({
    method: 'POST',
    path: ROUTE_PATH[r],
    auth: authFor(r),
    body: streamed ? { stream: size } : JSON.stringify({ ...VALID[r], padding: 'p'.repeat(size) }),
    what: `${streamed ? 'streamed' : 'declared'} huge body (${size} bytes) to ${r}`,
  }));

const deepArb: fc.Arbitrary<Req> = fc
  .tuple(fc.constantFrom<BodyRoute>('event', 'fact', 'batch'), fc.integer({ min: 65, max: 20_000 }))
  .map(([r, depth]) => {
    const nested = '['.repeat(depth) + ']'.repeat(depth);
    const body = r === 'event' ? `{"content":"x","args":${nested}}` : r === 'fact' ? `{"text":"x","metadata":{"a":${nested}}}` : `{"events":[{"content":"x","result":${nested}}]}`;
    return { method: 'POST', path: ROUTE_PATH[r], auth: 'tenant', body, what: `nesting ${depth} deep to ${r}` };
  });

const badIdArb: fc.Arbitrary<Req> = fc
  .tuple(
    fc.constantFrom('/v1/events/', '/v1/facts/', 'redact', '/admin/keys/'),
    fc.oneof(
      fc.constantFrom('evt_', 'evt_0', `evt_${'a'.repeat(26)}`, `fct_${'0'.repeat(25)}`, `evt_${'0'.repeat(27)}`, '..%2F..%2Fetc%2Fpasswd', '%00', 'null', '-1', '%F0%9F%98%80', 'key_xyz'),
      fc.string({ minLength: 1, maxLength: 30 }).map((s) => encodeURIComponent(s)),
    ),
  )
  .map(([where, id]) =>
    where === 'redact'
      ? { method: 'POST', path: `/v1/events/${id}/redact`, auth: 'tenant' as const, body: JSON.stringify({ reason: 'x' }), what: `redact bad id ${id}` }
      : where === '/admin/keys/'
        ? { method: 'DELETE', path: `/admin/keys/${id}`, auth: 'admin' as const, what: `revoke bad id ${id}` }
        : { method: 'GET', path: `${where}${id}`, auth: 'tenant' as const, what: `get bad id ${where}${id}` },
  );

const wrongMethodArb: fc.Arbitrary<Req> = fc
  .constantFrom(
    ['PUT', '/v1/events'], ['PATCH', '/v1/events'], ['DELETE', '/v1/events'], ['GET', '/v1/search'], ['GET', '/v1/context'], ['PUT', '/v1/facts'],
    ['DELETE', '/v1/facts/fct_01J8ZK3V6W9X2Y4Z5A6B7C8D9E'], ['GET', '/v1/forget'], ['GET', '/v1/import'], ['POST', '/v1/export'], ['PUT', '/admin/keys'],
    ['GET', '/v1/events/batch'], ['POST', '/v1/me'], ['POST', '/healthz'], ['DELETE', '/openapi.json'], ['GET', '/v2/events'], ['GET', '/'],
  )
  .map(([method, path]) => ({ method: method!, path: path!, auth: path!.startsWith('/admin') ? 'admin' : 'tenant', ...(method === 'GET' || method === 'DELETE' ? {} : { body: '{}' }), what: `${method} ${path}` }));

const badKeyArb: fc.Arbitrary<Req> = fc
  .tuple(
    routeArb,
    fc.oneof(
      fc.constantFrom('none', 'Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', 'Token egm_abc', 'bearer egm_', `Bearer egm_${'A'.repeat(43)}`, `Bearer egm_${'A'.repeat(42)}`, 'Bearer egm_ egm_'),
      fc.string({ maxLength: 60 }).filter((s) => /^[\x21-\x7e ]*$/.test(s)).map((s) => `Bearer ${s}`),
      fc.constant('wrong-role'),
    ),
  )
  .map(([r, header]) => ({
    method: 'POST',
    path: ROUTE_PATH[r],
    // A valid body: only the key is wrong, and nothing may be written.
    auth: header === 'none' ? 'none' : header === 'wrong-role' ? (r === 'key' ? 'tenant' : 'admin') : { header },
    body: JSON.stringify(VALID[r]),
    what: `key "${header}" to ${r}`,
  }));

const wrongContentTypeArb: fc.Arbitrary<Req> = fc
  .tuple(routeArb, fc.constantFrom('text/plain', 'application/xml', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', 'none'))
  .map(([r, type]) => ({ ...json(r, VALID[r], `content-type ${type} to ${r}`), headers: type === 'none' ? { 'content-type': '' } : { 'content-type': type } }));

const badQueryArb: fc.Arbitrary<Req> = fc
  .constantFrom(
    'limit=-1', 'limit=abc', 'limit=1e3', 'last_n=0', 'last_n=99999999', 'type=bogus', 'type=message&type=bogus', 'since=garbage', 'until=tomorrow', 'since_minutes=0',
    'after_seq=-5', 'unknown=1', 'tenant=', 'session_id=', 'limit=', 'tag=' + 'x'.repeat(101), 'user_id=' + 'u'.repeat(201),
  )
  .map((q) => ({ method: 'GET', path: `/v1/events?${q}`, auth: 'tenant' as const, what: `query ${q.slice(0, 40)}` }));

const badImportArb: fc.Arbitrary<Req> = fc
  .constantFrom(
    ['application/x-ndjson', '{"record":"event","content":"ok"}\n{nope'],
    ['application/x-ndjson', '{"record":"event","type":"telepathy","content":"x"}'],
    ['application/x-ndjson', '{"record":"fact","text":""}'],
    ['application/x-ndjson', '[1,2,3]'],
    ['application/json', '{"record":"event","content":"ok"}'],
    ['application/x-ndjson', '{"record":"event","content":"ok","tenant":"someone-else"}'],
  )
  .map(([type, body]) => ({ method: 'POST', path: '/v1/import', auth: 'tenant' as const, headers: { 'content-type': type! }, body: body!, what: `import ${body!.slice(0, 40)}` }));

const malformedArb: fc.Arbitrary<Req> = fc.oneof(
  badJsonArb, invalidUtf8Arb, wrongTypeArb, unknownFieldArb, hugeArb, deepArb, badIdArb, wrongMethodArb, badKeyArb, wrongContentTypeArb, badQueryArb, badImportArb,
);

function isJsonObject(s: string): boolean {
  try {
    const v: unknown = JSON.parse(s);
    return typeof v === 'object' && v !== null;
  } catch {
    return false;
  }
}

async function send(r: Req): Promise<{ status: number; body: string }> {
  const headers: Record<string, string> = {};
  if (r.auth === 'tenant') headers.authorization = `Bearer ${tenantKey}`;
  else if (r.auth === 'admin') headers.authorization = `Bearer ${t.adminKey}`;
  else if (r.auth !== 'none') headers.authorization = r.auth.header;
  if (r.body !== undefined) headers['content-type'] = 'application/json';
  Object.assign(headers, r.headers);
  if (headers['content-type'] === '') delete headers['content-type'];
  let body: RequestInit['body'];
  let duplex: { duplex: 'half' } | object = {};
  if (r.body instanceof Uint8Array) body = r.body;
  else if (typeof r.body === 'string') body = r.body;
  else if (r.body) {
    // No content-length: the limit must hold while streaming.
    const total = r.body.stream;
    let sent = 0;
    body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const n = Math.min(16 * 1024, total - sent);
        if (n <= 0) return controller.close();
        controller.enqueue(new TextEncoder().encode('x'.repeat(n)));
        sent += n;
      },
    });
    duplex = { duplex: 'half' };
  }
  const res = await fetch(t.url + r.path, { method: r.method, headers, ...(body !== undefined ? { body } : {}), ...duplex });
  return { status: res.status, body: await res.text() };
}

function countRows(path: string): Record<string, number> {
  const db = new Database(path, { readonly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[];
    return Object.fromEntries(tables.map((name) => [name, db.prepare(`SELECT count(*) FROM "${name}"`).pluck().get() as number]));
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  t = await startTestServer({ config: { indexing: { background: false } }, options: { bodyLimitBytes: BODY_LIMIT, rateLimit: { perSecond: 0 } } });
  tenantKey = await t.keyFor('victim');
  eventId = ((await t.call('POST', '/v1/events', { key: tenantKey, body: { content: 'existing event' } })).body as { id: string }).id;
  factId = ((await t.call('POST', '/v1/facts', { key: tenantKey, body: { text: 'Existing fact.' } })).body as { fact: { id: string } }).fact.id;
});
afterAll(async () => t.close());

describe('malformed requests', () => {
  it('1,000 malformed requests: every answer a typed 4xx, the server stays up, nothing is written', async () => {
    const before = countRows(t.tm.path);
    const statuses = new Map<number, number>();
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(malformedArb, async (r) => {
        const res = await send(r);
        sent++;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        expect(res.status, `${r.what}: ${res.body.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${r.what}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
        const parsed = JSON.parse(res.body) as { error: { code: string; issues: unknown[] } };
        expect(parsed.error.code, r.what).toMatch(/^[A-Z_]+$/);
        if (res.status === 400) expect(parsed.error.issues.length, r.what).toBeGreaterThan(0);
      }),
      { numRuns: 1000, seed: 20_251_122 },
    );
    expect(sent).toBe(1000);
    expect((await t.call('GET', '/healthz')).status).toBe(200);
    expect(countRows(t.tm.path)).toEqual(before);
    // The records written before are untouched and still served.
    expect((await t.call('GET', `/v1/events/${eventId}`, { key: tenantKey })).status).toBe(200);
    expect((await t.call('GET', `/v1/facts/${factId}`, { key: tenantKey })).status).toBe(200);
    // Every family of refusal was exercised.
    for (const s of [400, 401, 403, 404, 413]) expect(statuses.get(s) ?? 0, `status ${s}`).toBeGreaterThan(0);
  });
});
