import { afterEach, describe, expect, it } from 'vitest';
import { fakeOpenAi, type Script } from '../../adapters/llms/fake-protocols.test-support.js';
import { startLoopback, type Loopback } from '../../adapters/llms/loopback.test-support.js';
import { createOpenAiCompatibleLlm } from '../../adapters/llms/openai-compatible.js';
import type { Llm } from '../../ports/llm.js';
import { analyzeHeuristically, HeuristicConversationAnalyzer } from './analyze.js';
import { LlmConversationAnalyzer } from './analyze-llm.js';
import { createExamplesApi } from './api.js';
import { normalizeRole, type Turn } from './conversations.js';
import { DOCKER_SESSION, sixJudgedConversations } from './conversation.test-support.js';
import { openTestLearn } from './deps.test-support.js';

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function llmSaying(script: Script): Promise<{ llm: Llm; lb: Loopback }> {
  server = await startLoopback(fakeOpenAi(script));
  const llm = createOpenAiCompatibleLlm({ baseUrl: `${server.origin}/v1`, model: 'local' }, { backoff: { baseDelayMs: 1, maxDelayMs: 2 } });
  return { llm, lb: server };
}

const turns: Turn[] = DOCKER_SESSION.map((t) => ({ role: normalizeRole(t.role), content: t.content, tool: t.tool }));

describe('LlmConversationAnalyzer against an OpenAI-compatible server on loopback', () => {
  it('maps turn numbers back to the real texts and drops triples that do not hold', async () => {
    const reply = {
      pairs: [
        // Turn numbers are 1-based: 1 = docker question, 2 = `docker ps -a`, 3 = the correction.
        { query_turn: 1, response_turn: 2, feedback_turn: 3, feedback: 'negative', reason: 'the user said it was wrong' },
        { query_turn: 5, response_turn: 9, feedback_turn: 10, feedback: 'positive', reason: '"Great, that\'s helpful."' },
        // Not grounded: the "query" is an agent turn; the feedback is not the user's next message.
        { query_turn: 2, response_turn: 4, feedback_turn: 5, feedback: 'positive', reason: 'x' },
        { query_turn: 1, response_turn: 2, feedback_turn: 5, feedback: 'positive', reason: 'y' },
        { query_turn: 12, response_turn: 13, feedback_turn: 99, feedback: 'positive', reason: 'z' },
      ],
    };
    const { llm, lb } = await llmSaying(() => ({ say: JSON.stringify(reply) }));
    const pairs = await new LlmConversationAnalyzer(llm).analyze(turns);
    expect(pairs.map((p) => [p.polarity, p.query, p.response])).toEqual([
      ['negative', 'How do I list all running Docker containers?', 'Use `docker ps -a`.'],
      ['positive', 'How do I remove unused images?', '{"steps": ["docker image prune -a", "confirm with y"]}'],
    ]);
    expect(pairs[1]!.reason).toContain('Tools used: search_docs.');
    const prompt = (lb.requests[0]!.body as { messages: { content: string }[] }).messages.map((m) => m.content).join('\n');
    expect(prompt).toContain('6. [tool:search_docs] docker image prune --help');
    expect(prompt).toContain('clarifications, format requests and meta requests are not queries');
  });

  it('shows the model only the latest four conversations', async () => {
    const six: Turn[] = sixJudgedConversations().map((t) => ({ role: normalizeRole(t.role), content: t.content }));
    const { llm, lb } = await llmSaying(() => ({ say: JSON.stringify({ pairs: [{ query_turn: 1, response_turn: 2, feedback_turn: 3, feedback: 'positive', reason: 'r' }] }) }));
    const pairs = await new LlmConversationAnalyzer(llm).analyze(six);
    // Turn 1 belongs to the first conversation, outside the window: the model cannot reach it.
    expect(pairs).toEqual([]);
    const prompt = (lb.requests[0]!.body as { messages: { content: string }[] }).messages.map((m) => m.content).join('\n');
    expect(prompt).not.toContain('sort a list in Python');
    expect(prompt).toContain('7. [user] How do I parse JSON in Rust?');
  });

  it('falls back to the heuristic analyzer when the model keeps answering invalid JSON', async () => {
    const { llm } = await llmSaying(() => ({ say: '{"pairs": "none"}' }));
    const pairs = await new LlmConversationAnalyzer(llm, { fallback: new HeuristicConversationAnalyzer() }).analyze(turns);
    expect(pairs).toEqual(analyzeHeuristically(turns));
  });

  it('is what the API uses when deps carry an LLM, unless told not to', async () => {
    const { llm, lb } = await llmSaying(() => ({ say: JSON.stringify({ pairs: [] }) }));
    const t = await openTestLearn({ llm });
    try {
      const api = createExamplesApi(t.deps);
      const viaLlm = await api.analyzeConversations({ sessionId: 's', turns: DOCKER_SESSION, store: false });
      expect(viaLlm.analyzer).toBe('llm:openai-compatible/local');
      expect(viaLlm.examples).toEqual([]);
      const heuristic = await api.analyzeConversations({ sessionId: 's', turns: DOCKER_SESSION, store: false, useLlm: false });
      expect(heuristic.analyzer).toBe('heuristic');
      expect(heuristic.examples).toHaveLength(3);
      expect(lb.requests).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});
