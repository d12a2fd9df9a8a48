import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropicLlm } from '../adapters/llms/anthropic.js';
import { fakeAnthropic, fakeOpenAi, type Script } from '../adapters/llms/fake-protocols.test-support.js';
import { startLoopback, type Loopback } from '../adapters/llms/loopback.test-support.js';
import { createOpenAiCompatibleLlm } from '../adapters/llms/openai-compatible.js';
import type { Llm } from '../ports/llm.js';
import { describeEpisode } from './describe-episode.js';
import { LlmExtractor } from './extract-llm.js';
import { extractHeuristics, HeuristicExtractor, toExtractionEpisode, type ExtractionEpisode } from './extract.js';
import { incidentStream } from './fixtures.test-support.js';

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const KEY = 'sk-ant-test';

async function anthropic(script: Script): Promise<{ llm: Llm; lb: Loopback }> {
  server = await startLoopback(fakeAnthropic(script, { apiKey: KEY }));
  const llm = createAnthropicLlm({ baseUrl: server.origin, apiKey: KEY, model: 'claude-test', maxTokens: 1024 }, { backoff: { baseDelayMs: 1, maxDelayMs: 2 } });
  return { llm, lb: server };
}

const episodes: ExtractionEpisode[] = incidentStream().perRound.map((events, i) => {
  const d = describeEpisode(events);
  return toExtractionEpisode({ id: `eps_${i + 1}`, outcome: d.outcome, rootCause: d.rootCause, assumptions: d.assumptions, corrections: d.corrections, summary: d.summary }, events);
});

const proposal = {
  heuristics: [
    {
      kind: 'pattern',
      text: 'When requests stall with 503s at peak traffic, check the HTTP client max connections per host.',
      supportingEpisodeIds: ['eps_1', 'eps_2', 'eps_4', 'eps_99'],
      contradictingEpisodeIds: ['eps_3', 'eps_1'],
    },
    { kind: 'pattern', text: 'Initial symptom-based diagnosis often leads to misidentifying the root cause.', supportingEpisodeIds: ['eps_1', 'eps_3'], contradictingEpisodeIds: [] },
    { kind: 'counter_pattern', text: 'When a release went out, suspect it.', supportingEpisodeIds: ['eps_42'], contradictingEpisodeIds: [] },
  ],
};

describe('LlmExtractor against an Anthropic Messages server on loopback', () => {
  it('forces the heuristics tool, keeps only real episode ids, and filters vague proposals', async () => {
    const { llm, lb } = await anthropic(() => ({ toolInput: proposal }));
    const { accepted, rejected } = await new LlmExtractor(llm).extract(episodes);

    expect(accepted).toHaveLength(1);
    expect(accepted[0]).toMatchObject({
      kind: 'pattern',
      method: 'llm',
      supportingEpisodeIds: ['eps_1', 'eps_2', 'eps_4'],
      contradictingEpisodeIds: ['eps_3'],
      correctedEpisodeIds: ['eps_1'],
    });
    expect(accepted[0]!.key).toMatch(/^heuristic:[0-9a-f]{32}$/);
    // The vague one is rejected by the same filter; the one citing only an unknown id is dropped.
    expect(rejected.map((c) => c.text)).toEqual(['Initial symptom-based diagnosis often leads to misidentifying the root cause.']);
    expect(rejected[0]!.usefulness.checks.specific).toBe(false);

    const body = lb.requests[0]!.body as { tool_choice: { name: string }; messages: { content: string }[] };
    expect(body.tool_choice.name).toBe('heuristics');
    expect(body.messages[0]!.content).toContain('[eps_1] outcome=FAILURE | situation: Checkout API returning 503s');
    expect(body.messages[0]!.content).toContain('correction: Was actually the outbound HTTP client connection cap');
  });

  it('does not call the model with fewer than two episodes', async () => {
    const { llm, lb } = await anthropic(() => ({ toolInput: proposal }));
    expect(await new LlmExtractor(llm).extract(episodes.slice(0, 1))).toEqual({ accepted: [], rejected: [] });
    expect(lb.requests).toHaveLength(0);
  });
});

describe('LlmExtractor fallback', () => {
  it('falls back to the heuristic extractor when the model keeps answering invalid JSON', async () => {
    server = await startLoopback(fakeOpenAi(() => ({ say: '{"heuristics": "none"}' })));
    const llm = createOpenAiCompatibleLlm({ baseUrl: `${server.origin}/v1`, model: 'local' }, { backoff: { baseDelayMs: 1, maxDelayMs: 2 } });
    const got = await new LlmExtractor(llm, { fallback: new HeuristicExtractor() }).extract(episodes);
    expect(got).toEqual(extractHeuristics(episodes));
    expect(server.requests).toHaveLength(2);
  });
});
