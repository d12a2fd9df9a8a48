/** Every route over real HTTP on loopback, on a SQLite file with the real embedder. */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestMemory } from '../../../testing/memory-fixture.js';
import { createApp } from './app.js';
import { BacklogGauge } from './routes/health.js';
import { parseServerOptions } from './options.js';
import { startTestServer, type TestServer } from './server.test-support.js';

type Json = Record<string, unknown>;
let t: TestServer;
let key: string;

beforeAll(async () => {
  t = await startTestServer();
  key = await t.keyFor('acme');
});
afterAll(async () => t.close());

const post = (path: string, body: unknown) => t.call('POST', path, { key, body });
const get = (path: string) => t.call('GET', path, { key });

describe('events', () => {
  it('logs one event (seed 000 snake_case accepted), answers 201 with the stored record, 200 for a duplicate', async () => {
    const body = { task_id: 'deploy_1', ts: '2025-09-20T18:22:10Z', type: 'tool_call', tool: 'kubectl', args: { ns: 'payments' }, result: { ok: true }, source: 'ci' };
    const first = await post('/v1/events', body);
    expect(first.status).toBe(201);
    const e = first.body as Json;
    expect(e).toMatchObject({ tenant: 'acme', task_id: 'deploy_1', type: 'tool_call', ts: '2025-09-20T18:22:10.000Z', duplicate: false });
    expect(e.id).toMatch(/^evt_/);
    const again = await post('/v1/events', body);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: e.id, duplicate: true });
  });

  it('logs a batch atomically: one bad item rejects all, naming its path', async () => {
    const bad = await post('/v1/events/batch', { events: [{ content: 'fine', session_id: 'b1' }, { content: 'x', type: 'telepathy' }] });
    expect(bad.status).toBe(400);
    expect((bad.body as { error: { issues: { path: string }[] } }).error.issues.map((i) => i.path)).toContain('events.1.type');
    expect((await get('/v1/events?session_id=b1')).body).toEqual({ events: [] });

    const ok = await post('/v1/events/batch', {
      events: [
        { content: 'user asks about refunds', session_id: 'b1', tags: ['billing'] },
        { content: 'agent explains the policy', session_id: 'b1', type: 'decision', metadata: { channel: 'chat' } },
      ],
    });
    expect(ok.status).toBe(201);
    expect((ok.body as { events: Json[] }).events).toHaveLength(2);
  });

  it('lists with query filters and queries with the filter language', async () => {
    const byTag = await get('/v1/events?session_id=b1&tag=billing');
    expect((byTag.body as { events: Json[] }).events.map((e) => e.content)).toEqual(['user asks about refunds']);
    const byType = await get('/v1/events?session_id=b1&type=decision&type=message');
    expect((byType.body as { events: Json[] }).events).toHaveLength(2);
    const last = await get('/v1/events?session_id=b1&last_n=1');
    expect((last.body as { events: Json[] }).events.map((e) => e.content)).toEqual(['agent explains the policy']);
    const future = await get(`/v1/events?session_id=b1&since=${encodeURIComponent('2999-01-01T00:00:00Z')}`);
    expect((future.body as { events: Json[] }).events).toEqual([]);

    const q = await post('/v1/events/query', { session_id: 'b1', filter: { channel: 'chat' } });
    expect(q.status).toBe(200);
    expect((q.body as { events: Json[] }).events.map((e) => e.type)).toEqual(['decision']);
    const badFilter = await post('/v1/events/query', { filter: { importance: { near: 1 } } });
    expect(badFilter.status).toBe(400);
    expect(JSON.stringify(badFilter.body)).toContain('filter.importance.near');
  });

  it('gets by id, 404 for an unknown id, 400 for a malformed one; redacts', async () => {
    const e = (await post('/v1/events', { content: 'my card is 4111 1111 1111 1111, please charge it', session_id: 'r1' })).body as Json;
    const got = await get(`/v1/events/${e.id as string}`);
    expect(got.status).toBe(200);
    expect((got.body as Json).content).not.toContain('4111 1111 1111 1111');
    expect((await get('/v1/events/evt_01J8ZK3V6W9X2Y4Z5A6B7C8D9E')).status).toBe(404);
    expect((await get('/v1/events/fct_01J8ZK3V6W9X2Y4Z5A6B7C8D9E')).status).toBe(400);

    const red = await post(`/v1/events/${e.id as string}/redact`, { reason: 'user request' });
    expect(red.status).toBe(200);
    const after = (await get(`/v1/events/${e.id as string}`)).body as Json;
    expect(after.content).not.toContain('charge');
    expect((await post('/v1/events/evt_01J8ZK3V6W9X2Y4Z5A6B7C8D9E/redact', { reason: 'x' })).status).toBe(404);
  });
});

describe('facts', () => {
  it('remembers, versions by key, gets by id and lists the history oldest first', async () => {
    const v1 = await post('/v1/facts', { key: 'plan_limit', text: 'The Pro plan allows 5 seats.', source: 'pricing.md' });
    expect(v1.status).toBe(201);
    expect(v1.body).toMatchObject({ status: 'created', fact: { version: 1, key: 'plan_limit' } });
    const dup = await post('/v1/facts', { key: 'plan_limit', text: 'The Pro plan allows 5 seats.', source: 'pricing.md' });
    expect(dup.status).toBe(200);
    expect(dup.body).toMatchObject({ status: 'duplicate' });
    const v2 = await post('/v1/facts', { key: 'plan_limit', text: 'The Pro plan allows 10 seats.', source: 'pricing.md' });
    expect(v2.body).toMatchObject({ status: 'versioned', fact: { version: 2 } });

    const id = ((v2.body as Json).fact as Json).id as string;
    const got = await get(`/v1/facts/${id}`);
    expect(got.body).toMatchObject({ id, text: 'The Pro plan allows 10 seats.' });
    const history = await get('/v1/facts/history?key=plan_limit');
    const versions = (history.body as { versions: Json[] }).versions;
    expect(versions.map((v) => v.version)).toEqual([1, 2]);
    expect(versions[0]!.expired_at).toEqual(expect.any(String));
    expect((await get('/v1/facts/history?key=nope')).status).toBe(404);
    expect((await get('/v1/facts/fct_01J8ZK3V6W9X2Y4Z5A6B7C8D9E')).status).toBe(404);
  });
});

describe('retrieval', () => {
  it('searches by meaning and builds a seed-000 context within its budget', async () => {
    await post('/v1/facts', { text: 'Annual plans can be refunded in full within 30 days of purchase.', source: 'billing.md', tags: ['policy'] });
    await t.tm.memory.flush();
    const s = await post('/v1/search', { query: 'money back for a yearly subscription', k: 3, kinds: ['fact'] });
    expect(s.status).toBe(200);
    const hits = (s.body as { hits: { doc: Json; scores: Json }[] }).hits;
    expect(hits[0]!.doc.source).toBe('billing.md');
    expect(hits[0]!.scores.vector).toEqual(expect.any(Number));
    expect(hits[0]!.doc).not.toHaveProperty('docId');

    const ctx = await post('/v1/context', {
      query: 'can the customer get a refund on the annual plan?',
      episodic_window: { mode: 'last_n_events', n: 2, filters: { session_id: 'b1' } },
      semantic_retrieval: { top_k: 3, filters: { tags: ['policy'] } },
      merge_policy: { token_budget: 200 },
    });
    expect(ctx.status).toBe(200);
    const c = ctx.body as { tokens: { used: number; budget: number }; items: { section: string; text: string }[]; text: string };
    expect(c.tokens.budget).toBe(200);
    expect(c.tokens.used).toBeLessThanOrEqual(200);
    expect(c.items.map((i) => i.section)).toEqual(expect.arrayContaining(['episodic_recent']));
    expect(c.text).toContain('refunded in full');

    const bad = await post('/v1/context', { query: 'x', semantic_retrieval: { top_k: 0 } });
    expect(bad.status).toBe(400);
    expect((bad.body as { error: { issues: { path: string }[] } }).error.issues[0]!.path).toBe('semantic_retrieval.top_k');
  });
});

describe('forget, export and import', () => {
  it('exports JSONL, forgets a scope, and imports the export back', async () => {
    const k = await t.keyFor('porter');
    const p = (path: string, body: unknown) => t.call('POST', path, { key: k, body });
    await p('/v1/events', { content: 'first note', session_id: 'x1' });
    await p('/v1/events', { content: 'second note', session_id: 'x1' });
    await p('/v1/facts', { text: 'Porter prefers email.', key: 'contact' });

    const exported = await t.call('GET', '/v1/export', { key: k });
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toContain('application/x-ndjson');
    const lines = exported.text.trim().split('\n').map((l) => JSON.parse(l) as Json);
    expect(lines[0]).toMatchObject({ kind: 'header', format: 'engram-backup', tenant: 'porter' });
    expect(lines.filter((l) => l.kind === 'event' || l.kind === 'fact').map((l) => l.kind)).toEqual(['event', 'event', 'fact']);
    expect(lines[lines.length - 1]).toMatchObject({ kind: 'end', counts: { event: 2, fact: 1 } });

    const forgot = await p('/v1/forget', { scope: {} });
    expect(forgot.body).toMatchObject({ events: 2, facts: 1 });
    expect(((await t.call('GET', '/v1/events', { key: k })).body as { events: unknown[] }).events).toEqual([]);

    const imported = await t.call('POST', '/v1/import', { key: k, body: exported.text, headers: { 'content-type': 'application/x-ndjson' } });
    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({ events: 2, facts: 1, records: { event: { written: 2 }, fact: { written: 1 } } });
    const again = await t.call('POST', '/v1/import', { key: k, body: exported.text, headers: { 'content-type': 'application/x-ndjson' } });
    expect(again.body).toMatchObject({ events: 0, facts: 0, records: { event: { written: 0, existing: 2 }, fact: { written: 0, existing: 1 } } });
    // The same ids, seqs and times as before the forget.
    const restored = (await t.call('GET', '/v1/export', { key: k })).text.trim().split('\n').slice(1, -1);
    const recordsOf = (text: string[]) => text.map((l) => JSON.parse(l) as Json).filter((l) => l.kind === 'event' || l.kind === 'fact');
    expect(recordsOf(restored)).toEqual(recordsOf(exported.text.trim().split('\n')));

    // Another tenant may not import lines that name this one.
    const other = await t.keyFor('other-importer');
    const refused = await t.call('POST', '/v1/import', { key: other, body: exported.text, headers: { 'content-type': 'application/x-ndjson' } });
    expect(refused.status).toBe(403);
    const broken = await t.call('POST', '/v1/import', { key: k, body: '{"record":"event","content":"ok"}\n{nope', headers: { 'content-type': 'application/x-ndjson' } });
    expect(broken.status).toBe(400);
    expect(JSON.stringify(broken.body)).toContain('line 2');
    // The body is streamed to disk, checked as UTF-8 on the way (chunked, no length given).
    const bytes = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode('{"record":"event","content":"ok"}\n'));
        c.enqueue(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d, 0x0a]));
        c.close();
      },
    });
    const notUtf8 = await fetch(`${t.url}/v1/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${k}`, 'content-type': 'application/x-ndjson' },
      body: bytes,
      duplex: 'half',
    } as RequestInit);
    expect(notUtf8.status).toBe(400);
    expect(JSON.stringify(await notUtf8.json())).toContain('UTF-8');
  });

  it('forgets by id', async () => {
    const e = (await post('/v1/events', { content: 'ephemeral', session_id: 'f1' })).body as Json;
    const r = await post('/v1/forget', { ids: [e.id] });
    expect(r.body).toMatchObject({ events: 1 });
    expect((await get(`/v1/events/${e.id as string}`)).status).toBe(404);
    expect((await post('/v1/forget', {})).status).toBe(400);
  });
});

describe('service endpoints and logs', () => {
  it('answers health, readiness and whoami; echoes a request id', async () => {
    expect((await t.call('GET', '/healthz')).body).toEqual({ status: 'ok' });
    expect((await t.call('GET', '/readyz')).body).toMatchObject({ status: 'ready', storage: 'ok', embedder: 'ok' });
    const me = await t.call('GET', '/v1/me', { key, headers: { 'x-request-id': 'trace-123' } });
    expect(me.body).toMatchObject({ tenant: 'acme' });
    expect(me.headers.get('x-request-id')).toBe('trace-123');
    expect((await t.call('GET', '/healthz')).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reports 503 draining on /readyz once shutdown has begun (new connections are refused by then, so in-process)', async () => {
    const app = createApp({ memory: t.tm.memory, options: parseServerOptions({}), logger: pino({ level: 'silent' }), isDraining: () => true });
    const res = await app.request('/readyz');
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: 'draining', storage: 'ok', embedder: 'ok' });
  });

  it('reports the true embedding backlog on /readyz, past ten thousand', async () => {
    const tm = await openTestMemory({ indexing: { background: false }, learn: { engine: { background: false } } });
    try {
      const app = createApp({ memory: tm.memory, options: parseServerOptions({}), logger: pino({ level: 'silent' }), isDraining: () => false });
      await tm.memory.logEvent({ type: 'note', content: 'one waiting text' });
      expect(await (await app.request('/readyz')).json()).toMatchObject({ status: 'ready', embedding_backlog: 1 });
      for (let i = 0; i < 12; i++) {
        await tm.memory.logEvents(Array.from({ length: 1000 }, (_, j) => ({ type: 'note' as const, content: `waiting text ${i} ${j}` })));
      }
      expect(await tm.memory.embeddingBacklog()).toBe(12_001);
      await expect(tm.memory.embeddingBacklog({ upTo: 0 })).rejects.toMatchObject({ code: 'VALIDATION' });
      await new Promise((r) => setTimeout(r, 50)); // past the reuse window of the first (tiny) count
      expect(await (await app.request('/readyz')).json()).toMatchObject({ status: 'ready', embedding_backlog: 12_001 });
    } finally {
      await tm.cleanup();
    }
  });

  it('reuses a backlog count for twenty times its cost and shares one count in flight', async () => {
    let clock = 0;
    let counts = 0;
    const gauge = new BacklogGauge(async () => {
      counts++;
      clock += 100; // the count "costs" 100 ms
      return 7 * counts;
    }, () => clock);
    const [a, b] = await Promise.all([gauge.read(), gauge.read()]);
    expect([a.count, b.count, counts]).toEqual([7, 7, 1]);
    clock += 1_500;
    expect(await gauge.read()).toEqual({ count: 7, ageMs: 1_500 });
    clock += 600; // 2,100 ms after the count: past 20 × 100 ms
    expect((await gauge.read()).count).toBe(14);
  });

  it('logs one line per request with id, method, route, status and duration, and never contents, queries or keys', async () => {
    const secret = 'zebra marmalade quartz';
    await post('/v1/events', { content: `${secret} in the log?`, session_id: 'log1' });
    await post('/v1/search', { query: `${secret} query` });
    await t.call('GET', `/v1/facts/history?key=${encodeURIComponent('zebra-key')}`, { key });
    const lines = t.logs.map((l) => JSON.parse(l) as Json);
    const requests = lines.filter((l) => l.msg === 'request');
    expect(requests.length).toBeGreaterThan(10);
    for (const r of requests) expect(Object.keys(r)).toEqual(expect.arrayContaining(['reqId', 'method', 'route', 'status', 'ms']));
    expect(requests.some((r) => r.route === '/v1/events/:id' && r.status === 404)).toBe(true);
    const all = t.logs.join('\n');
    expect(all).not.toContain('zebra');
    expect(all).not.toContain(key);
    expect(all).not.toContain(key.slice(4, 20));
  });
});

describe('methods a path does not serve', () => {
  it('answer 405 with Allow, TRACE /mcp included, and unknown paths 404', async () => {
    const { request } = await import('node:http');
    const raw = (method: string, path: string) =>
      new Promise<{ status: number; allow: string | undefined }>((resolve, reject) => {
        const u = new URL(t.url);
        const req = request({ host: u.hostname, port: u.port, path, method, headers: { authorization: `Bearer ${key}` } }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode!, allow: res.headers.allow as string | undefined }));
        });
        req.on('error', reject);
        req.end();
      });
    expect(await raw('TRACE', '/mcp')).toEqual({ status: 405, allow: 'DELETE, GET, HEAD, POST' });
    expect(await raw('PUT', '/v1/events')).toEqual({ status: 405, allow: 'GET, HEAD, POST' });
    expect(await raw('DELETE', '/v1/events/evt_01J8ZK3V6W9X2Y4Z5A6B7C8D9E')).toEqual({ status: 405, allow: 'GET, HEAD' });
    expect(await raw('GET', '/v1/search')).toEqual({ status: 405, allow: 'POST' });
    expect((await raw('GET', '/v1/nothing-here')).status).toBe(404);
  });
});
