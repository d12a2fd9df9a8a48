import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fakeOpenAi, type Script } from '../adapters/llms/fake-protocols.test-support.js';
import { startLoopback, type Loopback } from '../adapters/llms/loopback.test-support.js';
import { createOpenAiCompatibleLlm } from '../adapters/llms/openai-compatible.js';
import { openTestLearn, type TestLearn } from '../learn/feedback/deps.test-support.js';
import type { Llm } from '../ports/llm.js';
import { createWorkingMemoryApi } from './api.js';

let t: TestLearn;
let server: Loopback | undefined;

beforeAll(async () => {
  t = await openTestLearn();
});
afterAll(async () => t.close());
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function llmWith(script: Script): Promise<{ llm: Llm; lb: Loopback }> {
  server = await startLoopback(fakeOpenAi(script));
  return { llm: createOpenAiCompatibleLlm({ baseUrl: `${server.origin}/v1`, model: 'local' }, { backoff: { baseDelayMs: 1, maxDelayMs: 2 } }), lb: server };
}

const isStructured = (body: Record<string, unknown>) => body.response_format !== undefined;
const prompt = (body: Record<string, unknown>) => (body.messages as { content: string }[]).map((m) => m.content).join('\n');

describe('working memory with an LLM (OpenAI-compatible server on loopback)', () => {
  it('extracts key facts with the model and folds turns into the model’s summary once per fold', async () => {
    const { llm, lb } = await llmWith((body) => {
      if (isStructured(body)) {
        return prompt(body).includes('Bob') ? { say: JSON.stringify({ updates: [{ key: 'User Name', value: 'Bob' }, { key: 'Goal', value: 'Upgrade Node to 22' }] }) } : { say: '{"updates": []}' };
      }
      return { say: 'Bob wants to upgrade Node to 22; the agent proposed nvm.' };
    });
    const wm = createWorkingMemoryApi({ ...t.deps, llm }, { windowTurns: 2, foldTurns: 2 });
    const ref = { sessionId: 'llm-1' };
    const first = await wm.addTurn({ ...ref, role: 'user', content: "Hey, it's Bob. Can we get our services onto Node 22?" });
    expect(first.entities).toEqual([
      { key: 'User Name', value: 'Bob' },
      { key: 'Goal', value: 'Upgrade Node to 22' },
    ]);
    await wm.addTurn({ ...ref, role: 'agent', content: 'Yes: install it with nvm, then run the test suite.' });
    const third = await wm.addTurn({ ...ref, role: 'user', content: 'ok' });
    expect(third.evicted.map((e) => e.reason)).toEqual(['folded', 'folded']);
    const view = await wm.view(ref);
    expect(view.summary).toBe('Bob wants to upgrade Node to 22; the agent proposed nvm.');
    expect(view.entities.map((e) => `${e.key}: ${e.value}`)).toEqual(['User Name: Bob', 'Goal: Upgrade Node to 22']);

    const summaryCalls = lb.requests.filter((r) => !isStructured(r.body as Record<string, unknown>));
    expect(summaryCalls).toHaveLength(1);
    expect(prompt(summaryCalls[0]!.body as Record<string, unknown>)).toContain("User: Hey, it's Bob. Can we get our services onto Node 22?\nAgent: Yes: install it with nvm");
  });

  it('falls back to the heuristics when the model fails', async () => {
    const { llm } = await llmWith(() => ({ fail: 500, message: 'boom' }));
    const wm = createWorkingMemoryApi({ ...t.deps, llm }, { windowTurns: 1, foldTurns: 1 });
    const ref = { sessionId: 'llm-2' };
    const r = await wm.addTurn({ ...ref, role: 'user', content: 'My name is Carol and I need to rotate the TLS certificates before Friday.' });
    expect(r.entities.map((e) => e.key)).toEqual(['User Name', 'Goal', 'Deadline']);
    await wm.addTurn({ ...ref, role: 'agent', content: 'Done: I renewed the certificates with certbot and reloaded nginx.' });
    expect((await wm.view(ref)).summary).toBe('User: My name is Carol and I need to rotate the TLS certificates before Friday.');
  });

  it('uses no model when told not to', async () => {
    const { llm, lb } = await llmWith(() => ({ say: 'x' }));
    const wm = createWorkingMemoryApi({ ...t.deps, llm }, { useLlm: false, windowTurns: 1, foldTurns: 1 });
    await wm.addTurn({ sessionId: 'llm-3', role: 'user', content: 'My name is Dan.' });
    await wm.addTurn({ sessionId: 'llm-3', role: 'agent', content: 'Hello Dan, noted.' });
    expect(lb.requests).toHaveLength(0);
  });
});
