import { describe, expect, it } from 'vitest';
import type { Episode, MemoryEvent } from '../core/types.js';
import { judgeCases } from './case-steps.js';
import { DropLog } from './explain.js';
import { candidate, makeDoc, makeEvent, makeFact } from './fixtures.test-support.js';
import type { Candidate, ReadDeps } from './types.js';

/** A closed case whose first report is `report`. */
function closedCase(id: string, report: string, final: number, over: Partial<Episode> = {}): { c: Candidate; episode: Episode; event: MemoryEvent } {
  const event = makeEvent({ id: `evt_${id}`, type: 'message', content: report });
  const episode = { id, eventIds: [event.id], rootCause: undefined, corrections: [], assumptions: [], startSeq: 0, endTs: 0, ...over } as unknown as Episode;
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
      // No stored cause or finding vectors: the causes are embedded by `embedQuery`, all alike here.
      getEmbeddings: async () => new Map(),
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

describe('judgeCases with explain: what the case steps leave out is dropped with its reason', () => {
  const req = { tenant: 't1', rescore: (c: Candidate, relevance: number) => relevance };
  // `by` only where it applies: superseded drops say whether a later case replaced or a correction overturned.
  const dropped = (log: DropLog) => log.list().map((d) => (d.by ? [d.id, d.reason, d.by] : [d.id, d.reason]));

  it('an episode whose situation contradicts the query: situation', async () => {
    const after = closedCase('after', 'Checkout fails since the 2.4 release was deployed.', 0.9);
    const load = closedCase('load', 'Checkout fails during the evening peak.', 0.8);
    const drops = new DropLog();
    const out = await judgeCases(depsOf([after, load]), { ...req, query: 'Checkout fails since the 2.5 release was rolled out.', drops }, [after.c, load.c]);
    expect(out.map((c) => c.doc.refId)).toEqual(['after']);
    expect(dropped(drops)).toEqual([['load', 'situation']]);
  });

  it('a case a later case replaced, and a rule drawn only from it: superseded, by replaced', async () => {
    const old = closedCase('old', 'Disks saturate overnight.', 0.9, { endTs: 1, rootCause: 'The nightly backup window on Saturday saturated the disks.' });
    const newer = closedCase('newer', 'Disks saturate overnight again.', 0.8, { endTs: 4, rootCause: 'The nightly backup window moved to Sunday.' });
    const fact = makeFact({ id: 'rule', kind: 'heuristic', text: 'Saturday backups saturate the disks.', provenance: { origin: 'extraction', episodeIds: ['old'] } });
    const rule = candidate(makeDoc({ kind: 'fact', refId: 'rule', text: fact.text, type: 'heuristic' }), { final: 0.7, scores: { relevance: 0.7 }, fact });
    const drops = new DropLog();
    const out = await judgeCases(depsOf([old, newer]), { ...req, query: 'Disks saturate overnight.', drops }, [old.c, newer.c, rule]);
    expect(out.map((c) => c.doc.refId)).toEqual(['newer']);
    expect(dropped(drops)).toEqual([
      ['old', 'superseded', 'replaced'],
      ['rule', 'superseded', 'replaced'],
    ]);
  });

  it('an earlier case the closest correction overturned: superseded, by overturned', async () => {
    const fix = closedCase('fix', 'Mail signatures fail.', 0.6, {
      startSeq: 6,
      rootCause: 'Our sending IP was blocklisted after a compromised account sent phishing.',
      corrections: ['Was actually our sending IP being blocklisted, not the public key in DNS.'],
      assumptions: ['signatures failing after a DNS change'],
    });
    const old = closedCase('old', 'Mail signatures fail again.', 0.55, { startSeq: 2, rootCause: 'The public key record was lost in the DNS zone migration, so signatures fail.' });
    const drops = new DropLog();
    const out = await judgeCases(depsOf([fix, old]), { ...req, query: 'Mail signatures fail.', drops }, [fix.c, old.c]);
    expect(out.map((c) => c.doc.refId)).toEqual(['fix']);
    expect(dropped(drops)).toEqual([['old', 'superseded', 'overturned']]);
  });

  it('a learned rule the cases refuted: refuted', async () => {
    const a = closedCase('a', 'Checkout fails.', 0.9);
    const fact = makeFact({ id: 'rule', kind: 'heuristic', text: 'Checkout fails because of the cache.', supportCount: 1, contradictCount: 2 });
    const rule = candidate(makeDoc({ kind: 'fact', refId: 'rule', text: fact.text, type: 'heuristic' }), { final: 0.8, fact });
    const drops = new DropLog();
    const out = await judgeCases(depsOf([a]), { ...req, query: 'Checkout fails.', drops }, [a.c, rule]);
    expect(out.map((c) => c.doc.refId)).toEqual(['a']);
    expect(dropped(drops)).toEqual([['rule', 'refuted']]);
  });

  it('look-alikes behind a case that stands out: the strongest stays, the rest are dropped as standout', async () => {
    const best = closedCase('best', 'Checkout fails.', 0.9);
    const others = [closedCase('b', 'Checkout is down.', 0.5), closedCase('c', 'Checkout is slow.', 0.45), closedCase('d', 'Checkout errors.', 0.4)];
    const drops = new DropLog();
    const out = await judgeCases(depsOf([best, ...others]), { ...req, query: 'Checkout fails.', drops }, [best.c, ...others.map((x) => x.c)]);
    expect(out.map((c) => c.doc.refId)).toEqual(['best', 'b']);
    expect(dropped(drops)).toEqual([
      ['c', 'standout'],
      ['d', 'standout'],
    ]);
  });
});
