import { afterEach, describe, expect, it } from 'vitest';
import { fakeOpenAi } from '../adapters/llms/fake-protocols.test-support.js';
import { startLoopback, type Loopback } from '../adapters/llms/loopback.test-support.js';
import { createOpenAiCompatibleLlm } from '../adapters/llms/openai-compatible.js';
import { incidentStream, makeEvent, T0 } from './fixtures.test-support.js';
import { LlmReflector } from './reflection-llm.js';
import { entitiesOf, HeuristicReflector, reflectHeuristically, ReflectionTrigger } from './reflection.js';

const MIN = 60_000;
const many = (n: number, importance: number, agentId = 'a1') =>
  Array.from({ length: n }, (_, i) => makeEvent(i + 1, 'note', `n${i}`, T0 + i * MIN, { importance, agentId }));

describe('ReflectionTrigger', () => {
  it('fires when accumulated importance reaches 15 (150 on a 1–10 scale) and starts counting again', () => {
    const t = new ReflectionTrigger();
    const evs = many(61, 0.5);
    const fired = evs.map((e) => t.observe(e)).flatMap((r, i) => (r ? [[i, r] as const] : []));
    expect(fired.map(([i]) => i)).toEqual([29, 59]);
    const [, first] = fired[0]!;
    expect(first).toMatchObject({ importanceSum: 15, triggeredBy: 'evt_0030', fromSeq: 1, toSeq: 30 });
    expect(first.eventIds).toHaveLength(30);
    expect(t.pending(first.key)).toBeCloseTo(0.5, 6);
  });

  it('reflects over at most windowSize recent events', () => {
    const t = new ReflectionTrigger({ importanceThreshold: 10, windowSize: 4 });
    const got = many(10, 1).map((e) => t.observe(e)).find(Boolean)!;
    expect(got.eventIds).toEqual(['evt_0007', 'evt_0008', 'evt_0009', 'evt_0010']);
    expect(got.fromSeq).toBe(7);
  });

  it('keeps agents apart, and restores from its state', () => {
    const t = new ReflectionTrigger({ importanceThreshold: 3 });
    const a = many(2, 1, 'a1');
    const b = many(2, 1, 'b7').map((e) => ({ ...e, id: `${e.id}b` }));
    expect([...a, ...b].map((e) => t.observe(e)).every((r) => r === undefined)).toBe(true);
    const resumed = ReflectionTrigger.restore(t.state(), { importanceThreshold: 3 });
    const r = resumed.observe(makeEvent(3, 'note', 'x', T0, { importance: 1, agentId: 'b7' }));
    expect(r!.eventIds).toEqual(['evt_0001b', 'evt_0002b', 'evt_0003']);
  });

  it('clamps importance outside 0..1', () => {
    const t = new ReflectionTrigger({ importanceThreshold: 2 });
    expect(t.observe(makeEvent(1, 'note', 'x', T0, { importance: 7 }))).toBeUndefined();
    expect(t.observe(makeEvent(2, 'note', 'y', T0, { importance: 1 }))).toBeDefined();
  });
});

describe('HeuristicReflector', () => {
  it('on the incident log: the failures, the repeated corrections and what was believed instead', async () => {
    const { events } = incidentStream();
    const insights = await new HeuristicReflector().reflect(events);
    const failures = insights.find((i) => i.kind === 'recurring_outcome' && i.text.includes('failed'))!;
    const failedIds = events.filter((e) => e.type === 'outcome' && e.content.startsWith('Outcome: failure')).map((e) => e.id);
    expect(failures.text).toMatch(/^3 of the last 6 outcomes failed/);
    expect(failures.evidenceIds).toEqual(failedIds);
    const corrections = insights.find((i) => i.kind === 'repeated_correction')!;
    expect(corrections.text).toContain('Corrected 3 times recently; believed instead: a memory leak; the connection cap');
    expect(corrections.evidenceIds).toEqual(events.filter((e) => e.type === 'correction').map((e) => e.id));
    expect(insights.length).toBeLessThanOrEqual(5);
  });

  it('names a recurring entity with how its events went', () => {
    const evs = [
      makeEvent(1, 'error', 'billing-worker crashed with OOM while exporting invoices', T0, { importance: 0.8 }),
      makeEvent(2, 'outcome', 'Outcome: failure. billing-worker restarted but crashed again exporting invoices', T0 + MIN, { importance: 0.8 }),
      makeEvent(3, 'note', 'Invoices export for billing-worker resumed after raising the heap limit', T0 + 2 * MIN, { importance: 0.4 }),
      makeEvent(4, 'message', 'Lunch menu for Friday', T0 + 3 * MIN, { importance: 0.1 }),
    ];
    const [insight] = reflectHeuristically(evs).filter((i) => i.kind === 'recurring_entity');
    expect(insight!.text).toBe('billing-worker recurs in 3 recent events (1 failed outcome, 1 error), usually with exporting, invoices, crashed.');
    expect(insight!.evidenceIds).toEqual(['evt_0001', 'evt_0002', 'evt_0003']);
    expect(insight!.importance).toBeCloseTo(2 / 3, 3);
  });

  it('finds identifiers, mid-sentence names and tools, but not sentence-initial words or bare versions', () => {
    expect(entitiesOf({ content: 'Rolled back orders_db to v2.4 after Postgres logged 1.2.3 errors.', tool: 'kubectl' }).sort()).toEqual(
      ['Postgres', 'kubectl', 'orders_db', 'v2.4'].sort(),
    );
  });

  it('says nothing about what does not recur', () => {
    expect(reflectHeuristically([makeEvent(1, 'note', 'the api-gateway is fine', T0), makeEvent(2, 'note', 'api-gateway still fine', T0)])).toEqual([]);
  });
});

describe('LlmReflector', () => {
  let server: Loopback | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('maps cited event numbers to ids and drops insights that cite nothing real', async () => {
    const reply = {
      insights: [
        { text: 'Capacity limits of outbound HTTP clients caused most failures.', evidence: [1, 3, 99, 3] },
        { text: 'Unsupported claim.', evidence: [0, 42] },
      ],
    };
    server = await startLoopback(fakeOpenAi(() => ({ say: JSON.stringify(reply) })));
    const llm = createOpenAiCompatibleLlm({ baseUrl: `${server.origin}/v1`, model: 'local' });
    const evs = [
      makeEvent(1, 'outcome', 'Outcome: failure', T0, { importance: 0.8 }),
      makeEvent(2, 'note', 'noise', T0, { importance: 0.2 }),
      makeEvent(3, 'correction', 'It was the HTTP client cap', T0, { importance: 0.9 }),
    ];
    const insights = await new LlmReflector(llm).reflect(evs);
    expect(insights).toEqual([{ kind: 'llm', text: reply.insights[0]!.text, evidenceIds: ['evt_0001', 'evt_0003'], importance: 0.85 }]);
    const prompt = (server.requests[0]!.body as { messages: { role: string; content: string }[] }).messages.find((m) => m.role === 'user')!.content;
    expect(prompt).toContain('3. [correction] It was the HTTP client cap');
  });
});
