/**
 * Layered scopes end to end (docs/scopes.md), over HTTP and MCP on one memory: Carol's context in session s2
 * holds this session's turns, her earlier session and her facts, and the tenant-shared policy, each labelled
 * with its layer; Dave's messages never reach it, whatever the scope mode, nor an anonymous read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withLearning } from '../mcp/learn-deps.js';
import { connectClient, type TestClient } from '../mcp/memory.test-support.js';
import { startTestServer, type TestServer } from './server.test-support.js';

interface Item {
  id: string;
  kind: string;
  section: string;
  layer?: string;
  text: string;
}
interface Context {
  items: Item[];
  text: string;
}
interface Hit {
  doc: { text: string; user_id?: string };
  layer: string;
}

const T = Date.UTC(2025, 8, 1, 12);
const iso = (minutes: number) => new Date(T + minutes * 60_000).toISOString();

describe('layered scopes over HTTP and MCP', () => {
  let t: TestServer;
  let key: string;
  let mcp: TestClient;

  beforeAll(async () => {
    t = await startTestServer();
    key = await t.keyFor('acme');
    const events = [
      { user_id: 'carol', session_id: 's1', actor: 'user', content: 'Carol: my order #1182 arrived damaged, how do I get a refund?', ts: iso(0) },
      { user_id: 'dave', session_id: 's9', actor: 'user', content: 'Dave: Please call me on the phone about my refund.', ts: iso(30) },
      { user_id: 'carol', session_id: 's2', actor: 'user', content: 'Carol: any news on the refund for my damaged order?', ts: iso(60) },
    ];
    for (const e of events) expect((await t.call('POST', '/v1/events', { key, body: { ...e, type: 'message' } })).status).toBe(201);
    const facts = [
      { text: 'Carol wants to be contacted by email only, never by phone.', user_id: 'carol', kind: 'preference' },
      { text: 'Dave prefers phone calls for refund questions.', user_id: 'dave', kind: 'preference' },
      { text: 'Refund policy: damaged orders are refunded in full within 14 days.', source: 'policy.md' },
    ];
    for (const f of facts) expect((await t.call('POST', '/v1/facts', { key, body: f })).status).toBe(201);
    await t.tm.memory.flush();
    mcp = await connectClient({ memory: withLearning(t.tm.memory), tenant: 'acme' });
  });
  afterAll(async () => {
    await mcp.close();
    await t.close();
  });

  const context = async (body: Record<string, unknown>) => {
    const r = await t.call('POST', '/v1/context', { key, body: { query: 'refund for a damaged order, how to contact the customer', semantic_retrieval: { top_k: 8 }, ...body } });
    expect(r.status).toBe(200);
    return r.body as Context;
  };

  it('POST /v1/context: the session window, the user layer and the shared layer, labelled; never Dave', async () => {
    const ctx = await context({ scope: { user_id: 'carol', session_id: 's2' } });
    const texts = ctx.items.map((i) => i.text).join('\n');
    expect(texts).not.toMatch(/Dave/);
    const window = ctx.items.filter((i) => i.section === 'episodic_recent');
    expect(window.map((i) => i.text)).toEqual(['Carol: any news on the refund for my damaged order?']);
    expect(window[0]!.layer).toBe('session');
    const layerOf = (re: RegExp) => ctx.items.find((i) => re.test(i.text))?.layer;
    expect(layerOf(/email only/)).toBe('user');
    expect(layerOf(/Refund policy/)).toBe('shared');
    expect(layerOf(/order #1182/)).toBe('user'); // her earlier session
    expect(ctx.text).toMatch(/email only.*\[user · /);
    expect(ctx.text).toMatch(/Refund policy.*\[shared · /);
    expect(ctx.text).toMatch(/any news on the refund.*\[session · message · /);
  });

  it('strict mode keeps exact scope matching; Dave stays out in every mode and without a scope', async () => {
    const strict = await context({ scope: { user_id: 'carol', session_id: 's2' }, scope_mode: 'strict' });
    expect(strict.items.map((i) => i.text)).toEqual(['Carol: any news on the refund for my damaged order?']);
    const userOnly = await context({ scope: { user_id: 'carol' } });
    expect(userOnly.items.map((i) => i.text).join('\n')).not.toMatch(/Dave/);
    expect(userOnly.items.some((i) => /Refund policy/.test(i.text))).toBe(true);
    // No identity: an anonymous read sees no user's memories at all, only what no user owns.
    const anonymous = await context({});
    expect(anonymous.items.map((i) => i.text)).toEqual(['Refund policy: damaged orders are refunded in full within 14 days.']);
  });

  it('POST /v1/search: layered by default with a layer per hit; strict on request', async () => {
    const search = async (body: Record<string, unknown>) => {
      const r = await t.call('POST', '/v1/search', { key, body: { query: 'refund phone email', k: 20, ...body } });
      expect(r.status).toBe(200);
      return (r.body as { hits: Hit[] }).hits;
    };
    const layered = await search({ user_id: 'carol', session_id: 's2' });
    expect(layered.some((h) => h.doc.user_id === 'dave')).toBe(false);
    expect(new Set(layered.map((h) => h.layer))).toEqual(new Set(['session', 'user', 'shared']));
    const strict = await search({ user_id: 'carol', session_id: 's2', scope_mode: 'strict' });
    expect(strict.map((h) => h.layer)).toEqual(['session']);
    // `scope` as on /v1/context says the same; a contradiction is a typed error.
    const viaScope = await search({ scope: { user_id: 'carol', session_id: 's2' } });
    expect(viaScope.map((h) => h.layer)).toEqual(layered.map((h) => h.layer));
    expect((await t.call('POST', '/v1/search', { key, body: { query: 'refund', user_id: 'carol', scope: { user_id: 'dave' } } })).status).toBe(400);
    const dave = await search({ user_id: 'dave' });
    expect(dave.some((h) => h.doc.user_id === 'carol')).toBe(false);
  });

  it('MCP get_context and search_memory take the same identity and label layers', async () => {
    const ctx = await mcp.call('get_context', { query: 'refund for a damaged order, how to contact the customer', user_id: 'carol', session_id: 's2', top_k: 8 });
    const data = ctx.structuredContent as { items: Item[] };
    const text = (ctx.content as { type: string; text: string }[])[0]!.text;
    expect(text).not.toMatch(/Dave/);
    expect(text).toMatch(/email only.*\[user · /);
    expect(data.items.find((i) => i.section === 'episodic_recent')?.layer).toBe('session');
    const found = await mcp.call('search_memory', { query: 'how does the customer want to be contacted', user_id: 'carol', k: 10 });
    const results = (found.structuredContent as { results: { text: string; layer: string }[] }).results;
    expect(results.some((r) => /Dave/.test(r.text))).toBe(false);
    expect(results.find((r) => /email only/.test(r.text))?.layer).toBe('user');
    const strict = await mcp.call('search_memory', { query: 'refund', user_id: 'carol', session_id: 's2', scope_mode: 'strict', k: 10 });
    expect((strict.structuredContent as { results: { layer: string }[] }).results.every((r) => r.layer === 'session')).toBe(true);
  });
});
