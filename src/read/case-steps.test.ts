import { describe, expect, it } from 'vitest';
import type { Episode, MemoryEvent } from '../core/types.js';
import { judgeCases } from './case-steps.js';
import { candidate, makeDoc, makeEvent } from './fixtures.test-support.js';
import type { Candidate, ReadDeps } from './types.js';

/** A closed case whose first report is `report`. */
function closedCase(id: string, report: string, final: number): { c: Candidate; episode: Episode; event: MemoryEvent } {
  const event = makeEvent({ id: `evt_${id}`, type: 'message', content: report });
  const episode = { id, eventIds: [event.id], rootCause: undefined, corrections: [], assumptions: [] } as unknown as Episode;
  const c = candidate(makeDoc({ kind: 'episode', type: 'FAILURE', refId: id, text: report }), { final, scores: { relevance: final } });
  return { c, episode, event };
}

function depsOf(cases: ReturnType<typeof closedCase>[]): ReadDeps {
  const episodes = new Map(cases.map((x) => [x.episode.id, x.episode]));
  const events = new Map(cases.map((x) => [x.event.id, x.event]));
  return {
    // The findings step (findings.ts) embeds the query; these cases have no findings, so it leaves their order.
    embedQuery: async () => new Float32Array([1, 0]),
    storage: {
      getEpisodes: async (_t: string, ids: readonly string[]) => ids.flatMap((i) => episodes.get(i) ?? []),
      getEvents: async (_t: string, ids: readonly string[]) => ids.flatMap((i) => events.get(i) ?? []),
    },
  } as unknown as ReadDeps;
}

describe('judgeCases: the situation step, then the case step', () => {
  const after = closedCase('after', 'Checkout fails since the 2.4 release was deployed.', 0.9);
  const load = closedCase('load', 'Checkout fails during the evening peak.', 0.8);
  const req = { tenant: 't1', rescore: (c: Candidate, relevance: number) => relevance };

  it('a query that states a change leaves out the case that followed none when the best case followed one', async () => {
    const out = await judgeCases(depsOf([after, load]), { ...req, query: 'Checkout fails since the 2.5 release was rolled out.' }, [after.c, load.c]);
    expect(out.map((c) => c.doc.refId)).toEqual(['after']);
  });

  it('a query that states no change keeps both, in their order', async () => {
    const out = await judgeCases(depsOf([after, load]), { ...req, query: 'Checkout fails.' }, [after.c, load.c]);
    expect(out.map((c) => c.doc.refId)).toEqual(['after', 'load']);
  });
});
