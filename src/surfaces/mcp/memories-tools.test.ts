/** CRUD and reads at a time through MCP tools, end to end (docs/scopes.md#crud, #time). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, openTestMemory, type TestClient, type TestMemory } from './memory.test-support.js';

const data = <T>(r: { structuredContent?: unknown }) => r.structuredContent as T;

describe('MCP: memories by id, pages and time', () => {
  let m: TestMemory;
  let c: TestClient;
  beforeAll(async () => {
    m = await openTestMemory();
    c = await connectClient({ memory: m.facade, tenant: 'acme', userId: 'judy' });
  });
  afterAll(async () => {
    await c.close();
    await m.close();
  });

  it('updates by any version id, lists a page at a time, shows history and deletes', async () => {
    const created = data<{ memory_id: string }>(await c.call('manage_memory', { content: 'Judy uses a standing desk.' }));
    const v2 = data<{ memory_id: string; version: number }>(await c.call('manage_memory', { action: 'update', memory_id: created.memory_id, content: 'Judy uses a treadmill desk.' }));
    expect(v2.version).toBe(2);
    // Updating through the first version's id again continues the same lineage.
    const v3 = data<{ version: number }>(await c.call('manage_memory', { action: 'update', memory_id: created.memory_id, content: 'Judy uses a kneeling chair.' }));
    expect(v3.version).toBe(3);
    const history = await c.call('memory_history', { memory_id: v2.memory_id });
    expect(data<{ versions: { version: number; text: string }[] }>(history).versions.map((v) => v.text)).toEqual([
      'Judy uses a standing desk.',
      'Judy uses a treadmill desk.',
      'Judy uses a kneeling chair.',
    ]);
    for (let i = 0; i < 3; i++) await c.call('manage_memory', { content: `Judy fact ${i}.`, kind: 'preference' });
    await c.call('manage_memory', { content: 'Karl likes chess.', user_id: 'karl' });
    const first = data<{ memories: { text: string }[]; next_cursor: string | null }>(await c.call('list_memories', { limit: 2 }));
    expect(first.memories.map((x) => x.text)).toEqual(['Judy uses a kneeling chair.', 'Judy fact 0.']);
    const second = data<{ memories: { text: string }[]; next_cursor: string | null }>(await c.call('list_memories', { limit: 2, cursor: first.next_cursor }));
    expect(second.memories.map((x) => x.text)).toEqual(['Judy fact 1.', 'Judy fact 2.']);
    expect(second.next_cursor).toBeNull();
    expect(data<{ memories: unknown[] }>(await c.call('list_memories', { kinds: ['preference'] })).memories).toHaveLength(3);
    await c.call('manage_memory', { action: 'delete', memory_id: created.memory_id });
    const after = await c.call('memory_history', { memory_id: created.memory_id });
    expect(after.isError).toBe(true);
  });

  it('search_memory and get_context take as_of', async () => {
    const t0 = Date.UTC(2023, 0, 1);
    const iso = (days: number) => new Date(t0 + days * 86_400_000).toISOString();
    await m.memory.remember({ text: 'Judy manages the Atlas project.', tenant: 'acme', subject: 'Judy', predicate: 'manages', userId: 'judy', validFrom: iso(0) });
    await m.memory.remember({ text: 'Judy manages the Borealis project.', tenant: 'acme', subject: 'Judy', predicate: 'manages', userId: 'judy', validFrom: iso(200) });
    await m.memory.flush();
    const search = async (args: Record<string, unknown>) =>
      data<{ results: { text: string }[] }>(await c.call('search_memory', { query: 'which project does Judy manage', kinds: ['fact'], k: 10, ...args }))
        .results.map((r) => r.text)
        .filter((t) => /manages/.test(t));
    expect(await search({})).toEqual(['Judy manages the Borealis project.']);
    expect(await search({ as_of: iso(100) })).toEqual(['Judy manages the Atlas project.']);
    const ctx = await c.call('get_context', { query: 'which project does Judy manage', as_of: iso(100) });
    const text = (ctx.content as { text: string }[])[0]!.text;
    expect(text).toMatch(/Atlas/);
    expect(text).not.toMatch(/Borealis/);
    expect((await c.call('search_memory', { query: 'x', as_of: 'not a time' })).isError).toBe(true);
  });
});
