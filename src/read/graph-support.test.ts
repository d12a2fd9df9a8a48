import { afterEach, describe, expect, it } from 'vitest';
import { openTestMemory, type TestMemory } from '../surfaces/mcp/memory.test-support.js';
import { eventCandidate, makeEvent } from './fixtures.test-support.js';
import type { GraphHit } from './graph.js';
import { withGraphSupport, type SupportRequest } from './graph-support.js';
import type { Candidate, ReadDeps } from './types.js';

let t: TestMemory | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const NO_WINDOW = { episodic_window: { mode: 'none' as const } };

describe('graph support in getContext', () => {
  it('"look like" asks for no liking: the statement search ranked first keeps its place', async () => {
    t = await openTestMemory();
    await t.memory.logEvents([
      { type: 'message', name: 'Dana', content: 'I love hiking with my dog on weekends.', ts: '2025-01-01T10:00:00Z' },
      { type: 'message', name: 'Dana', content: 'My ideal garden would look like a quiet meadow with a pond.', ts: '2025-01-02T10:00:00Z' },
      { type: 'message', name: 'Eli', content: 'I bought new tomato seeds yesterday.', ts: '2025-01-03T10:00:00Z' },
    ]);
    await t.memory.flush();
    const query = 'What does Dana think her ideal garden should look like?';
    const ranked = await t.memory.search({ query, k: 3 });
    expect(ranked[0]!.doc.text).toContain('ideal garden');
    const ctx = await t.memory.getContext(query, { ...NO_WINDOW, semantic_retrieval: { top_k: 3 } });
    expect(ctx.entities?.map((e) => e.text) ?? []).not.toContain('Dana likes hiking');
    expect(ctx.items[0]!.text).toContain('ideal garden');
    // Asked for what she likes, the one relation of that type is the answer and shows.
    const likes = await t.memory.getContext('What does Dana like doing on weekends?', { ...NO_WINDOW, semantic_retrieval: { top_k: 3 } });
    expect(likes.entities?.map((e) => e.text)).toContain('Dana likes hiking');
  });

  it('a relation matched by type alone lifts its statement when it is the only one of its type, not when there are several', async () => {
    t = await openTestMemory();
    const [job] = await t.memory.logEvents([
      { type: 'message', name: 'Jonah', content: 'I work at Crumb & Co these days.', ts: '2025-01-01T10:00:00Z' },
      { type: 'message', name: 'Mia', content: 'Jonah asked me which company employs the most bakers in town.', ts: '2025-01-02T10:00:00Z' },
    ]);
    await t.memory.flush();
    const query = 'Which company employs Jonah?';
    const first = (await t.memory.search({ query, k: 2 }))[0]!.doc.refId;
    expect(first).not.toBe(job!.id);
    const one = await t.memory.getContext(query, { ...NO_WINDOW, semantic_retrieval: { top_k: 2 } });
    expect(one.entities?.[0]?.text).toBe('Jonah works at Crumb & Co');
    expect(one.items[0]!.id).toBe(job!.id);

    await t.memory.logEvents([{ type: 'message', name: 'Jonah', content: 'I also work at Tidewater Books on Sundays.', ts: '2025-01-03T10:00:00Z' }]);
    await t.memory.flush();
    const searched = (await t.memory.search({ query, k: 3 })).map((h) => h.doc.refId);
    const two = await t.memory.getContext(query, { ...NO_WINDOW, semantic_retrieval: { top_k: 3 } });
    // Two `works_at` relations: both show, neither is lifted over what search ranked first.
    expect(two.entities!.map((e) => e.text).filter((x) => x.includes('works at')).length).toBe(2);
    expect(two.items[0]!.id).toBe(searched[0]);
  });

  it('a common word made an entity ("running") is not named by a query that uses the word', async () => {
    t = await openTestMemory();
    await t.memory.logEvents([
      { type: 'message', name: 'Jon', content: 'I love running my own studio.', ts: '2025-01-01T10:00:00Z' },
      { type: 'message', name: 'Gina', content: 'Jon, for running a business: keep your books tidy and answer every customer fast.', ts: '2025-01-02T10:00:00Z' },
    ]);
    await t.memory.flush();
    const query = 'What advice does Gina give to Jon about running a business?';
    const searched = (await t.memory.search({ query, k: 2 })).map((h) => h.doc.refId);
    const ctx = await t.memory.getContext(query, { ...NO_WINDOW, semantic_retrieval: { top_k: 2 } });
    expect(ctx.entities?.map((e) => e.text) ?? []).not.toContain('Jon likes running');
    expect(ctx.items.map((i) => i.id)).toEqual(searched);
  });

  it('a relation read in the direction the query says still lifts its statement first', async () => {
    t = await openTestMemory();
    const [, carol] = await t.memory.logEvents([
      { type: 'note', content: 'Alice manages Bob and meets him about the manager handbook weekly.', ts: '2025-01-01T10:00:00Z' },
      { type: 'note', content: 'Carol manages Alice.', ts: '2025-01-02T10:00:00Z' },
    ]);
    await t.memory.flush();
    const ctx = await t.memory.getContext("Who is Alice's manager?", { ...NO_WINDOW, semantic_retrieval: { top_k: 2 } });
    expect(ctx.items[0]!.id).toBe(carol!.id);
  });
});

describe('withGraphSupport', () => {
  // Every supporting event is already ranked: storage is never read. `final` is relevance itself at rescoring.
  const deps = { storage: { getEvents: async () => [] } } as unknown as ReadDeps;
  const req: SupportRequest = {
    tenant: 't',
    scope: {},
    scoreNew: () => {
      throw new Error('no event should join');
    },
    rescore: (_c: Candidate, relevance: number) => relevance,
  };
  const hit = (eventIds: string[], precise: boolean) => ({ strong: true, precise, relation: { provenance: { eventIds } } }) as unknown as GraphHit;
  const ranked = (...rows: [string, number][]) => rows.map(([id, final]) => {
    const c = eventCandidate(makeEvent({ id, content: id }), { origin: 'semantic', final });
    return { ...c, scores: { ...c.scores, relevance: final } };
  });

  it('names the lift of a precise hit above the best score in the breakdown: final is the rescored score plus `graph`', async () => {
    const out = await withGraphSupport(deps, req, ranked(['best', 0.9], ['support', 0.2]), [hit(['support'], true)]);
    expect(out.map((c) => c.doc.refId)).toEqual(['support', 'best']);
    const lifted = out[0]!;
    // Rescored at the best relevance (0.9), then put a hair above the best final score.
    expect(lifted.scores.relevance).toBe(0.9);
    expect(lifted.scores.graph).toBeCloseTo(0.001, 9);
    expect(lifted.scores.final).toBeCloseTo(0.9 + lifted.scores.graph!, 12);
    expect(out[1]!.scores.graph).toBeUndefined();
  });

  it('a hit that is not precise only raises relevance: the rescored score is final, and no `graph` lift is named', async () => {
    const out = await withGraphSupport(deps, req, ranked(['best', 0.9], ['support', 0.2]), [hit(['support'], false)]);
    const support = out.find((c) => c.doc.refId === 'support')!;
    expect(support.scores.final).toBe(0.9);
    expect(support.scores.graph).toBeUndefined();
  });
});
