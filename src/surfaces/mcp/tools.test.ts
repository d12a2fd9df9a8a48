import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCKER_SESSION } from '../../learn/feedback/conversation.test-support.js';
import { connectClient, openTestMemory, textOf, type TestClient, type TestMemory } from './memory.test-support.js';

let m: TestMemory;
let c: TestClient;

beforeAll(async () => {
  m = await openTestMemory();
  c = await connectClient({ memory: m.facade, tenant: 'acme', userId: 'bob' });
});
afterAll(async () => {
  await c?.close();
  await m?.close();
});

const data = <T>(r: { structuredContent?: unknown }) => r.structuredContent as T;

describe('feedback tools', () => {
  it('give_feedback follows the toggle rules: created, flipped, deleted', async () => {
    const pair = { query: 'How do I list running Docker containers?', response: 'Use `docker ps`.' };
    const a = await c.call('give_feedback', { ...pair, feedback: 'positive', reason: 'exact' });
    expect(data<{ action: string }>(a).action).toBe('created');
    const b = await c.call('give_feedback', { ...pair, feedback: 'negative' });
    expect(data<{ action: string; polarity: string }>(b)).toMatchObject({ action: 'flipped', polarity: 'negative' });
    const d = await c.call('give_feedback', { ...pair, feedback: 'negative' });
    expect(data<{ action: string }>(d).action).toBe('deleted');
    expect(textOf(d)).toMatch(/^Removed example exm_/);
  });

  it('analyze_conversations stores judged pairs, and get_feedback_guidance returns them for a similar request', async () => {
    const r = await c.call('analyze_conversations', { session_id: 'chat-9', turns: DOCKER_SESSION });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(data<{ examples: { polarity: string; action: string }[] }>(r).examples.map((e) => [e.polarity, e.action])).toEqual([
      ['negative', 'created'],
      ['positive', 'created'],
      ['positive', 'created'],
    ]);
    await m.memory.flush();
    const g = await c.call('get_feedback_guidance', { query: 'show me the docker containers that are running' });
    expect(textOf(g)).toMatch(/Follow .*\n- Request: "How do I list all running Docker containers\?"\n {2}Answer: "Use `docker ps` without flags/);
    expect(textOf(g)).toMatch(/Avoid .*\n- Request: "How do I list all running Docker containers\?"\n {2}Answer: "Use `docker ps -a`\."/);
    const none = await c.call('get_feedback_guidance', { query: 'what should I cook tonight?' });
    expect(textOf(none)).toBe('No past feedback on similar requests.');
  });
});

describe('working-memory tools (MemGPT-style self-editing)', () => {
  const s = { session_id: 'task-42' };

  it('requires a session when the server has no default', async () => {
    const r = await c.call('working_memory_view', {});
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe('VALIDATION: session_id is required (this server has no default session)\n  session_id: required');
  });

  it('appends, replaces, removes and sets the plan, reporting tokens against the cap', async () => {
    await c.call('working_memory_set_plan', { ...s, plan: '1. Reproduce 2. Bisect 3. Fix' });
    const e = await c.call('working_memory_append', { ...s, kind: 'evidence', content: 'p99 latency 2.3s on /checkout', source: 'grafana' });
    const n = await c.call('working_memory_append', { ...s, content: 'Suspect connection pool size 20' });
    expect(textOf(n)).toMatch(/^Added n2\. Scratchpad: \d+\/2000 tokens \(version 3\)\.$/);
    expect(data<{ item: { id: string } }>(e).item.id).toBe('e1');
    const r = await c.call('working_memory_replace', { ...s, id: 'n2', find: '20', content: '50' });
    expect(textOf(r)).toMatch(/^Updated n2: Suspect connection pool size 50/);
    await c.call('working_memory_remove', { ...s, id: 'e1' });
    const v = await c.call('working_memory_view', s);
    expect(textOf(v)).toBe('## Current Plan\n1. Reproduce 2. Bisect 3. Fix\n\n## Scratchpad\n- Suspect connection pool size 50 (id: n2)\n\n(' + data<{ tokens: number }>(v).tokens + '/2000 tokens, version 5)');
    const gone = await c.call('working_memory_remove', { ...s, id: 'e1' });
    expect(textOf(gone)).toMatch(/^NOT_FOUND: no working-memory item e1/);
  });

  it('pages an item out to long-term memory and back in by meaning', async () => {
    const added = await c.call('working_memory_append', { ...s, content: 'The payments service retries failed card charges three times with exponential backoff.', priority: 4 });
    const id = data<{ item: { id: string } }>(added).item.id;
    const out = await c.call('working_memory_page_out', { ...s, id });
    expect(out.isError, textOf(out)).toBeFalsy();
    const memoryId = data<{ memory_id: string }>(out).memory_id;
    expect(memoryId).toMatch(/^fct_/);
    const fact = await m.memory.getFact(memoryId, 'acme');
    expect(fact).toMatchObject({ userId: 'bob', sessionId: 'task-42', tags: ['working-memory'] });
    expect(textOf(await c.call('working_memory_view', s))).not.toContain('payments service');

    await m.memory.flush();
    // Findable by search_memory too, in other words.
    const found = await c.call('search_memory', { query: 'how often do we retry a declined credit card?' });
    expect(data<{ results: { id: string }[] }>(found).results[0]!.id).toBe(memoryId);

    const back = await c.call('working_memory_page_in', { ...s, query: 'how often do we retry a declined credit card?', k: 1, kinds: ['fact'] });
    expect(back.isError, textOf(back)).toBeFalsy();
    const items = data<{ items: { id: string; source: string; content: string }[] }>(back).items;
    expect(items).toEqual([{ id: expect.stringMatching(/^m\d+$/), kind: 'paged_in', source: `fact:${memoryId}`, content: fact.text, priority: 1, addedAt: expect.any(Number) }]);
    expect(textOf(await c.call('working_memory_view', s))).toContain(`[from memory fact:${memoryId}] ${fact.text}`);
    // Paging the same memory in again adds nothing.
    const again = await c.call('working_memory_page_in', { ...s, query: 'how often do we retry a declined credit card?', k: 1, kinds: ['fact'] });
    expect(data<{ items: unknown[] }>(again).items).toEqual([]);
  });
});
