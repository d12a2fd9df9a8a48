/**
 * The learn, feedback and working-memory routes over real HTTP (SQLite file, real embedder): each answer is
 * parsed with its documented (strict) response schema, so a field the document does not name fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  AnalysisReportSchema,
  CausalChainSchema,
  ConsolidationReportSchema,
  EpisodeDetailSchema,
  EpisodeSchema,
  ExampleSchema,
  FeedbackResultSchema,
  GuidanceSchema,
  LinkSchema,
  OutcomeReportSchema,
  ProcedureMatchSchema,
  ProcedureSchema,
  RetrievalSchema,
  SimilarExamplesSchema,
  WmEditSchema,
  WorkingMemorySchema,
} from './schemas/learn-records.js';
import { DOCKER_SESSION } from '../../learn/feedback/conversation.test-support.js';
import { startTestServer, type TestServer } from './server.test-support.js';

type Json = Record<string, unknown>;
let t: TestServer;
let key: string;
let other: string;

beforeAll(async () => {
  t = await startTestServer();
  key = await t.keyFor('acme');
  other = await t.keyFor('globex');
});
afterAll(async () => t.close());

async function ok<S extends z.ZodType>(schema: S, res: Promise<{ status: number; body: unknown }>, status = 200): Promise<z.output<S>> {
  const r = await res;
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  return schema.parse(r.body);
}
const post = (path: string, body: unknown, k = key) => t.call('POST', path, { key: k, body });
const get = (path: string, k = key) => t.call('GET', path, { key: k });
const issuePaths = (body: unknown) => (body as { error: { issues: { path: string }[] } }).error.issues.map((i) => i.path);

describe('outcomes, retrievals, episodes and links', () => {
  let retrievalId: string;
  let episodeId: string;

  it('records an outcome for a retrieval (snake_case in and out) and reads the retrieval back', async () => {
    await post('/v1/events/batch', {
      events: [
        { session_id: 'inc-1', content: 'checkout latency alert fired for payments', type: 'observation' },
        { session_id: 'inc-1', content: 'restarted the payments pods', type: 'decision' },
      ],
    });
    const ctx = (await post('/v1/context', { query: 'payments latency', scope: { session_id: 'inc-1' } })).body as Json;
    retrievalId = ctx.retrieval_id as string;
    expect(retrievalId).toMatch(/^ret_/);

    const retrieval = await ok(RetrievalSchema, get(`/v1/retrievals/${retrievalId}`));
    expect(retrieval).toMatchObject({ id: retrievalId, tenant: 'acme', query: 'payments latency' });
    expect(retrieval.item_ids.length).toBeGreaterThan(0);
    expect((await get(`/v1/retrievals/${retrievalId}`, other)).status).toBe(404);

    const report = await ok(OutcomeReportSchema, post('/v1/outcomes', { retrieval_id: retrievalId, outcome: 'failure', root_cause: 'a bad deploy', correction: 'roll back first' }), 201);
    expect(report).toMatchObject({ retrieval_id: retrievalId, outcome: 'FAILURE' });
    expect(report.event_ids).toHaveLength(2);
    expect(report.episode.event_ids).toEqual(expect.arrayContaining(report.event_ids));
    episodeId = report.episode_id;
  });

  it('rejects a bad outcome body naming the wire field, and an unknown retrieval with 404', async () => {
    const bad = await post('/v1/outcomes', { retrieval_id: 'evt_01J8ZK3V6W9X2Y4Z5A6B7C8D9E', outcome: 'maybe', retrievalId: 'x' });
    expect(bad.status).toBe(400);
    expect(issuePaths(bad.body)).toEqual(expect.arrayContaining(['retrieval_id', 'outcome', 'retrievalId']));
    expect((await post('/v1/outcomes', { retrieval_id: 'ret_01J8ZK3V6W9X2Y4Z5A6B7C8D9E', outcome: 'SUCCESS' })).status).toBe(404);
    expect((await post('/v1/outcomes', { retrieval_id: retrievalId, outcome: 'SUCCESS' }, other)).status).toBe(404);
  });

  it('lists episodes by scope and outcome, gets one with its links, and walks its chain', async () => {
    const list = await ok(EpisodeSchema.array(), get('/v1/episodes?session_id=inc-1&outcome=FAILURE').then((r) => ({ ...r, body: (r.body as Json).episodes })));
    expect(list.map((e) => e.id)).toContain(episodeId);
    expect(list.every((e) => e.outcome === 'FAILURE' && e.session_id === 'inc-1')).toBe(true);
    expect(((await get('/v1/episodes?session_id=inc-1&outcome=SUCCESS')).body as Json).episodes).toEqual([]);
    expect(((await get('/v1/episodes', other)).body as Json).episodes).toEqual([]);
    const badLimit = await get('/v1/episodes?limit=zero');
    expect(badLimit.status).toBe(400);
    expect(issuePaths(badLimit.body)).toEqual(['query.limit']);

    const detail = await ok(EpisodeDetailSchema, get(`/v1/episodes/${episodeId}`));
    expect(detail.episode.root_cause).toBe('a bad deploy');
    expect(detail.episode.start_ts).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(detail.links.every((l) => l.from_id === episodeId || l.to_id === episodeId)).toBe(true);
    expect((await get(`/v1/episodes/${episodeId}`, other)).status).toBe(404);

    const chain = await ok(CausalChainSchema, get(`/v1/episodes/${episodeId}/chain?max_depth=3`));
    expect(chain.episode_ids).toContain(episodeId);
  });

  it('creates an explicit link between two memories and lists it from either end', async () => {
    const fact = (await post('/v1/facts', { text: 'Payments deploys are rolled back before debugging.' })).body as { fact: { id: string } };
    const link = await ok(LinkSchema, post('/v1/links', { type: 'LEARNED_FROM', from_id: fact.fact.id, to_id: episodeId, weight: 0.7, evidence: 'postmortem' }), 201);
    expect(link).toMatchObject({ type: 'LEARNED_FROM', from_id: fact.fact.id, to_id: episodeId, weight: 0.7, origin: 'explicit' });
    const incoming = (await get(`/v1/links?id=${episodeId}&direction=in`)).body as { links: Json[] };
    expect(incoming.links.map((l) => l.id)).toContain(link.id);
    const outgoing = (await get(`/v1/links?id=${episodeId}&direction=out`)).body as { links: Json[] };
    expect(outgoing.links.map((l) => l.id)).not.toContain(link.id);
    // The other tenant cannot link to (or see) acme's memories.
    expect((await post('/v1/links', { type: 'LED_TO', from_id: fact.fact.id, to_id: episodeId }, other)).status).toBe(404);
    const self = await post('/v1/links', { type: 'LED_TO', from_id: episodeId, to_id: episodeId });
    expect(self.status).toBe(400);
  });

  it('consolidates on demand', async () => {
    const report = await ok(ConsolidationReportSchema, post('/v1/consolidate', {}));
    expect(report.tenant).toBe('acme');
    expect(report.since).toBeNull();
    expect((await post('/v1/consolidate', { since: 'not a time' })).status).toBe(400);
    expect((await post('/v1/consolidate', { tenant: 'globex' })).status).toBe(403);
  });
});

describe('procedures', () => {
  it('puts, lists, gets, matches and counts the outcomes of a procedure', async () => {
    const proc = await ok(
      ProcedureSchema,
      post('/v1/procedures', { name: 'Roll back a bad deploy', trigger: 'error rate spikes right after a deploy', steps: ['find the last release', 'run the rollback job', 'watch the error rate'] }),
    );
    expect(proc).toMatchObject({ success_count: 0, failure_count: 0, preconditions: [] });
    expect(proc.id).toMatch(/^prc_/);

    const listed = (await get('/v1/procedures')).body as { procedures: Json[] };
    expect(listed.procedures.map((p) => p.id)).toContain(proc.id);
    expect(((await get('/v1/procedures', other)).body as { procedures: Json[] }).procedures).toEqual([]);
    expect((await ok(ProcedureSchema, get(`/v1/procedures/${proc.id}`))).name).toBe('Roll back a bad deploy');
    expect((await get(`/v1/procedures/${proc.id}`, other)).status).toBe(404);

    const matches = (await post('/v1/procedures/match', { situation: 'the error rate spiked after we deployed' })).body as { matches: unknown[] };
    const best = ProcedureMatchSchema.parse(matches.matches[0]);
    expect(best.procedure.id).toBe(proc.id);

    const after = await ok(ProcedureSchema, post(`/v1/procedures/${proc.id}/outcome`, { success: true, notes: 'took 4 minutes' }));
    expect(after.success_count).toBe(1);
    expect(after.notes).toContain('took 4 minutes');
    expect(after.last_used_at).toMatch(/T/);

    const missingSteps = await post('/v1/procedures', { name: 'x', trigger: 'y', steps: [] });
    expect(issuePaths(missingSteps.body)).toEqual(['steps']);
  });
});

describe('feedback and examples', () => {
  it('gives feedback (toggle rules), lists, finds similar examples and guidance, deletes', async () => {
    const body = { user_id: 'u1', query: 'summarise the refund policy', response: 'Refunds within 30 days, with a receipt.', feedback: 'positive' };
    const created = await ok(FeedbackResultSchema, post('/v1/feedback', body));
    expect(created.action).toBe('created');
    expect(created.example).toMatchObject({ polarity: 'positive', user_id: 'u1', origin: 'feedback' });
    const flipped = await ok(FeedbackResultSchema, post('/v1/feedback', { ...body, feedback: 'negative', reason: 'too terse' }));
    expect(flipped).toMatchObject({ action: 'flipped', example: { id: created.example.id, polarity: 'negative' } });

    const listed = (await get('/v1/examples?user_id=u1&polarity=negative')).body as { examples: unknown[] };
    expect(listed.examples.map((e) => ExampleSchema.parse(e).id)).toEqual([created.example.id]);
    expect(((await get('/v1/examples', other)).body as { examples: unknown[] }).examples).toEqual([]);

    await t.tm.memory.flush();
    const similar = await ok(SimilarExamplesSchema, post('/v1/examples/similar', { user_id: 'u1', query: 'what is the refund policy?' }));
    expect(similar.negative.map((s) => s.example.id)).toEqual([created.example.id]);
    const guidance = await ok(GuidanceSchema, post('/v1/examples/guidance', { user_id: 'u1', query: 'what is the refund policy?', max_tokens: 400 }));
    expect(guidance.avoid_ids).toEqual([created.example.id]);
    expect(guidance.text).toMatch(/Avoid/i);

    expect((await t.call('DELETE', `/v1/examples/${created.example.id}`, { key: other })).status).toBe(404);
    expect((await t.call('DELETE', `/v1/examples/${created.example.id}`, { key })).status).toBe(200);
    expect((await t.call('DELETE', `/v1/examples/${created.example.id}`, { key })).status).toBe(404);
  });

  it('analyses given turns for implicit feedback; without turns or session_id it is a VALIDATION error', async () => {
    const report = await ok(
      AnalysisReportSchema,
      post('/v1/feedback/analyze', {
        session_id: 's-an',
        turns: DOCKER_SESSION,
        use_llm: false,
      }),
    );
    expect(report.analyzer).toBe('heuristic');
    expect(report.examples.map((e) => e.polarity)).toContain('positive');
    expect(report.examples.every((e) => /^exm_/.test(e.example_id ?? ''))).toBe(true);
    const none = await post('/v1/feedback/analyze', {});
    expect(none.status).toBe(400);
    expect(issuePaths(none.body)).toEqual(['turns']);
  });
});

describe('working memory', () => {
  const base = '/v1/sessions/task-7/working-memory';

  it('appends, replaces, plans, sets key facts, pages out and in, removes and clears', async () => {
    const empty = await ok(WorkingMemorySchema, get(base));
    expect(empty).toMatchObject({ version: 0, session_id: 'task-7', items: [] });

    const added = await ok(WmEditSchema, post(`${base}/items`, { content: 'p99 latency is 2.3 s since 10:05', kind: 'evidence', source: 'grafana', priority: 8 }));
    const itemId = added.item!.id;
    expect(itemId).toBe('e1');
    const noSource = await post(`${base}/items`, { content: 'x', kind: 'evidence' });
    expect(issuePaths(noSource.body)).toEqual(['source']);

    await ok(WmEditSchema, t.call('PATCH', `${base}/items/${itemId}`, { key, body: { find: '2.3 s', content: '2.4 s' } }));
    await ok(WmEditSchema, t.call('PUT', `${base}/plan`, { key, body: { plan: '1. find the cause\n2. fix it' } }));
    await ok(WmEditSchema, t.call('PUT', `${base}/entities/service`, { key, body: { value: 'payments' } }));
    await ok(WmEditSchema, post(`${base}/turns`, { role: 'user', content: 'Is it the database?' }));
    const note = await ok(WmEditSchema, post(`${base}/items`, { content: 'the database CPU is at 20%' }));

    const view = await ok(WorkingMemorySchema, get(base));
    expect(view.plan).toContain('find the cause');
    expect(view.items.map((i) => i.content)).toEqual(['p99 latency is 2.4 s since 10:05', 'the database CPU is at 20%']);
    expect(view.entities).toEqual([expect.objectContaining({ key: 'service', value: 'payments' })]);
    expect(view.text).toContain('(id: e1)');
    expect(view.tokens).toBeLessThanOrEqual(view.max_tokens);
    // Another tenant's session of the same name is a different scratchpad.
    expect(((await get(base, other)).body as Json).version).toBe(0);

    const out = await ok(WmEditSchema, post(`${base}/items/${note.item!.id}/page-out`, { tags: ['incident'] }));
    expect(out.memory_id).toMatch(/^fct_/);
    await t.tm.memory.flush();
    const paged = await ok(WmEditSchema, post(`${base}/page-in`, { query: 'database CPU', k: 1, kinds: ['fact'] }));
    expect(paged.items!.map((i) => i.content)).toEqual([expect.stringContaining('database CPU')]);

    await ok(WmEditSchema, t.call('DELETE', `${base}/items/${itemId}`, { key }));
    expect((await t.call('DELETE', `${base}/items/${itemId}`, { key })).status).toBe(404);
    const cleared = await t.call('DELETE', base, { key });
    expect(cleared.body).toEqual({ session_id: 'task-7', cleared: true });
    expect(((await get(base)).body as Json).version).toBe(0);
  });
});
