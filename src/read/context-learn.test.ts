/**
 * Outcome-aware retrieval end to end: episodes learned by the engine from a real timeline (SQLite, USE-lite),
 * read back through `memory.getContext`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestMemory, type TestMemory } from '../../testing/memory-fixture.js';
import type { ContextConfigInput } from '../core/config.js';
import type { Episode } from '../core/types.js';
import { allRoundEvents, tickingClock } from '../learn/engine/fixtures.test-support.js';
import { HOP_DISCOUNT } from './hops.js';

const QUERY = 'Nightly ETL job for the shipping warehouse failed with out-of-memory errors on spark executors';
const learned = (over: ContextConfigInput = {}): ContextConfigInput => ({
  episodic_window: { mode: 'none' },
  ...over,
  semantic_retrieval: { top_k: 5, kinds: ['episode', 'fact'], ...over.semantic_retrieval },
});

describe('buildContext over learned memory (SQLite + USE-lite)', () => {
  let tm: TestMemory;
  let eps: Episode[];

  beforeAll(async () => {
    tm = await openTestMemory({ learn: { engine: { background: false, reflect: false } } }, tickingClock());
    await tm.memory.logEvents(allRoundEvents());
    await tm.memory.flush();
    eps = await tm.memory.learn.episodes({ order: 'asc' });
  });
  afterAll(async () => {
    await tm.cleanup();
  });

  it('returns every episode with its outcome label, corrections and links, and facts with confidence', async () => {
    const r = await tm.memory.getContext(QUERY, learned());
    const episodes = r.items.filter((i) => i.kind === 'episode');
    expect(episodes.length).toBeGreaterThanOrEqual(3);
    for (const item of episodes) {
      expect(item.episode).toBeDefined();
      expect(['SUCCESS', 'FAILURE', 'PARTIAL', 'UNKNOWN']).toContain(item.episode!.outcome);
      expect(item.text.startsWith(`[OUTCOME: ${item.episode!.outcome}]`)).toBe(true);
      expect(r.text).toContain(item.text);
    }
    const round4 = episodes.find((i) => i.id === eps[3]!.id)!;
    expect(round4.episode!.corrections[0]).toMatch(/^Not join key skew/);
    expect(round4.text).toContain('Correction: Not join key skew');
    expect(round4.episode!.links).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'LEARNED_FROM', direction: 'out', otherId: eps[0]!.id })]));
    // Outcome-aware: the corrected failures score an outcome bonus; the counter-example is a success.
    expect(round4.scores.outcome).toBeGreaterThan(0);
    const fact = r.items.find((i) => i.kind === 'fact')!;
    const stored = await tm.memory.getFact(fact.id);
    expect(fact.fact).toEqual({ key: stored.key, version: stored.version, confidence: stored.confidence, supportCount: stored.supportCount, contradictCount: stored.contradictCount, kind: 'heuristic' });
    expect(fact.text).toMatch(/\(confidence 0\.67; supported by 2 episodes, contradicted by 1; v1\)$/);
  });

  it('reserves the counter-example: the best success among failures, kept under a tight budget', async () => {
    const full = await tm.memory.getContext(QUERY, learned());
    expect(full.counterExampleId).toBeDefined();
    const counter = full.items.find((i) => i.id === full.counterExampleId)!;
    expect(counter.section).toBe('counter_example');
    expect(counter.episode!.outcome).toBe('SUCCESS');
    expect(full.text).toContain('## Counter-example');
    // The others score higher; a budget with room for about one item keeps the counter-example, not them.
    const semantic = full.items.filter((i) => i.section === 'semantic');
    expect(Math.max(...semantic.map((i) => i.scores.final))).toBeGreaterThan(counter.scores.final);
    const tight = await tm.memory.getContext(QUERY, learned({ merge_policy: { token_budget: 130 } }));
    expect(tight.counterExampleId).toBe(full.counterExampleId);
    expect(tight.items.map((i) => i.id)).toContain(full.counterExampleId);
    expect(tight.dropped).toBeGreaterThan(0);
    expect(tight.tokens.used).toBeLessThanOrEqual(130);
  });

  it('adds a causal chain section through the retrieved episodes', async () => {
    const r = await tm.memory.getContext(QUERY, learned());
    expect(r.causalChains!.length).toBeGreaterThan(0);
    const chain = r.causalChains![0]!;
    expect(chain.episodeIds.length).toBeGreaterThanOrEqual(2);
    expect(r.items.some((i) => chain.episodeIds.includes(i.id))).toBe(true);
    expect(r.text).toContain(`## Causal chain\n<memory>\n- ${chain.narrative}\n</memory>`);
  });

  it('lets 1-hop graph neighbours of the top episodes join at a discount', async () => {
    const grafana = eps[1]!;
    await tm.memory.learn.link({ type: 'LED_TO', fromId: grafana.id, toId: eps[2]!.id, weight: 1 });
    const r = await tm.memory.getContext('Grafana dashboards show no data for the checkout service', {
      episodic_window: { mode: 'none' },
      semantic_retrieval: { top_k: 3, kinds: ['episode'], candidates: 1, reranker: { enabled: false } },
    });
    const seed = r.items.find((i) => i.id === grafana.id)!;
    const hop = r.items.find((i) => i.id === eps[2]!.id)!;
    expect(seed).toBeDefined();
    expect(hop).toBeDefined();
    expect(hop.scores.vector).toBeNull();
    expect(hop.scores.relevance).toBeCloseTo(HOP_DISCOUNT * seed.scores.relevance!, 6);
    expect(hop.episode!.links.some((l) => l.type === 'LED_TO' && l.otherId === grafana.id)).toBe(true);
  });
});
