/**
 * LLM mode against a local server speaking the OpenAI chat-completions protocol: both agents send the same
 * system prompt and instruction, each with its own retrieved memory, and the reply becomes the decision.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestMemory, sharedEmbedder } from '../../testing/memory-fixture.js';
import { createLlm } from '../../src/index.js';
import { createEngramAgent } from './agents/engram-agent.js';
import { runScenario } from './runner.js';
import { startFakeChat, type FakeChatServer } from '../lib/fake-openai.test-support.js';
import { runScenarioBench } from './bench.js';
import { parseScenario } from './format.js';
import { createLlmDecider, DECISION_SYSTEM, decisionPrompt, normalizeDecision } from './llm-decider.js';

let server: FakeChatServer;
beforeAll(async () => {
  // The fake model answers from the prompt: a rate-limit diagnosis when memory mentions throttling, else a guess.
  server = await startFakeChat((body) => {
    const user = body.messages.find((m) => m.role === 'user')!.content;
    const memory = user.split('## New bug report')[0]!;
    const decision = /throttl/i.test(memory) ? 'investigate: the partner rate limit' : 'Investigate: general health';
    return JSON.stringify({ decision, reason: 'fake model' });
  });
});
afterAll(() => server.close());

describe('normalizeDecision', () => {
  it('makes one "Investigate: …" line whatever the model wrote', () => {
    expect(normalizeDecision('investigate:  the\nrate limit')).toBe('Investigate: the rate limit');
    expect(normalizeDecision('DECISION: Investigate: disk')).toBe('Investigate: disk');
    expect(normalizeDecision('the disk')).toBe('Investigate: the disk');
  });
});

describe('LLM decisions', () => {
  it('both agents decide through the same prompt, each with its own memory', async () => {
    const full = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'rate-limits.json'), 'utf8')) as { rounds: unknown[] };
    const scenario = parseScenario({ ...full, rounds: full.rounds.slice(0, 3) });
    const report = await runScenarioBench({
      scenario,
      scenarioPath: 'rate-limits (first 3 rounds)',
      embedder: sharedEmbedder(),
      llm: { provider: 'openai-compatible', baseUrl: `${server.origin}/v1`, model: 'fake-sre', timeoutMs: 30_000, maxRetries: 0, maxTokensField: 'max_tokens' },
    });
    expect(report.mode).toBe('llm');
    // One call per agent per round, all with the same system prompt and output schema.
    expect(server.requests).toHaveLength(6);
    const bodies = server.requests;
    for (const b of bodies) {
      expect(b.messages.find((m) => m.role === 'system')!.content).toBe(DECISION_SYSTEM);
      expect(b.response_format?.json_schema?.name).toBe('incident_decision');
    }
    const users = bodies.map((b) => b.messages.find((m) => m.role === 'user')!.content);
    // Round 1: empty memory for both; later rounds: each agent's own rendering of what it retrieved.
    expect(users[0]).toContain('(nothing retrieved)');
    expect(users[1]).toContain('(no memory yet)');
    expect(users[2]).toContain('[OUTCOME: FAILURE]');
    expect(users[3]).toContain('## Retrieved past entries');
    for (const [i, u] of users.entries()) expect(u).toContain(scenario.rounds[Math.floor(i / 2)]!.bug_report);

    const r2 = report.rounds[1]!;
    expect(r2.agents.engram!.decision).toMatchObject({ text: 'Investigate: the partner rate limit', basis: { kind: 'llm', model: 'openai-compatible/fake-sre' } });
    // The model reads the same context the memory measure judged: round 1's lesson (its root cause or correction,
    // verbatim) is in Engram's round-2 prompt exactly when the report says it reached the retrieved text.
    const lesson = r2.agents.engram!.lesson!;
    expect(lesson.taughtBy).toEqual([1]);
    const r1 = scenario.rounds[0]!;
    const norm = (t: string) => t.toLowerCase().replace(/\s+/g, ' ');
    expect([r1.actual_root_cause, r1.correction].filter(Boolean).some((t) => norm(users[2]!).includes(norm(t)))).toBe(lesson.inText);
    expect(lesson.inText).toBe(true);
    // Round 2 of this scenario recurs round 1's cause, and the scoring reads the model's decision.
    expect(r2.agents.engram!.correct).toBe(true);
    expect(report.rounds[0]!.agents.engram!.correct).toBe(false);
  }, 300_000);

  it("Engram's prompt is its getContext text verbatim, the recurring cause's count included", async () => {
    const full = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'rate-limits.json'), 'utf8')) as { rounds: unknown[] };
    const scenario = parseScenario({ ...full, rounds: full.rounds.slice(0, 5) });
    const tm = await openTestMemory();
    try {
      const agent = createEngramAgent(tm.memory);
      const rendered: string[] = [];
      const retrieve = agent.retrieve.bind(agent);
      agent.retrieve = async (report, round) => {
        const r = await retrieve(report, round);
        rendered.push(r.contextText);
        return r;
      };
      const llm = createLlm({ provider: 'openai-compatible', baseUrl: `${server.origin}/v1`, model: 'fake-sre', timeoutMs: 30_000, maxRetries: 0, maxTokensField: 'max_tokens' });
      const before = server.requests.length;
      await runScenario(scenario, [agent], createLlmDecider(llm!));
      const users = server.requests.slice(before).map((b) => b.messages.find((m) => m.role === 'user')!.content);
      expect(users).toEqual(scenario.rounds.map((r, i) => decisionPrompt(r.bug_report, rendered[i]!)));
      // Rounds 1, 2 and 4 share one cause (a rate limit): by round 5 the context says so, and so does the prompt.
      expect(users[4]).toMatch(/Recurring cause: [2-9] similar cases\./);
    } finally {
      await tm.cleanup();
    }
  }, 300_000);
});
