import { afterEach, describe, expect, it } from 'vitest';
import { openTestMemory, type TestMemory } from '../../../testing/memory-fixture.js';
import { idKind } from '../../core/ids.js';
import type { Fact } from '../../core/types.js';
import type { Memory } from '../../memory.js';
import { allRoundEvents, MINUTE, T0, tickingClock } from './fixtures.test-support.js';
import { factCauseVerdict, judgeFact } from './reinforce.js';

const QUERY = 'Nightly ETL job for the shipping warehouse failed with out-of-memory errors on spark executors';
const NEW_INCIDENT: { type: 'message' | 'decision'; content: string; ts: number }[] = [
  { type: 'message', content: 'Nightly ETL job for the shipping warehouse failed with out-of-memory errors on spark executors.', ts: T0 + 120 * MINUTE },
  { type: 'decision', content: 'Salted the join key, assuming a skewed join key.', ts: T0 + 121 * MINUTE },
];
/** The same incident happening now (the outcome recordOutcome logs is stamped by the clock). */
const NEW_INCIDENT_NOW = NEW_INCIDENT.map(({ ts: _ts, ...e }) => e);

let tm: TestMemory | undefined;
afterEach(async () => {
  await tm?.cleanup();
  tm = undefined;
});

/** Rounds 1–4 learned; reflection off so the only facts are the extracted heuristics. */
async function learned(): Promise<Memory> {
  tm = await openTestMemory({ learn: { engine: { background: false, reflect: false } } }, tickingClock());
  await tm.memory.logEvents(allRoundEvents());
  await tm.memory.flush();
  return tm.memory;
}

async function heuristic(memory: Memory): Promise<Fact> {
  const facts = await memory.storage.listFacts({ tenant: 'default', now: Date.now() });
  const h = facts.filter((f) => f.kind === 'heuristic' && f.text.includes('join key'));
  expect(h).toHaveLength(1);
  return h[0]!;
}

const context = (memory: Memory, taskId: string, kinds: ('episode' | 'fact')[] = ['episode', 'fact']) =>
  memory.getContext(QUERY, { task_id: taskId, episodic_window: { mode: 'none' }, semantic_retrieval: { top_k: 4, kinds } });

describe('recordOutcome: the reinforcement loop on SQLite', () => {
  it('closes the outcome episode in the retrieval’s stream and links it to exactly the retrieved items', async () => {
    const memory = await learned();
    const fact = await heuristic(memory);
    const ctx = await context(memory, 'inc-7');
    const retrieved = ctx.items.map((i) => i.id);
    expect(retrieved).toContain(fact.id);
    await memory.logEvents(NEW_INCIDENT_NOW.map((e) => ({ ...e, taskId: 'inc-7' })));
    const report = await memory.recordOutcome(ctx.retrievalId, 'FAILURE', {
      correction: 'Not join key skew: the upgrade halved the executor memory limit again.',
      rootCause: 'The cluster upgrade halved the executor memory limit.',
    });

    // The outcome episode: the task's events plus the outcome and correction, closed, labelled.
    const ep = report.episode;
    expect(ep.closed).toBe(true);
    expect(ep.outcome).toBe('FAILURE');
    expect(ep.taskId).toBe('inc-7');
    expect(ep.eventIds).toHaveLength(NEW_INCIDENT.length + 2);
    expect(ep.eventIds.slice(-2)).toEqual(report.eventIds);
    expect(ep.rootCause).toBe('The cluster upgrade halved the executor memory limit');
    expect(ep.corrections).toHaveLength(1);

    // LED_TO from exactly the retrieved episodes and facts.
    const ledTo = await memory.storage.getLinks({ tenant: 'default', ids: [ep.id], direction: 'in', types: ['LED_TO'] });
    expect(ledTo.map((l) => l.fromId).sort()).toEqual([...retrieved].sort());
    expect(report.retrievedEpisodeIds.sort()).toEqual(retrieved.filter((id) => idKind(id) === 'episode').sort());
    expect(report.retrievedFactIds).toEqual(retrieved.filter((id) => idKind(id) === 'fact'));

    // The heuristic blamed join key skew; the correction says that was mistaken: contradicted, and linked so.
    const f = report.facts.find((x) => x.factId === fact.id)!;
    expect(f).toMatchObject({ polarity: 'contradict', reason: 'its claim names what the correction says was mistaken' });
    expect(f.confidence).toBeLessThan(fact.confidence);
    const contradicted = await memory.storage.getLinks({ tenant: 'default', ids: [ep.id], direction: 'out', types: ['CONTRADICTED'] });
    expect(contradicted.map((l) => l.toId)).toEqual([fact.id]);
    const evidence = await memory.storage.getFactEvidence('default', fact.id);
    expect(evidence.filter((e) => e.episodeId === ep.id).map((e) => e.polarity)).toEqual(['contradict']);

    // LEARNED_FROM to the retrieved episodes whose root cause the correction revises (join key skew), only.
    const learnedFrom = report.links.filter((l) => l.type === 'LEARNED_FROM').map((l) => l.toId);
    const retrievedEpisodes = await memory.storage.getEpisodes('default', report.retrievedEpisodeIds);
    const skewed = retrievedEpisodes.filter((e) => /join key/i.test(e.rootCause ?? '')).map((e) => e.id);
    expect(skewed.length).toBeGreaterThan(0);
    expect(learnedFrom.sort()).toEqual(skewed.sort());

    await expect(memory.recordOutcome(ctx.retrievalId, 'MAYBE' as never)).rejects.toMatchObject({ code: 'VALIDATION', issues: [{ path: 'outcome' }] });
    await expect(memory.recordOutcome('ret_01J00000000000000000000000', 'SUCCESS')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('a fact contradicted enough gets a new version with lower confidence; the old version stays', async () => {
    const memory = await learned();
    const v1 = await heuristic(memory);
    // Extraction: supported by rounds 1 and 3, contradicted by round 4 — (2 + 2) / (2 + 1 + 2 + 1) = 0.67.
    expect(v1).toMatchObject({ version: 1, supportCount: 2, contradictCount: 1 });
    expect(v1.confidence).toBeCloseTo(4 / 6, 5);
    const expected = [4 / 7, 4 / 8];
    for (let k = 0; k < 3; k++) {
      const ctx = await context(memory, `try-${k}`, ['fact']);
      expect(ctx.items.map((i) => i.id)).toEqual([k === 0 ? v1.id : v1.id]);
      await memory.logEvent({ taskId: `try-${k}`, type: 'decision', content: `Applied the join key heuristic, attempt ${k}.`, ts: T0 + (200 + k) * MINUTE });
      const report = await memory.recordOutcome(ctx.retrievalId, 'FAILURE');
      const update = report.facts[0]!;
      if (k < 2) {
        expect(update.revisedFrom).toBeUndefined();
        expect(update.confidence).toBeCloseTo(expected[k]!, 5);
      } else {
        // 4 / 9 < 0.5 with contradictions that arrived after v1: revised.
        expect(update.revisedFrom).toBe(v1.id);
        expect(update.confidence).toBeCloseTo(4 / 9, 5);
      }
    }
    const history = await memory.factHistory(v1.key);
    expect(history.map((f) => f.version)).toEqual([1, 2]);
    const [old, next] = history as [Fact, Fact];
    expect(old.id).toBe(v1.id);
    expect(old.text).toBe(v1.text);
    expect(old.expiredAt).toBeDefined();
    expect(next.supersedes).toBe(v1.id);
    expect(next.expiredAt).toBeUndefined();
    expect(next.confidence).toBeLessThan(old.confidence);
    expect(next.text.startsWith(v1.text)).toBe(true);
    expect(next.text).toMatch(/Revised: confidence 0\.44 after 4 contradicting episode/);
    // The old version is still there by id; the live one is what retrieval sees now.
    expect((await memory.getFact(v1.id)).version).toBe(1);
    const after = await context(memory, 'after', ['fact']);
    expect(after.items[0]!.fact).toMatchObject({ key: v1.key, version: 2, contradictCount: 4 });
  });

  it('takes outcome signals arriving as events (a CI result three hours later): metadata.outcome and metadata.retrieval_id', async () => {
    const memory = await learned();
    const fact = await heuristic(memory);
    const ctx = await context(memory, 'ci-1');
    await memory.logEvents([
      ...NEW_INCIDENT.map((e) => ({ ...e, taskId: 'ci-1' })),
      { taskId: 'ci-1', type: 'outcome', actor: 'tool', content: 'CI pipeline #812 green: nightly ETL rerun passed.', metadata: { outcome: 'success', retrieval_id: ctx.retrievalId }, ts: T0 + 301 * MINUTE },
    ]);
    await memory.flush();
    const [ep] = await memory.learn.episodes({ scope: { taskId: 'ci-1' } });
    expect(ep).toMatchObject({ closed: true, outcome: 'SUCCESS', endTs: T0 + 301 * MINUTE });
    expect(ep!.eventIds).toHaveLength(3);
    const ledTo = await memory.storage.getLinks({ tenant: 'default', ids: [ep!.id], direction: 'in', types: ['LED_TO'] });
    expect(ledTo.map((l) => l.fromId).sort()).toEqual(ctx.items.map((i) => i.id).sort());
    const evidence = await memory.storage.getFactEvidence('default', fact.id);
    expect(evidence.find((e) => e.episodeId === ep!.id)).toMatchObject({ polarity: 'support', weight: 1 });
  });
});

describe('judgeFact', () => {
  const fact = 'When a report mentions ETL and executors, check skewed join key on null customer ids.';
  const counter = 'When a report mentions the upgrade, suspect the executor memory limit, not a skewed join key.';
  it('follows the outcome when nothing else is known', () => {
    expect(judgeFact(fact, 'SUCCESS')).toMatchObject({ polarity: 'support', strength: 1 });
    expect(judgeFact(fact, 'FAILURE')).toMatchObject({ polarity: 'contradict', strength: 1 });
    expect(judgeFact(fact, 'PARTIAL')).toMatchObject({ polarity: 'support', strength: 0.5 });
    expect(judgeFact(fact, 'UNKNOWN')).toBeUndefined();
  });
  it('judges the claim against the root cause and the correction before the outcome', () => {
    // The decision failed, but the fact named the actual cause: support.
    expect(judgeFact(fact, 'FAILURE', { rootCause: 'Skewed join key from null customer ids.' })?.polarity).toBe('support');
    // A fact that says "not X" agrees with a correction saying X was mistaken.
    expect(judgeFact(counter, 'FAILURE', { correction: 'Not a skewed join key: the executor memory limit was halved.' })?.polarity).toBe('support');
    expect(judgeFact(fact, 'SUCCESS', { correction: 'Not a skewed join key: the executor memory limit was halved.' })?.polarity).toBe('contradict');
    // Retrieved for an incident with another established cause, and silent about it: it did not apply.
    expect(judgeFact(fact, 'SUCCESS', { rootCause: 'A bad config change set the timeout to 1ms.' })).toMatchObject({ polarity: 'contradict', strength: 0.5 });
  });
});

describe('judgeFact: credit only for the cause the fact claims', () => {
  const rule = 'When a report mentions the gateway, check a cache eviction storm on the gateway nodes.';
  it('leaves the condition\'s words out of the comparison with the established cause', () => {
    // "gateway" is in every report the rule is retrieved for: sharing it says nothing about the cause.
    expect(judgeFact(rule, 'SUCCESS', { rootCause: 'The gateway certificate expired overnight.' })).toMatchObject({ polarity: 'contradict', strength: 0.5 });
  });
  it('decides a success whose cause shares only some of the claim\'s words by whether it is the cause the rule was learned from', () => {
    const rootCause = 'A cache warmup job saturated the disks.';
    expect(judgeFact(rule, 'SUCCESS', { rootCause, sameCause: true })).toMatchObject({ polarity: 'support', strength: 1 });
    expect(judgeFact(rule, 'PARTIAL', { rootCause, sameCause: true })).toMatchObject({ polarity: 'support', strength: 0.5 });
    expect(judgeFact(rule, 'SUCCESS', { rootCause, sameCause: false })).toMatchObject({ polarity: 'contradict', strength: 0.5 });
    expect(judgeFact(rule, 'SUCCESS', { rootCause })).toBeUndefined();
    // A failure still counts against it.
    expect(judgeFact(rule, 'FAILURE', { rootCause })).toMatchObject({ polarity: 'contradict', strength: 1 });
  });
  it('does not credit one shared word when the causes differ in meaning', () => {
    const short = 'When a report mentions the gateway, check eviction storm.';
    const rootCause = 'A memory leak forced an eviction of the sidecar.';
    expect(judgeFact(short, 'SUCCESS', { rootCause })?.polarity).toBe('support');
    expect(judgeFact(short, 'SUCCESS', { rootCause, sameCause: false })).toMatchObject({ polarity: 'contradict', strength: 0.5 });
    // Two of its words named: supported whatever the vectors say.
    expect(judgeFact(short, 'SUCCESS', { rootCause: 'An eviction storm after the deploy.', sameCause: false })?.polarity).toBe('support');
  });
});

describe('factCauseVerdict', () => {
  const vec = (...xs: number[]) => Float32Array.from(xs);
  const causes: Record<string, Float32Array> = {
    'Cache eviction storm on the gateway nodes.': vec(1, 0, 0),
    'The gateway nodes evicted their caches in a storm.': vec(0.95, 0.3, 0),
    'The gateway certificate expired overnight.': vec(0, 0, 1),
  };
  const ctx = {
    storage: {
      getEpisodes: async (_t: string, ids: readonly string[]) => ids.map((id) => ({ id, rootCause: id === 'ep_a' ? 'Cache eviction storm on the gateway nodes.' : undefined })),
      getEmbeddings: async () => new Map<string, Float32Array>(),
    },
    embedder: { embed: async (texts: readonly string[]) => texts.map((t) => causes[t] ?? vec(0, 1, 0)) },
    onError: () => undefined,
  } as unknown as Parameters<typeof factCauseVerdict>[0];
  const fact = { provenance: { origin: 'extraction', episodeIds: ['ep_a', 'ep_b'] } } as unknown as Parameters<typeof factCauseVerdict>[2];
  it('compares the established cause with the causes of the episodes the fact was learned from, by meaning', async () => {
    expect(await factCauseVerdict(ctx, 't', fact, 'The gateway nodes evicted their caches in a storm.')).toBe(true);
    expect(await factCauseVerdict(ctx, 't', fact, 'The gateway certificate expired overnight.')).toBe(false);
  });
  it('knows nothing without a cause or a source episode with one', async () => {
    expect(await factCauseVerdict(ctx, 't', fact, undefined)).toBeUndefined();
    const bare = { provenance: { origin: 'reflection', eventIds: ['evt_1'] } } as unknown as Parameters<typeof factCauseVerdict>[2];
    expect(await factCauseVerdict(ctx, 't', bare, 'The gateway certificate expired overnight.')).toBeUndefined();
  });
});
