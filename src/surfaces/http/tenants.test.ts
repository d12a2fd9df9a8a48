/**
 * Tenant isolation over HTTP: tenant B, writing the same words, sessions, tags and fact keys as tenant A,
 * never sees anything of A's through any read route or filter, and A's ids are 404 for B (also for the
 * id-taking writes: redact and forget). Randomized with fast-check over routes, filters and A's writes.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './server.test-support.js';

let t: TestServer;
let keyA: string;
let keyB: string;

const WORDS = ['refund', 'deploy', 'rollback', 'invoice', 'password', 'latency', 'payments', 'annual', 'plan', 'cluster'];
const SESSIONS = ['s1', 's2', 's3'];
const USERS = ['u1', 'u2'];
const TAGS = ['policy', 'prod', 'billing'];
const KEYS = ['plan_limit', 'contact', 'region'];
const TYPES = ['message', 'tool_call', 'decision', 'observation', 'correction'] as const;

const textArb = fc.array(fc.constantFrom(...WORDS), { minLength: 2, maxLength: 6 }).map((w) => w.join(' '));
const scopeArb = fc.record({ session_id: fc.constantFrom(...SESSIONS), user_id: fc.constantFrom(...USERS) }, { requiredKeys: [] });

const eventArb = fc.record(
  {
    content: textArb,
    type: fc.constantFrom(...TYPES),
    tags: fc.uniqueArray(fc.constantFrom(...TAGS), { maxLength: 2 }),
    importance: fc.constantFrom(0.1, 0.5, 0.9),
    metadata: fc.record({ channel: fc.constantFrom('chat', 'email') }, { requiredKeys: [] }),
  },
  { requiredKeys: ['content'] },
).chain((e) => scopeArb.map((s) => ({ ...e, ...s })));

const factArb = fc.record(
  { text: textArb.map((t) => `${t}.`), key: fc.constantFrom(...KEYS), tags: fc.uniqueArray(fc.constantFrom(...TAGS), { maxLength: 2 }) },
  { requiredKeys: ['text'] },
).chain((f) => scopeArb.map((s) => ({ ...f, ...s })));

type Write = { kind: 'event'; body: object } | { kind: 'batch'; body: object[] } | { kind: 'fact'; body: object };
const writeArb: fc.Arbitrary<Write> = fc.oneof(
  eventArb.map((body) => ({ kind: 'event' as const, body })),
  fc.array(eventArb, { minLength: 1, maxLength: 4 }).map((body) => ({ kind: 'batch' as const, body })),
  factArb.map((body) => ({ kind: 'fact' as const, body })),
);

/** Filters in the JSON filter language, over the fields both tenants write. */
const leafFilterArb: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.constantFrom(...TAGS).map((tag) => ({ tags: [tag] })),
  fc.constantFrom(...SESSIONS).map((s) => ({ session_id: s })),
  fc.constantFrom(...USERS).map((u) => ({ user_id: { ne: u } })),
  fc.subarray([...TYPES], { minLength: 1 }).map((types) => ({ type: { in: types } })),
  fc.constantFrom(0, 0.4, 0.8).map((v) => ({ importance: { gte: v } })),
  fc.constantFrom('chat', 'email').map((c) => ({ channel: c })),
  fc.constant({ kind: 'fact' }),
);
const filterArb: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  { weight: 3, arbitrary: leafFilterArb },
  { weight: 1, arbitrary: fc.array(leafFilterArb, { minLength: 1, maxLength: 3 }).map((or) => ({ or })) },
  { weight: 1, arbitrary: leafFilterArb.map((f) => ({ not: f })) },
);

type Read = { method: 'GET' | 'POST'; path: string; body?: unknown };
const readArb: fc.Arbitrary<Read> = fc.oneof(
  fc
    .record(
      {
        session_id: fc.constantFrom(...SESSIONS),
        user_id: fc.constantFrom(...USERS),
        type: fc.constantFrom(...TYPES),
        tag: fc.constantFrom(...TAGS),
        last_n: fc.integer({ min: 1, max: 50 }),
        since_minutes: fc.constantFrom(1, 60),
      },
      { requiredKeys: [] },
    )
    .map((q) => ({ method: 'GET' as const, path: `/v1/events?${new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, String(v)])).toString()}` })),
  fc
    .record({ filter: filterArb, session_id: fc.constantFrom(...SESSIONS), tags: fc.constant(['prod']) }, { requiredKeys: [] })
    .map((body) => ({ method: 'POST' as const, path: '/v1/events/query', body })),
  fc
    .record(
      {
        query: textArb,
        k: fc.integer({ min: 1, max: 50 }),
        mode: fc.constantFrom('hybrid', 'vector', 'lexical'),
        kinds: fc.constantFrom(['event'], ['fact'], ['event', 'fact']),
        filter: filterArb,
        user_id: fc.constantFrom(...USERS),
      },
      { requiredKeys: ['query'] },
    )
    .map((body) => ({ method: 'POST' as const, path: '/v1/search', body })),
  fc
    .record({
      query: textArb,
      episodic_window: fc.record({ mode: fc.constant('last_n_events'), n: fc.integer({ min: 0, max: 20 }), filters: filterArb }, { requiredKeys: ['mode'] }),
      semantic_retrieval: fc.record({ top_k: fc.integer({ min: 1, max: 20 }), filters: filterArb }, { requiredKeys: [] }),
      scope: fc.record({ session_id: fc.constantFrom(...SESSIONS) }, { requiredKeys: [] }),
    })
    .map((body) => ({ method: 'POST' as const, path: '/v1/context', body })),
  fc.constantFrom(...KEYS).map((k) => ({ method: 'GET' as const, path: `/v1/facts/history?key=${k}` })),
  fc.constant({ method: 'GET' as const, path: '/v1/export' }),
  fc.constantFrom({ method: 'GET' as const, path: '/v1/retrievals?limit=500' }, { method: 'GET' as const, path: '/v1/audit?limit=1000' }),
);

/** Every id and lineage key of A's, collected from A's own responses. */
const aIds = new Set<string>();
const aOnlyKeys = new Set<string>();

function idsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string' && /^(evt|fct|eps|prc|exm)_[0-9A-Z]{26}$/.test(value)) out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => idsIn(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => idsIn(v, out));
  return out;
}

async function writeAsA(w: Write): Promise<void> {
  const res =
    w.kind === 'event'
      ? await t.call('POST', '/v1/events', { key: keyA, body: w.body })
      : w.kind === 'batch'
        ? await t.call('POST', '/v1/events/batch', { key: keyA, body: { events: w.body } })
        : await t.call('POST', '/v1/facts', { key: keyA, body: w.body });
  expect(res.status).toBeLessThan(300);
  for (const id of idsIn(res.body)) aIds.add(id);
}

beforeAll(async () => {
  t = await startTestServer({ options: { rateLimit: { perSecond: 0 } } }); // the property makes hundreds of calls; rate limits have their own test
  keyA = await t.keyFor('tenant-a');
  keyB = await t.keyFor('tenant-b');
  // B holds data of its own with the same vocabulary, so its reads return something, just never A's.
  for (const [i, w] of WORDS.entries()) {
    const res = await t.call('POST', '/v1/events', { key: keyB, body: { content: `${w} ${WORDS[(i + 3) % WORDS.length]!} note`, session_id: SESSIONS[i % 3], tags: [TAGS[i % 3]!] } });
    expect(res.status, res.text).toBe(201);
  }
  const fact = await t.call('POST', '/v1/facts', { key: keyB, body: { key: 'plan_limit', text: 'annual plan refund policy.' } });
  expect(fact.status, fact.text).toBe(201);
  // A key only A ever uses: its history must be 404 for B.
  await writeAsA({ kind: 'fact', body: { key: 'a_private_key', text: 'deploy rollback cluster.' } });
  aOnlyKeys.add('a_private_key');
  // Indexed before any test reads, so no test depends on the property having run (and flushed) first.
  await t.tm.memory.flush();
});
afterAll(async () => t.close());

function assertNothingOfA(status: number, body: unknown, text: string, what: string): void {
  expect(status, what).toBeLessThan(500);
  const leaked = idsIn(body).filter((id) => aIds.has(id));
  expect(leaked, `${what} leaked ${leaked.join(', ')}`).toEqual([]);
  expect(text, what).not.toContain('tenant-a');
}

describe('tenant isolation', () => {
  it('B never sees A’s data through any read route or filter, and A’s ids are 404 for B', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(writeArb, { minLength: 1, maxLength: 4 }), fc.array(readArb, { minLength: 3, maxLength: 8 }), async (writes, reads) => {
        for (const w of writes) await writeAsA(w);
        await t.tm.memory.flush();

        for (const r of reads) {
          const res = await t.call(r.method, r.path, { key: keyB, ...(r.body !== undefined ? { body: r.body } : {}) });
          assertNothingOfA(res.status, res.body, res.text, `${r.method} ${r.path} ${JSON.stringify(r.body ?? '')}`);
        }

        for (const id of aIds) {
          const path = id.startsWith('evt_') ? `/v1/events/${id}` : `/v1/facts/${id}`;
          expect((await t.call('GET', path, { key: keyB })).status, path).toBe(404);
        }
        for (const k of aOnlyKeys) expect((await t.call('GET', `/v1/facts/history?key=${k}`, { key: keyB })).status).toBe(404);
      }),
      { numRuns: 15 },
    );
  });

  it('the same reads as A do return A’s data (the property above is not vacuous)', async () => {
    const asA = await t.call('POST', '/v1/search', { key: keyA, body: { query: 'deploy rollback cluster', k: 50 } });
    expect(idsIn(asA.body).some((id) => aIds.has(id))).toBe(true);
    const exportA = await t.call('GET', '/v1/export', { key: keyA });
    expect(exportA.text).toContain('tenant-a');
    const exportB = await t.call('GET', '/v1/export', { key: keyB });
    expect(exportB.text.trim().split('\n').length).toBeGreaterThanOrEqual(WORDS.length);
  });

  it('B cannot redact or forget A’s records by id, nor name A as its tenant', async () => {
    // A's records of its own, not the property's: this test does not depend on how the property ran.
    const event = await t.call('POST', '/v1/events', { key: keyA, body: { content: 'invoice latency cluster note', session_id: 's2' } });
    const fact = await t.call('POST', '/v1/facts', { key: keyA, body: { key: 'a_redact_key', text: 'password payments plan.' } });
    expect([event.status, fact.status], `${event.text} ${fact.text}`).toEqual([201, 201]);
    const eventId = (event.body as { id: string }).id;
    const factId = (fact.body as { fact: { id: string } }).fact.id;
    expect((await t.call('POST', `/v1/events/${eventId}/redact`, { key: keyB, body: { reason: 'x' } })).status).toBe(404);
    const forgot = await t.call('POST', '/v1/forget', { key: keyB, body: { ids: [eventId, factId] } });
    expect(forgot.body).toMatchObject({ events: 0, facts: 0 });
    expect((await t.call('GET', `/v1/events/${eventId}`, { key: keyA })).status).toBe(200);
    expect((await t.call('GET', `/v1/facts/${factId}`, { key: keyA })).status).toBe(200);

    const claims = [
      t.call('POST', '/v1/events', { key: keyB, body: { content: 'x', tenant: 'tenant-a' } }),
      t.call('POST', '/v1/events/batch', { key: keyB, body: { events: [{ content: 'x' }, { content: 'y', tenant: 'tenant-a' }] } }),
      t.call('POST', '/v1/facts', { key: keyB, body: { text: 'x', tenant: 'tenant-a' } }),
      t.call('POST', '/v1/search', { key: keyB, body: { query: 'x', tenant: 'tenant-a' } }),
      t.call('POST', '/v1/context', { key: keyB, body: { query: 'x', tenant: 'tenant-a' } }),
      t.call('POST', '/v1/forget', { key: keyB, body: { scope: {}, tenant: 'tenant-a' } }),
      t.call('GET', '/v1/events?tenant=tenant-a', { key: keyB }),
      t.call('GET', '/v1/facts/history?key=plan_limit&tenant=tenant-a', { key: keyB }),
    ];
    for (const r of await Promise.all(claims)) expect(r.status).toBe(403);
    // Naming its own tenant is fine.
    expect((await t.call('POST', '/v1/events', { key: keyB, body: { content: 'own tenant named', tenant: 'tenant-b' } })).status).toBe(201);
  });
});
