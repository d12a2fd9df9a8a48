import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestMemory, type TestMemory } from '../../../testing/memory-fixture.js';
import { isEngramError } from '../../core/errors.js';
import type { Episode, Link } from '../../core/types.js';
import { allRoundEvents, MINUTE, ROUNDS, roundEvents, T0, tickingClock } from './fixtures.test-support.js';

/** Round 5 retries round 1 (same billing ETL, same failure). */
const RETRY = { ...ROUNDS[0]!, report: 'Nightly ETL job for the billing warehouse failed again with out-of-memory errors on the spark executors.', correction: undefined };

describe('episodic graph on SQLite: automatic and explicit links, causal chains', () => {
  let tm: TestMemory;
  let eps: Episode[];
  const linksOf = async (id: string): Promise<Link[]> => tm.memory.learn.links(id);

  beforeAll(async () => {
    tm = await openTestMemory({ learn: { engine: { background: false } } }, tickingClock());
    await tm.memory.logEvents(allRoundEvents());
    await tm.memory.logEvents(roundEvents(RETRY, T0 + 60 * MINUTE));
    await tm.memory.flush();
    eps = await tm.memory.learn.episodes({ order: 'asc' });
  });
  afterAll(async () => {
    await tm.cleanup();
  });

  it('RETRY_OF joins a new episode to earlier FAILED episodes with a similar situation, most similar first', async () => {
    expect(eps).toHaveLength(5);
    const retries = (await linksOf(eps[4]!.id)).filter((l) => l.type === 'RETRY_OF' && l.fromId === eps[4]!.id);
    expect(retries.map((l) => l.toId)).toContain(eps[0]!.id);
    // Only failed episodes are retried: the successful orders-warehouse run and the dashboard incident are not.
    expect(retries.map((l) => l.toId)).not.toContain(eps[2]!.id);
    expect(retries.map((l) => l.toId)).not.toContain(eps[1]!.id);
    const toFirst = retries.find((l) => l.toId === eps[0]!.id)!;
    expect(toFirst.weight).toBeGreaterThanOrEqual(0.82);
    expect(Math.max(...retries.map((l) => l.weight))).toBe(toFirst.weight);
    expect(toFirst.evidence).toMatch(/^situation cosine/);
    // The dashboard incident resembles no failure.
    expect((await linksOf(eps[1]!.id)).filter((l) => l.type === 'RETRY_OF')).toEqual([]);
  });

  it('LEARNED_FROM joins a correction to the earlier episodes whose root cause it says was mistaken', async () => {
    // Round 4: "Not join key skew: …" revises the lesson of rounds 1 and 3 (both blamed join key skew).
    const learned = (await linksOf(eps[3]!.id)).filter((l) => l.type === 'LEARNED_FROM' && l.fromId === eps[3]!.id);
    expect(learned.map((l) => l.toId).sort()).toEqual([eps[0]!.id, eps[2]!.id].sort());
    // Round 1's correction ("… not input volume") names no earlier root cause.
    expect((await linksOf(eps[0]!.id)).filter((l) => l.type === 'LEARNED_FROM' && l.fromId === eps[0]!.id)).toEqual([]);
  });

  it('CAUSED_BY comes from metadata.caused_by; explicit links are validated and stored as explicit', async () => {
    const [report] = await tm.memory.fetchEvents({ sessionId: 'ops', limit: 100 }).then((evs) => evs.filter((e) => e.content === ROUNDS[3]!.report));
    await tm.memory.logEvents([
      { sessionId: 'postmortem', type: 'note', content: 'Postmortem: upgrade runbook must pin executor memory settings.', metadata: { caused_by: report!.id }, ts: T0 + 90 * MINUTE },
      { sessionId: 'postmortem', type: 'decision', content: 'Added executor memory to the upgrade checklist.', metadata: { episode: 'end' }, ts: T0 + 91 * MINUTE },
    ]);
    await tm.memory.flush();
    const [pm] = await tm.memory.learn.episodes({ scope: { sessionId: 'postmortem' } });
    const caused = (await linksOf(pm!.id)).filter((l) => l.type === 'CAUSED_BY');
    expect(caused.map((l) => [l.fromId, l.toId])).toEqual([[pm!.id, eps[3]!.id]]);

    const explicit = await tm.memory.learn.link({ type: 'LED_TO', fromId: eps[1]!.id, toId: pm!.id, weight: 0.4, evidence: 'reviewer said so' });
    expect(explicit).toMatchObject({ type: 'LED_TO', origin: 'explicit', weight: 0.4 });
    const again = await tm.memory.learn.link({ type: 'LED_TO', fromId: eps[1]!.id, toId: pm!.id, weight: 0.9 });
    expect(again).toMatchObject({ id: explicit.id, origin: 'reinforced', weight: 0.9 });

    const bad = [
      [{ type: 'CAUSES', fromId: eps[1]!.id, toId: pm!.id }, 'VALIDATION', 'type'],
      [{ type: 'LED_TO', fromId: eps[1]!.id, toId: eps[1]!.id }, 'VALIDATION', 'toId'],
      [{ type: 'LED_TO', fromId: 'not-an-id', toId: pm!.id }, 'VALIDATION', 'fromId'],
      [{ type: 'LED_TO', fromId: eps[1]!.id, toId: 'eps_01J00000000000000000000000' }, 'NOT_FOUND', 'toId'],
    ] as const;
    for (const [input, code, path] of bad) {
      const err = await tm.memory.learn.link(input as never).catch((e: unknown) => e);
      expect(isEngramError(err, code)).toBe(true);
      expect((err as { issues: { path: string }[] }).issues[0]!.path).toBe(path);
    }
  });

  it('causalChain tells the linked episodes in time order with the link that joins each step', async () => {
    const chain = await tm.memory.learn.causalChain(eps[4]!.id);
    expect(chain.episodeIds[0]).toBe(eps[0]!.id);
    expect(chain.episodeIds).toContain(eps[3]!.id);
    expect(chain.episodeIds.at(-1)).not.toBe(eps[0]!.id);
    const starts = await tm.memory.storage.getEpisodes('default', chain.episodeIds);
    const byId = new Map(starts.map((e) => [e.id, e.startTs]));
    const times = chain.episodeIds.map((id) => byId.get(id)!);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(chain.steps.every((s) => s.via !== null)).toBe(true);
    expect(chain.steps.find((s) => s.episodeId === eps[4]!.id)!.via).toBe('RETRY_OF');
    expect(chain.steps[0]!.label).toMatch(/billing warehouse .*\[FAILURE, corrected\]$/);
    expect(chain.narrative).toBe(chain.steps.map((s) => s.label).join(' → '));
    // An episode nothing links to tells only itself.
    const alone = await tm.memory.learn.causalChain(eps[1]!.id);
    expect(alone.episodeIds.length).toBeGreaterThanOrEqual(1);
    await expect(tm.memory.learn.causalChain('eps_01J00000000000000000000000')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
