/**
 * Conflict strategies, the relevance floor and fair credit, rendering and consolidation through the MCP tools,
 * with a real MCP client over the SDK's in-memory transport (SQLite + USE-lite behind it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, openTestMemory, textOf, type TestClient, type TestMemory } from './memory.test-support.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
let m: TestMemory;
let c: TestClient;

beforeAll(async () => {
  m = await openTestMemory();
  c = await connectClient({ memory: m.facade, tenant: 'acme' });
});
afterAll(async () => {
  await c?.close();
  await m?.close();
});

const call = async (name: string, args: Record<string, unknown>) => {
  const r = await c.call(name, args);
  expect(r.isError, textOf(r)).toBeFalsy();
  return { text: textOf(r), data: r.structuredContent as Json };
};

describe('over MCP', () => {
  it('keeps both values of a multi-valued predicate, gives an unrelated query nothing, and credits only used items', async () => {
    await call('manage_memory', { content: 'Erin speaks English.', subject: 'Erin', predicate: 'speaks' });
    await call('manage_memory', { content: 'Erin speaks French.', subject: 'Erin', predicate: 'speaks' });
    await call('manage_memory', { content: 'Annual plans are refunded in full within 30 days.' });
    await m.memory.flush();

    const langs = await call('get_context', { query: 'Which languages does Erin speak?', last_n: 0 });
    expect(langs.text).toContain('Erin speaks English.');
    expect(langs.text).toContain('Erin speaks French.');

    const none = await call('get_context', { query: 'quantum chromodynamics lattice gauge', last_n: 0 });
    expect(none.data.items).toEqual([]);
    expect(none.text).toContain('(no relevant memories)');

    const items = langs.data.items as Json[];
    const french = items.find((i) => i.text === 'Erin speaks French.')!;
    const r = await call('record_outcome', { retrieval_id: langs.data.retrieval_id, outcome: 'SUCCESS', used_item_ids: [french.id] });
    expect((r.data.facts as Json[]).map((f) => f.factId)).toEqual([french.id]);
    expect(r.data.bystander_fact_ids).toContain(items.find((i) => i.text === 'Erin speaks English.')!.id);
  });

  it("shows a tool call with the agent's words, and consolidates on demand into versioned facts", async () => {
    await call('log_event', { type: 'tool_call', task_id: 'ttl', content: 'Updated session.test.ts to use SESSION_TTL_SECONDS', tool: 'edit', args: { file: 'src/auth/session.test.ts' }, result: { ok: true } });
    const ctx = await call('get_context', { query: 'session ttl', task_id: 'ttl' });
    expect(ctx.text).toContain('Updated session.test.ts to use SESSION_TTL_SECONDS. edit(file=src/auth/session.test.ts) → ok=true');

    await call('log_event', { type: 'message', actor: 'user', user_id: 'dana', content: 'I live in Montreal.' });
    await call('consolidate', {});
    await call('log_event', { type: 'message', actor: 'user', user_id: 'dana', content: 'I moved to Toronto!' });
    const r = await call('consolidate', {});
    expect(r.text).toContain('The user lives in Toronto. (replaces the previous value)');
    expect(r.data.distilled).toEqual([expect.objectContaining({ predicate: 'lives_in', value: 'Toronto', status: 'versioned' })]);
  });
});
