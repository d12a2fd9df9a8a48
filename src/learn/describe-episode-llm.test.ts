import { afterEach, describe, expect, it } from 'vitest';
import { fakeOpenAi, type Script } from '../adapters/llms/fake-protocols.test-support.js';
import { startLoopback, type Loopback } from '../adapters/llms/loopback.test-support.js';
import { createOpenAiCompatibleLlm } from '../adapters/llms/openai-compatible.js';
import { EngramError } from '../core/errors.js';
import type { Llm } from '../ports/llm.js';
import { LlmSummarizer } from './describe-episode-llm.js';
import { describeEpisode, HeuristicSummarizer } from './describe-episode.js';
import { incidentStream, makeEvent, T0 } from './fixtures.test-support.js';

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function llmWith(script: Script): Promise<{ llm: Llm; lb: Loopback }> {
  server = await startLoopback(fakeOpenAi(script));
  const llm = createOpenAiCompatibleLlm({ baseUrl: `${server.origin}/v1`, model: 'local-model' }, { backoff: { baseDelayMs: 1, maxDelayMs: 2 } });
  return { llm, lb: server };
}

const round = incidentStream().perRound[0]!;

const reply = {
  summary: 'Checkout returned 503s at the sale peak; restarting pods for a suspected leak failed; the HTTP client connection cap was the cause.',
  outcome: 'FAILURE',
  outcomeDetails: 'restart did not help',
  decisions: ['Restart the checkout pods'],
  assumptions: ['memory leak'],
  corrections: ['It was the HTTP client connection cap'],
  rootCause: 'HTTP client connection cap reached at peak',
};

describe('LlmSummarizer against an OpenAI-compatible server on loopback', () => {
  it('asks with the episode schema and the events, and returns the model’s description', async () => {
    const { llm, lb } = await llmWith(() => ({ say: JSON.stringify(reply) }));
    const d = await new LlmSummarizer(llm).summarize(round);

    expect(d).toMatchObject({
      method: 'llm',
      summary: reply.summary,
      outcome: 'FAILURE',
      rootCause: reply.rootCause,
      decisions: reply.decisions,
      assumptions: reply.assumptions,
      corrections: reply.corrections,
    });
    // Importance and situation stay the deterministic values.
    const h = describeEpisode(round);
    expect(d.importance).toBe(h.importance);
    expect(d.situation).toBe(h.situation);

    const body = lb.requests[0]!.body as { response_format: { type: string; json_schema: { name: string; schema: { required: string[] } } }; messages: { role: string; content: string }[] };
    expect(body.response_format.type).toBe('json_schema');
    expect(body.response_format.json_schema.name).toBe('episode_description');
    expect(body.response_format.json_schema.schema.required).toEqual(expect.arrayContaining(['summary', 'outcome', 'rootCause']));
    const prompt = body.messages.find((m) => m.role === 'user')!.content;
    expect(prompt).toContain('#1 [message/system] Checkout API returning 503s');
    expect(prompt).toContain(`#${round.length} [correction/user] Correction: Was actually`);
  });

  it('lets explicit metadata override the model’s outcome and root cause', async () => {
    const { llm } = await llmWith(() => ({ say: JSON.stringify({ ...reply, outcome: 'SUCCESS' }) }));
    const events = [
      makeEvent(1, 'message', 'Nightly backup job exceeded its window.', T0),
      makeEvent(2, 'outcome', 'Backup finished.', T0, { metadata: { outcome: 'partial', root_cause: 'snapshot throttled by the storage quota' } }),
    ];
    const d = await new LlmSummarizer(llm).summarize(events);
    expect(d.outcome).toBe('PARTIAL');
    expect(d.rootCause).toBe('snapshot throttled by the storage quota');
  });

  it('re-asks once on invalid output, then falls back to the heuristic summarizer when given one', async () => {
    const { llm, lb } = await llmWith(() => ({ say: '{"summary": "x", "outcome": "MAYBE"}' }));
    const d = await new LlmSummarizer(llm, { fallback: new HeuristicSummarizer() }).summarize(round);
    expect(lb.requests).toHaveLength(2);
    expect(d).toEqual(describeEpisode(round));
  });

  it('without a fallback the LLM_OUTPUT error reaches the caller', async () => {
    const { llm } = await llmWith(() => ({ say: 'not json at all' }));
    const e = await new LlmSummarizer(llm).summarize(round).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(EngramError);
    expect((e as EngramError).code).toBe('LLM_OUTPUT');
  });

  it('shows only the newest maxLlmEvents events and says so', async () => {
    const { llm, lb } = await llmWith(() => ({ say: JSON.stringify(reply) }));
    await new LlmSummarizer(llm, { options: { maxLlmEvents: 2 } }).summarize(round);
    const prompt = (lb.requests[0]!.body as { messages: { role: string; content: string }[] }).messages.find((m) => m.role === 'user')!.content;
    expect(prompt).toContain(`(last 2 of ${round.length})`);
    expect(prompt).not.toContain('Checkout API returning 503s');
    expect(prompt).toContain('#2 [correction/user]');
  });
});
