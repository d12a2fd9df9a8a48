/**
 * MCP resources and prompts, and argument errors, through the official SDK client over a real Memory
 * (SQLite file, real embedder).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, openTestMemory, textOf, type TestClient, type TestMemory } from './memory.test-support.js';

let m: TestMemory;
let c: TestClient;

beforeAll(async () => {
  m = await openTestMemory();
  c = await connectClient({ memory: m.facade, tenant: 'acme', userId: 'bob' });
  await c.call('manage_memory', { content: 'Bob prefers answers in metric units.', kind: 'preference' });
  await m.memory.remember({ tenant: 'acme', userId: 'alice', text: 'Alice works on the billing team.' });
  await m.memory.remember({ tenant: 'globex', userId: 'bob', text: 'Globex Bob likes imperial units.' });
});
afterAll(async () => {
  await c?.close();
  await m?.close();
});

const readText = async (uri: string) => {
  const r = await c.client.readResource({ uri });
  return r.contents.map((x) => ('text' in x ? x.text : '')).join('\n');
};

describe('MCP resources', () => {
  it("lists the default user's profile and the recent episodes, and publishes the profile template", async () => {
    const { resources } = await c.client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual(['engram://episodes/recent', 'engram://users/bob/profile']);
    const { resourceTemplates } = await c.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['engram://users/{user_id}/profile']);
  });

  it("reads a user's live facts, of this tenant and this user only", async () => {
    const bob = await readText('engram://users/bob/profile');
    expect(bob).toContain('Bob prefers answers in metric units.');
    expect(bob).not.toContain('Alice');
    expect(bob).not.toContain('imperial');
    expect(await readText('engram://users/alice/profile')).toContain('Alice works on the billing team.');
    expect(await readText('engram://users/nobody/profile')).toBe('No stored facts about nobody yet.');
  });

  it('reads recent episodes with their outcomes', async () => {
    expect(await readText('engram://episodes/recent')).toBe('No episodes yet.');
    await c.call('log_event', { content: 'Tried restarting the payments pods; latency stayed high.', type: 'observation', task_id: 't1' });
    const ctx = await c.call('get_context', { query: 'payments latency', task_id: 't1' });
    const retrievalId = (ctx.structuredContent as { retrieval_id: string }).retrieval_id;
    const outcome = await c.call('record_outcome', { retrieval_id: retrievalId, outcome: 'FAILURE', details: 'restart did not help' });
    expect(outcome.isError, textOf(outcome)).toBeFalsy();
    expect(await readText('engram://episodes/recent')).toMatch(/^- \[FAILURE\] \d{4}-.*\(eps_/);
  });
});

describe('MCP prompts', () => {
  it('memory_system_prompt carries the usage rules, the profile and, for a task, the memories and a retrieval id', async () => {
    const { prompts } = await c.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['memory_system_prompt']);
    const plain = await c.client.getPrompt({ name: 'memory_system_prompt', arguments: {} });
    const text = (plain.messages[0]!.content as { text: string }).text;
    expect(text).toContain('Engram is your long-term memory');
    expect(text).toContain('Bob prefers answers in metric units.');
    const withTask = await c.client.getPrompt({ name: 'memory_system_prompt', arguments: { task: 'which units should the report use?' } });
    expect((withTask.messages[0]!.content as { text: string }).text).toMatch(/retrieval_id ret_[0-9A-Z]{26}[\s\S]*metric units/);
    const alice = await c.client.getPrompt({ name: 'memory_system_prompt', arguments: { user_id: 'alice' } });
    expect((alice.messages[0]!.content as { text: string }).text).not.toContain('Bob prefers');
  });
});

describe('MCP argument errors', () => {
  it('rejects an unknown argument, naming it and the arguments the tool takes', async () => {
    const r = await c.call('search_memory', { query: 'units', limit: 3 });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('unknown argument(s) limit: search_memory takes query, k, kinds, user_id');
    const camel = await c.call('record_outcome', { retrievalId: 'ret_01J8ZK3V6W9X2Y4Z5A6B7C8D9E', outcome: 'SUCCESS' });
    expect(textOf(camel)).toContain('unknown argument(s) retrievalId');
  });

  it("names the tool's own arguments in validation errors, never the library's fields", async () => {
    const del = await c.call('manage_memory', { action: 'delete', memory_id: 'not-an-id' });
    expect(textOf(del)).toMatch(/^VALIDATION: memory_id "not-an-id" is not a memory id/);
    expect(textOf(del)).not.toContain('ids.0');
    const upd = await c.call('manage_memory', { action: 'update', memory_id: 'evt_01J8ZK3V6W9X2Y4Z5A6B7C8D9E', content: 'x' });
    expect(textOf(upd)).toContain('memory_id');
    expect(textOf(upd)).not.toMatch(/\bid is not/);
    const out = await c.call('record_outcome', { retrieval_id: 'evt_01J8ZK3V6W9X2Y4Z5A6B7C8D9E', outcome: 'SUCCESS' });
    expect(textOf(out)).toContain('retrieval_id');
    expect(textOf(out)).not.toContain('retrievalId');
    expect((out.structuredContent as { error: { issues: { path: string }[] } }).error.issues.map((i) => i.path)).toEqual(['retrieval_id']);
  });
});
