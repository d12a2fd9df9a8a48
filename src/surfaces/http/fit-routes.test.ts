/**
 * Conflict strategies, the relevance floor and fair credit, rendering, importance and consolidation over real
 * HTTP (SQLite file, USE-lite): what an agent built on the REST API sees.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './server.test-support.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
let t: TestServer;
let key: string;

beforeAll(async () => {
  t = await startTestServer({ config: { learn: { engine: { background: false } } } });
  key = await t.keyFor('acme');
});
afterAll(async () => t.close());

const post = async (path: string, body: unknown) => {
  const r = await t.call('POST', path, { key, body });
  expect(r.status, r.text).toBeLessThan(300);
  return r.body as Json;
};
const get = async (path: string) => (await t.call('GET', path, { key })).body as Json;
const flush = () => t.tm.memory.flush();

describe('over HTTP', () => {
  it('multi-valued facts stay current side by side; free-text facts that disagree come with a conflict note', async () => {
    const en = await post('/v1/facts', { text: 'Erin speaks English.', subject: 'Erin', predicate: 'speaks', value: 'English' });
    const fr = await post('/v1/facts', { text: 'Erin speaks French.', subject: 'Erin', predicate: 'speaks', value: 'French' });
    expect(fr.status).toBe('created');
    expect((await get(`/v1/facts/${en.fact.id}`)).valid_to).toBeUndefined();
    await post('/v1/facts', { text: 'Erin lives in Berlin.', valid_from: '2026-01-01T00:00:00Z' });
    await post('/v1/facts', { text: 'Erin lives in Munich.', valid_from: '2026-06-01T00:00:00Z' });
    await flush();
    const ctx = await post('/v1/context', { query: 'Which languages does Erin speak, and where does Erin live?', episodic_window: { mode: 'none' }, semantic_retrieval: { top_k: 6 } });
    const texts = (ctx.items as Json[]).map((i) => i.text);
    expect(texts).toEqual(expect.arrayContaining(['Erin speaks English.', 'Erin speaks French.']));
    const notes = ctx.conflicts as Json[];
    expect(notes).toHaveLength(1);
    expect(notes[0]!.reason).toBe('same_subject_predicate');
    expect(notes[0]!.note).toContain('Erin lives in Munich.');
    expect(ctx.text).toContain('## Conflicts');
  });

  it('an unrelated query gets no semantic items; an outcome blames only what was relevant, or only used_item_ids', async () => {
    await post('/v1/facts', { text: 'Annual plans are refunded in full within 30 days.' });
    await post('/v1/facts', { text: 'Node 22 requires OpenSSL 3 and drops some legacy crypto flags.' });
    await flush();
    const none = await post('/v1/context', { query: 'Who won the 1998 football world cup?', episodic_window: { mode: 'none' } });
    expect(none.items).toEqual([]);
    // Nearer, but not about the store: at most a few items, each marked as a weak match.
    const weak = await post('/v1/context', { query: 'quantum chromodynamics lattice gauge', episodic_window: { mode: 'none' } });
    expect((weak.items as Json[]).length).toBeLessThanOrEqual(3);
    for (const i of weak.items as Json[]) expect(i.scores.weak).toBe(true);

    const ctx = await post('/v1/context', { query: 'what went wrong with the node 22 upgrade?', episodic_window: { mode: 'none' }, semantic_retrieval: { top_k: 10, relevance_floor: { enabled: false } } });
    const refund = (ctx.items as Json[]).find((i) => i.text.startsWith('Annual plans'))!;
    const before = (await get(`/v1/facts/${refund.id}`)).confidence;
    const report = await post('/v1/outcomes', { retrieval_id: ctx.retrieval_id, outcome: 'FAILURE', details: 'tests crash on start' });
    expect(report.bystander_fact_ids).toContain(refund.id);
    expect((await get(`/v1/facts/${refund.id}`)).confidence).toBe(before);

    const node = (ctx.items as Json[]).find((i) => i.text.startsWith('Node 22'))!;
    const again = await post('/v1/context', { query: 'what went wrong with the node 22 upgrade?', episodic_window: { mode: 'none' } });
    const bad = await t.call('POST', '/v1/outcomes', { key, body: { retrieval_id: again.retrieval_id, outcome: 'SUCCESS', used_item_ids: [refund.id] } });
    expect(bad.status).toBe(400);
    const used = await post('/v1/outcomes', { retrieval_id: again.retrieval_id, outcome: 'SUCCESS', used_item_ids: [node.id] });
    expect((used.facts as Json[]).map((f) => f.fact_id)).toEqual([node.id]);
  });

  it("renders a tool call with the agent's own words and the compact call", async () => {
    await post('/v1/events', {
      type: 'tool_call',
      task_id: 'auth-ttl',
      content: 'Updated session.test.ts to use SESSION_TTL_SECONDS',
      tool: 'edit',
      args: { file: 'src/auth/session.test.ts' },
      result: { ok: true },
    });
    const ctx = await post('/v1/context', { query: 'session ttl test', task_id: 'auth-ttl' });
    expect(ctx.text).toContain('- Updated session.test.ts to use SESSION_TTL_SECONDS. edit(file=src/auth/session.test.ts) → ok=true [tool_call');
  });

  it('rates importance from content at ingest and distils what users said on POST /v1/consolidate', async () => {
    const fire = await post('/v1/events', { type: 'observation', content: 'The house is on fire!' });
    const toast = await post('/v1/events', { type: 'observation', content: 'Ate toast' });
    expect(fire.importance).toBeGreaterThan(toast.importance + 0.4);

    await post('/v1/events', { type: 'message', actor: 'user', user_id: 'carol', content: 'I live in Montreal.', ts: '2026-02-01T10:00:00Z' });
    await post('/v1/events', { type: 'message', actor: 'user', user_id: 'carol', content: 'I prefer dark mode.', ts: '2026-02-01T10:01:00Z' });
    const first = await post('/v1/consolidate', {});
    expect((first.distilled.facts as Json[]).map((f) => f.text)).toEqual(['The user lives in Montreal.', 'The user prefers dark mode.']);
    const moved = await post('/v1/events', { type: 'message', actor: 'user', user_id: 'carol', content: 'I moved to Toronto.', ts: '2026-03-01T10:00:00Z' });
    const second = await post('/v1/consolidate', {});
    const toronto = (second.distilled.facts as Json[])[0]!;
    expect(toronto).toMatchObject({ predicate: 'lives_in', value: 'Toronto', status: 'versioned', event_ids: [moved.id] });
    expect(toronto.superseded_id).toBe((first.distilled.facts as Json[])[0]!.fact_id);
    const fact = await get(`/v1/facts/${toronto.fact_id}`);
    expect(fact.provenance).toMatchObject({ origin: 'consolidation', event_ids: [moved.id] });
  });
});
