/**
 * CRUD a Mem0 user expects, and reads at a time, over HTTP end to end (docs/scopes.md#crud, #time).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../server.test-support.js';

interface Fact {
  id: string;
  key: string;
  version: number;
  text: string;
  supersedes?: string;
  expired_at?: string;
  user_id?: string;
}
interface Page {
  memories: Fact[];
  next_cursor: string | null;
}

describe('/v1/memories over HTTP', () => {
  let t: TestServer;
  let key: string;
  beforeAll(async () => {
    t = await startTestServer();
    key = await t.keyFor('acme');
  });
  afterAll(() => t.close());

  const call = (method: string, path: string, body?: unknown) => t.call(method, path, { key, ...(body !== undefined ? { body } : {}) });

  it('POST /v1/facts with key = a version id, PUT and PATCH by any version id: one lineage, old versions out of search', async () => {
    const v1 = ((await call('POST', '/v1/facts', { text: 'Grace drinks tea every morning.', user_id: 'grace' })).body as { fact: Fact }).fact;
    const r2 = await call('POST', '/v1/facts', { key: v1.id, text: 'Grace drinks coffee every morning.', user_id: 'grace' });
    expect(r2.status).toBe(201);
    expect(r2.body).toMatchObject({ status: 'versioned', superseded_id: v1.id, fact: { key: v1.key, version: 2 } });
    const r3 = await call('PUT', `/v1/memories/${v1.id}`, { text: 'Grace drinks matcha every morning.' });
    expect(r3.status).toBe(200);
    const v3 = (r3.body as { fact: Fact }).fact;
    expect(v3).toMatchObject({ key: v1.key, version: 3, user_id: 'grace' });
    // The same text again changes nothing (the live version already says it).
    const same = await call('PATCH', `/v1/memories/${v1.id}`, { text: 'Grace drinks matcha every morning.', tags: ['drinks'] });
    expect(same.body).toMatchObject({ status: 'duplicate', fact: { id: v3.id, version: 3 } });
    const r4 = await call('PATCH', `/v1/memories/${v3.id}`, { text: 'Grace drinks matcha tea every morning.', tags: ['drinks'] });
    expect(r4.body).toMatchObject({ status: 'versioned', fact: { version: 4, user_id: 'grace', tags: ['drinks'] } });
    await t.tm.memory.flush();
    const hits = (await call('POST', '/v1/search', { query: 'what does Grace drink in the morning', user_id: 'grace', kinds: ['fact'] })).body as { hits: { doc: { text: string } }[] };
    expect(hits.hits.map((h) => h.doc.text)).toEqual(['Grace drinks matcha tea every morning.']);
    const history = (await call('GET', `/v1/memories/${v1.id}/history`)).body as { key: string; versions: Fact[] };
    expect(history.versions.map((v) => v.version)).toEqual([1, 2, 3, 4]);
    expect(history.versions.slice(0, 3).every((v) => v.expired_at !== undefined)).toBe(true);
    // The old history route takes an id too.
    expect(((await t.call('GET', `/v1/facts/history?key=${v3.id}`, { key })).body as { versions: Fact[] }).versions).toHaveLength(4);
    expect((await call('PUT', `/v1/memories/${v1.id}`, { key: 'other' })).status).toBe(400);
    expect((await call('PUT', '/v1/memories/fct_01J8ZK3V6W9X2Y4Z5A6B7C8D9E', { text: 'x' })).status).toBe(404);
  });

  it('lists by scope with cursor pagination, reads at a time, and deletes a lineage by id', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(((await call('POST', '/v1/facts', { text: `Heidi fact number ${i}.`, user_id: 'heidi' })).body as { fact: Fact }).fact.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const r = await call('GET', `/v1/memories?user_id=heidi&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(r.status).toBe(200);
      const page = r.body as Page;
      expect(page.memories.length).toBeLessThanOrEqual(2);
      seen.push(...page.memories.map((f) => f.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(ids);
    expect((await call('GET', '/v1/memories?user_id=heidi&cursor=bogus')).status).toBe(400);
    expect((await call('GET', '/v1/memories?userId=heidi')).status).toBe(400);

    const del = await call('DELETE', `/v1/memories/${ids[0]}`);
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ facts: 1 });
    expect(((await call('GET', '/v1/memories?user_id=heidi')).body as Page).memories.map((f) => f.id)).toEqual(ids.slice(1));
    expect((await call('GET', `/v1/memories/${ids[0]}`)).status).toBe(404);
  });

  it('as_of and known_at on memories, facts, search, context and events', async () => {
    const day = 86_400_000;
    const t0 = Date.UTC(2024, 0, 1);
    const iso = (d: number) => new Date(t0 + d * day).toISOString();
    const v1 = ((await call('POST', '/v1/facts', { text: 'Ivan lives in Lisbon.', subject: 'Ivan', predicate: 'lives in', valid_from: iso(0) })).body as { fact: Fact }).fact;
    await call('POST', '/v1/facts', { text: 'Ivan lives in Porto.', subject: 'Ivan', predicate: 'lives in', valid_from: iso(100) });
    await call('POST', '/v1/facts', { text: 'Ivan is on holiday in Rome.', user_id: 'ivan', valid_from: iso(10), valid_to: iso(20) });
    const texts = (p: Page) => p.memories.map((f) => f.text);
    expect(texts((await call('GET', `/v1/memories?as_of=${iso(50)}`)).body as Page)).toContain('Ivan lives in Lisbon.');
    expect(texts((await call('GET', `/v1/memories?as_of=${iso(50)}`)).body as Page)).not.toContain('Ivan lives in Porto.');
    expect(texts((await call('GET', `/v1/memories?as_of=${iso(15)}&user_id=ivan`)).body as Page)).toEqual(['Ivan is on holiday in Rome.']);
    // Ended: not current.
    expect(texts((await call('GET', '/v1/memories?user_id=ivan')).body as Page)).toEqual([]);
    expect((await call('GET', `/v1/facts?as_of=${iso(15)}&user_id=ivan`)).body).toMatchObject({ facts: [{ text: 'Ivan is on holiday in Rome.' }] });
    expect(((await call('GET', `/v1/memories/${v1.id}?as_of=${iso(150)}`)).body as Fact).text).toBe('Ivan lives in Porto.');
    expect((await call('GET', `/v1/memories/${v1.id}?as_of=not-a-time`)).status).toBe(400);
    await t.tm.memory.flush();
    const search = async (extra: Record<string, unknown>) =>
      ((await call('POST', '/v1/search', { query: 'where does Ivan live', kinds: ['fact'], k: 3, ...extra })).body as { hits: { doc: { text: string } }[] }).hits.map((h) => h.doc.text);
    expect((await search({}))[0]).toBe('Ivan lives in Porto.');
    expect((await search({ as_of: iso(50) }))[0]).toBe('Ivan lives in Lisbon.');
    const ctx = (await call('POST', '/v1/context', { query: 'where does Ivan live', as_of: iso(50), semantic_retrieval: { kinds: ['fact'] } })).body as { items: { text: string }[] };
    expect(ctx.items.map((i) => i.text).join('\n')).toMatch(/Lisbon/);
    expect(ctx.items.map((i) => i.text).join('\n')).not.toMatch(/Porto/);

    await call('POST', '/v1/events', { content: 'late logged but happened first', session_id: 'tz', ts: iso(1) });
    await call('POST', '/v1/events', { content: 'happened second', session_id: 'tz', ts: iso(2) });
    const events = async (q: string) => ((await call('GET', `/v1/events?session_id=tz&${q}`)).body as { events: { content: string }[] }).events.map((e) => e.content);
    expect(await events('last_n=1')).toEqual(['happened second']);
    expect(await events(`last_n=1&as_of=${iso(1)}`)).toEqual(['late logged but happened first']);
    const queried = (await call('POST', '/v1/events/query', { session_id: 'tz', last_n: 5, known_at: iso(0) })).body as { events: unknown[] };
    expect(queried.events).toEqual([]);
  });
});
