import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, openTestMemory, textOf, type TestClient, type TestMemory } from './memory.test-support.js';

let m: TestMemory;
let c: TestClient;

beforeAll(async () => {
  m = await openTestMemory();
  c = await connectClient({ memory: m.facade, tenant: 'acme', userId: 'alice', sessionId: 'chat-1' });
});
afterAll(async () => {
  await c?.close();
  await m?.close();
});

const EXPECTED_TOOLS = [
  'add_observations',
  'analyze_conversations',
  'consolidate',
  'create_entities',
  'create_relations',
  'delete_entities',
  'delete_observations',
  'delete_relations',
  'get_context',
  'get_feedback_guidance',
  'give_feedback',
  'graph_search',
  'list_memories',
  'log_event',
  'manage_memory',
  'memory_history',
  'open_nodes',
  'read_graph',
  'record_outcome',
  'search_memory',
  'search_nodes',
  'working_memory_append',
  'working_memory_page_in',
  'working_memory_page_out',
  'working_memory_remove',
  'working_memory_replace',
  'working_memory_set_plan',
  'working_memory_view',
];

describe('Engram MCP server with a real MCP client', () => {
  it('lists the tools with descriptions that say when to call them, and JSON Schemas for their input', async () => {
    const { tools } = await c.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(EXPECTED_TOOLS);
    const manage = tools.find((t) => t.name === 'manage_memory')!;
    expect(manage.description).toMatch(/Call it whenever the user shares a preference, fact or detail worth remembering/);
    expect(manage.inputSchema.properties).toHaveProperty('content');
    expect(tools.find((t) => t.name === 'search_memory')!.inputSchema.required).toEqual(['query']);
    expect(c.client.getInstructions()).toMatch(/store it with manage_memory/);
  });

  it('names every tool it lists in docs/mcp.md', async () => {
    const doc = readFileSync(new URL('../../../docs/mcp.md', import.meta.url), 'utf8');
    const { tools } = await c.client.listTools();
    expect(tools.map((t) => t.name).filter((name) => !doc.includes(`\`${name}\``))).toEqual([]);
  });

  it('stores a fact with manage_memory and finds it with a paraphrased search_memory query', async () => {
    const stored = await c.call('manage_memory', { content: 'The user prefers dark mode in all of their code editors.', kind: 'preference' });
    expect(stored.isError).toBeFalsy();
    const factId = (stored.structuredContent as { memory_id: string }).memory_id;
    expect(factId).toMatch(/^fct_/);
    await c.call('manage_memory', { content: 'The team deploys the billing service every Tuesday afternoon.' });
    await c.call('manage_memory', { content: 'Our staging database runs PostgreSQL 16 on a single node.' });
    await m.memory.flush();

    const found = await c.call('search_memory', { query: 'which color theme does she like for her IDE?' });
    expect(found.isError).toBeFalsy();
    const results = (found.structuredContent as { results: { id: string; text: string }[] }).results;
    expect(results[0]!.id).toBe(factId);
    expect(textOf(found)).toMatch(/^Found \d+ memor/);
    expect(textOf(found)).toContain('dark mode');
  });

  it('keeps the tenant fixed: another tenant’s server finds nothing of acme’s', async () => {
    const other = await connectClient({ memory: m.facade, tenant: 'globex', userId: 'alice' });
    try {
      const r = await other.call('search_memory', { query: 'dark mode code editors' });
      expect((r.structuredContent as { results: unknown[] }).results).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('updates a memory as a new version and deletes one', async () => {
    const created = await c.call('manage_memory', { content: 'The user lives in Montreal.', subject: 'user', predicate: 'lives in' });
    const id = (created.structuredContent as { memory_id: string }).memory_id;
    const updated = await c.call('manage_memory', { action: 'update', memory_id: id, content: 'The user lives in Toronto.' });
    expect(updated.structuredContent).toMatchObject({ action: 'updated', previous_id: id, version: 2 });
    const newId = (updated.structuredContent as { memory_id: string }).memory_id;
    const history = await m.memory.factHistory((await m.memory.getFact(newId, 'acme')).key, 'acme');
    expect(history.map((f) => f.text)).toEqual(['The user lives in Montreal.', 'The user lives in Toronto.']);

    const deleted = await c.call('manage_memory', { action: 'delete', memory_id: newId });
    expect(deleted.structuredContent).toMatchObject({ action: 'deleted' });
    const again = await c.call('manage_memory', { action: 'delete', memory_id: newId });
    expect(again.isError).toBe(true);
    expect(textOf(again)).toMatch(/^NOT_FOUND: /);
  });

  it('turns failures into tool errors with the Engram code and the failing field, and keeps serving', async () => {
    const missing = await c.call('manage_memory', { action: 'update', content: 'x' });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toBe('VALIDATION: memory_id is required to update a memory\n  memory_id: required');
    expect(missing.structuredContent).toMatchObject({ error: { code: 'VALIDATION', issues: [{ path: 'memory_id' }] } });

    const badId = await c.call('manage_memory', { action: 'update', memory_id: 'nope', content: 'x' });
    expect(textOf(badId)).toMatch(/^VALIDATION: /);

    const badType = await c.call('search_memory', { query: 42 });
    expect(badType.isError).toBe(true);
    expect(textOf(badType)).toMatch(/^VALIDATION: invalid arguments for search_memory: query: /);
    expect(badType.structuredContent).toMatchObject({ error: { code: 'VALIDATION', issues: [{ path: 'query' }] } });
    let deep: unknown = 'leaf';
    for (let i = 0; i < 3_000; i++) deep = { a: deep };
    const tooDeep = await c.call('log_event', { content: 'deep args', tool: 'kubectl', args: deep as Record<string, unknown> });
    expect(tooDeep.isError).toBe(true);
    expect(textOf(tooDeep)).toMatch(/^VALIDATION: .*nests deeper than 64 levels/);

    const badRetrieval = await c.call('record_outcome', { retrieval_id: 'ret_x', outcome: 'SUCCESS' });
    expect(badRetrieval.isError).toBe(true);
    expect(textOf(badRetrieval)).toMatch(/^VALIDATION: /);

    const bare = await connectClient({ memory: { ...m.facade, recordOutcome: undefined, examples: undefined, working: undefined }, tenant: 'acme' });
    try {
      const noOutcome = await bare.call('record_outcome', { retrieval_id: 'ret_01J00000000000000000000000', outcome: 'SUCCESS' });
      expect(noOutcome.isError).toBe(true);
      expect(textOf(noOutcome)).toMatch(/^UNAVAILABLE: record_outcome .* is not available on this Engram server/);
      expect(textOf(await bare.call('working_memory_view', { session_id: 's' }))).toMatch(/^UNAVAILABLE: working memory is not available/);
      expect(textOf(await bare.call('give_feedback', { query: 'q', response: 'r', feedback: 'positive' }))).toMatch(/^UNAVAILABLE: /);
    } finally {
      await bare.close();
    }

    expect((await c.call('search_memory', { query: 'dark mode' })).isError).toBeFalsy();
  });

  it('logs events and builds budgeted context with a retrieval id and the session scratchpad', async () => {
    const logged = await c.call('log_event', { content: 'Checkout returns 503 after the 14:00 deploy', type: 'observation', task_id: 'inc-1' });
    expect(logged.structuredContent).toMatchObject({ duplicate: false });
    await c.call('log_event', { content: 'Rolled back release 4.2; errors stopped', type: 'decision', task_id: 'inc-1' });
    await c.call('working_memory_set_plan', { plan: '1. Roll back 2. Find the bad change' });
    await m.memory.flush();

    const ctx = await c.call('get_context', { query: 'why did checkout fail after the deploy?', task_id: 'inc-1', token_budget: 400 });
    expect(ctx.isError).toBeFalsy();
    const data = ctx.structuredContent as { retrieval_id: string; tokens: { used: number; budget: number }; items: { text: string }[] };
    expect(data.retrieval_id).toMatch(/^ret_/);
    expect(data.tokens.used).toBeLessThanOrEqual(400);
    expect(data.items.map((i) => i.text).join('\n')).toContain('Rolled back release 4.2');
    expect(textOf(ctx)).toContain('## Working Memory (session chat-1)\n## Current Plan\n1. Roll back 2. Find the bad change');
    expect(textOf(ctx)).toContain(`(retrieval_id: ${data.retrieval_id}`);

    const outcome = await c.call('record_outcome', { retrieval_id: data.retrieval_id, outcome: 'SUCCESS', details: 'rollback fixed it' });
    expect(outcome.isError).toBeFalsy();
    expect(outcome.structuredContent).toMatchObject({ retrieval_id: data.retrieval_id, outcome: 'SUCCESS' });
    expect((outcome.structuredContent as { episode_id: string }).episode_id).toMatch(/^eps_/);
    // The retrieval belongs to acme: another tenant cannot close its loop.
    const other = await connectClient({ memory: m.facade, tenant: 'globex' });
    try {
      const stolen = await other.call('record_outcome', { retrieval_id: data.retrieval_id, outcome: 'FAILURE' });
      expect(stolen.isError).toBe(true);
      expect(textOf(stolen)).toMatch(/^NOT_FOUND: /);
    } finally {
      await other.close();
    }
  });
});
