/**
 * GET /v1/retrievals and GET /v1/audit against a real server: newest first, paged by cursor without gaps or
 * repeats, outcomes and score breakdowns attached, confined to the key's tenant; and the typed client's
 * calls for both. Also getContext's `explain` over HTTP (dropped_items, snake_case).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngramClient } from '../../../client/index.js';
import { startTestServer, type TestServer } from '../server.test-support.js';

interface RetrievalPage {
  retrievals: { id: string; query: string; item_ids: string[]; items?: { id: string; section: string; scores: { final: number } }[]; outcomes: { type: string; outcome?: string; text: string }[] }[];
  next_cursor: string | null;
}
interface AuditPage {
  audit: { id: string; action: string; target_ids: string[]; details: Record<string, unknown>; at: string }[];
  next_cursor: string | null;
}

describe('GET /v1/retrievals and GET /v1/audit', () => {
  let t: TestServer;
  let a: string;
  let b: string;
  const retrievals: string[] = [];
  const events: string[] = [];

  beforeAll(async () => {
    t = await startTestServer();
    a = await t.keyFor('acme');
    b = await t.keyFor('globex');
    const logged = await t.call('POST', '/v1/events/batch', {
      key: a,
      body: {
        events: ['The billing deploy uses blue-green', 'The health check path is /health', 'Rollback is a router switch'].map((content) => ({ user_id: 'alice', session_id: 's1', content })),
      },
    });
    events.push(...(logged.body as { events: { id: string }[] }).events.map((e) => e.id));
    for (const query of ['how is billing deployed?', 'where is the health check?', 'how do I roll back?']) {
      const r = await t.call('POST', '/v1/context', { key: a, body: { query, scope: { user_id: 'alice' } } });
      retrievals.push((r.body as { retrieval_id: string }).retrieval_id);
    }
    const o = await t.call('POST', '/v1/outcomes', { key: a, body: { retrieval_id: retrievals[0], outcome: 'FAILURE', details: 'wrong stack', correction: 'billing moved to canary' } });
    expect(o.status, o.text).toBe(201);
    await t.call('POST', '/v1/context', { key: b, body: { query: 'globex secret plans' } });
    for (const [i, id] of events.entries()) await t.call('POST', `/v1/events/${id}/redact`, { key: a, body: { reason: `reason ${i}` } });
    await t.call('POST', '/v1/forget', { key: a, body: { scope: { user_id: 'nobody' } } });
  });
  afterAll(() => t.close());

  it('lists retrievals newest first with their items, score breakdowns and outcomes, paged by cursor', async () => {
    const first = (await t.call('GET', '/v1/retrievals?limit=2', { key: a })).body as RetrievalPage;
    expect(first.retrievals.map((r) => r.id)).toEqual([retrievals[2], retrievals[1]]);
    expect(first.next_cursor).toBe(retrievals[1]);
    const r2 = first.retrievals[0]!;
    expect(r2.items!.map((i) => i.id)).toEqual(r2.item_ids);
    expect(r2.items!.length).toBeGreaterThan(0);
    expect(r2.items!.every((i) => typeof i.scores.final === 'number' && i.section.length > 0)).toBe(true);
    expect(r2.outcomes).toEqual([]);
    const second = (await t.call('GET', `/v1/retrievals?limit=2&cursor=${first.next_cursor}`, { key: a })).body as RetrievalPage;
    expect(second.retrievals.map((r) => r.id)).toEqual([retrievals[0]]);
    expect(second.next_cursor).toBeNull();
    const outcomes = second.retrievals[0]!.outcomes;
    expect(outcomes.map((o) => o.type)).toEqual(['outcome', 'correction']);
    expect(outcomes[0]).toMatchObject({ outcome: 'FAILURE' });
    expect(outcomes[0]!.text).toContain('wrong stack');
    expect(outcomes[1]!.text).toContain('billing moved to canary');
  });

  it('filters retrievals by time and rejects a cursor it did not hand out', async () => {
    const future = (await t.call('GET', `/v1/retrievals?since=${Date.now() + 60_000}`, { key: a })).body as RetrievalPage;
    expect(future.retrievals).toEqual([]);
    expect((await t.call('GET', '/v1/retrievals?cursor=nope', { key: a })).status).toBe(400);
    expect((await t.call('GET', '/v1/retrievals?limit=0', { key: a })).status).toBe(400);
    expect((await t.call('GET', '/v1/retrievals?sinceMs=1', { key: a })).status).toBe(400);
  });

  it('lists the audit log newest first, paged by cursor, with reasons and counts but no content', async () => {
    const all = (await t.call('GET', '/v1/audit', { key: a })).body as AuditPage;
    expect(all.audit.map((x) => x.action)).toEqual(['forget', 'redact', 'redact', 'redact']);
    expect(all.audit.slice(1).map((x) => x.target_ids[0])).toEqual([events[2], events[1], events[0]]);
    expect(all.audit[1]!.details).toMatchObject({ reason: 'reason 2' });
    expect(JSON.stringify(all)).not.toContain('blue-green');
    expect(all.next_cursor).toBeNull();
    const p1 = (await t.call('GET', '/v1/audit?limit=3', { key: a })).body as AuditPage;
    const p2 = (await t.call('GET', `/v1/audit?limit=3&cursor=${encodeURIComponent(p1.next_cursor!)}`, { key: a })).body as AuditPage;
    expect([...p1.audit, ...p2.audit].map((x) => x.id)).toEqual(all.audit.map((x) => x.id));
    expect(p2.next_cursor).toBeNull();
    expect((await t.call('GET', '/v1/audit?cursor=123~evt_x', { key: a })).status).toBe(400);
  });

  it("never shows another tenant's retrievals or audit records", async () => {
    const rb = (await t.call('GET', '/v1/retrievals', { key: b })).body as RetrievalPage;
    expect(rb.retrievals.map((r) => r.query)).toEqual(['globex secret plans']);
    expect(((await t.call('GET', '/v1/audit', { key: b })).body as AuditPage).audit).toEqual([]);
    // A cursor from tenant A's pages gives tenant B nothing of A's.
    const afterA = (await t.call('GET', `/v1/retrievals?cursor=${retrievals[2]}`, { key: b })).body as RetrievalPage;
    expect(afterA.retrievals.map((r) => r.query)).not.toContain('how is billing deployed?');
    expect((await t.call('GET', '/v1/audit?tenant=acme', { key: b })).status).toBe(403);
  });

  it('is in the typed client', async () => {
    const client = createEngramClient({ baseUrl: t.url, apiKey: a });
    const page = await client.listRetrievals({ limit: 1 });
    expect(page.retrievals[0]!.id).toBe(retrievals[2]);
    const audit = await client.listAudit({ limit: 1 });
    expect(audit.audit[0]!.action).toBe('forget');
  });

  it('says a weak match as getContext does (weak: true), in the list and the single record', async () => {
    const k = await t.keyFor('initech');
    for (const text of ['Annual plans are refunded in full within 30 days.', 'Support hours are 9:00 to 17:00 CET on weekdays.', 'Node 22 requires OpenSSL 3 and drops some legacy crypto flags.']) {
      await t.call('POST', '/v1/facts', { key: k, body: { text } });
    }
    await t.tm.memory.flush();
    const ctx = (await t.call('POST', '/v1/context', { key: k, body: { query: 'quantum chromodynamics lattice gauge', episodic_window: { mode: 'none' } } })).body as { retrieval_id: string; items: { scores: { weak?: boolean } }[] };
    expect(ctx.items.length).toBeGreaterThan(0);
    expect(ctx.items.every((i) => i.scores.weak === true)).toBe(true);
    const one = (await t.call('GET', `/v1/retrievals/${ctx.retrieval_id}`, { key: k })).body as { items: { scores: Record<string, unknown> }[] };
    const listed = ((await t.call('GET', '/v1/retrievals?limit=1', { key: k })).body as RetrievalPage).retrievals[0]!;
    for (const items of [one.items, listed.items!]) {
      expect(items).toHaveLength(ctx.items.length);
      for (const i of items) expect((i.scores as { weak?: unknown }).weak).toBe(true);
    }
  });

  it('reports dropped candidates with their reason when explain is true, in snake_case', async () => {
    await t.call('POST', '/v1/events/batch', {
      key: a,
      body: { events: Array.from({ length: 12 }, (_, i) => ({ user_id: 'carol', content: `Deploy note ${i}: the canary stage of the billing deploy takes ${i + 2} minutes` })) },
    });
    const body = { query: 'how long does the billing canary take?', scope: { user_id: 'carol' }, episodic_window: { mode: 'none' }, semantic_retrieval: { top_k: 3 } };
    const p = await t.call('POST', '/v1/context', { key: a, body });
    expect(p.status, p.text).toBe(200);
    const plain = p.body as Record<string, unknown>;
    expect(plain).not.toHaveProperty('dropped_items');
    const r = await t.call('POST', '/v1/context', { key: a, body: { ...body, explain: true } });
    expect(r.status, r.text).toBe(200);
    const res = r.body as { items: { id: string }[]; dropped_items: { id: string; kind: string; text: string; reason: string; scores: { final: number } }[] };
    expect(res.items.length).toBeLessThanOrEqual(3);
    expect(res.dropped_items.length).toBeGreaterThan(0);
    expect(res.dropped_items.every((d) => ['budget', 'dedupe', 'conflict', 'mmr', 'floor', 'validity', 'situation', 'refuted', 'superseded', 'standout'].includes(d.reason))).toBe(true);
    expect(res.dropped_items.some((d) => d.reason === 'mmr')).toBe(true);
    const shown = new Set(res.items.map((i) => i.id));
    expect(res.dropped_items.some((d) => shown.has(d.id))).toBe(false);
    expect(res.dropped_items[0]!.text).toMatch(/canary/);
    const finals = res.dropped_items.map((d) => d.scores.final);
    expect(finals).toEqual([...finals].sort((x, y) => y - x));
    expect((await t.call('POST', '/v1/context', { key: a, body: { ...body, explain: 'yes' } })).status).toBe(400);
  });
});
