import { describe, expect, it } from 'vitest';
import type { Episode, MemoryEvent } from '../core/types.js';
import { FINDINGS_WEIGHT, findingCosines, liftByFindings } from './findings.js';
import type { Candidate, ReadDeps } from './types.js';

const ev = (id: string, type: string): MemoryEvent => ({ id, type, content: id, contentHash: `h-${id}` }) as unknown as MemoryEvent;
const ep = (id: string, eventIds: string[]): Episode => ({ id, eventIds }) as unknown as Episode;
const cand = (refId: string, final: number, type: string | undefined = 'SUCCESS', kind = 'episode'): Candidate =>
  ({ doc: { kind, refId, type }, scores: { final } }) as unknown as Candidate;

function deps(episodes: Episode[], events: MemoryEvent[], vectors: Record<string, number[]>) {
  return {
    storage: {
      getEpisodes: async (_t: string, ids: readonly string[]) => episodes.filter((e) => ids.includes(e.id)),
      getEvents: async (_t: string, ids: readonly string[]) => events.filter((e) => ids.includes(e.id)),
      getEmbeddings: async (hashes: readonly string[]) => new Map(hashes.flatMap((h) => (vectors[h] ? [[h, Float32Array.from(vectors[h]!)] as const] : []))),
    },
  } as unknown as Pick<ReadDeps, 'storage'>;
}

describe('findingCosines', () => {
  it("gives each closed case the query's best cosine with one of its observations, not its report or decision", async () => {
    const d = deps(
      [ep('e1', ['r1', 'o1', 'o2', 'x1']), ep('e2', ['r2', 'o3'])],
      [ev('r1', 'message'), ev('o1', 'observation'), ev('o2', 'observation'), ev('x1', 'decision'), ev('r2', 'message'), ev('o3', 'observation')],
      { 'h-r1': [1, 0], 'h-o1': [0, 1], 'h-o2': [0.6, 0.8], 'h-x1': [1, 0], 'h-r2': [1, 0], 'h-o3': [0, 1] },
    );
    const out = await findingCosines(d, 't', Float32Array.from([1, 0]), [cand('e1', 1), cand('e2', 1)]);
    expect(out.get('e1')).toBeCloseTo(0.6);
    expect(out.get('e2')).toBeCloseTo(0);
  });

  it('reads nothing for open episodes and facts, and leaves out cases without a finding vector', async () => {
    const d = deps([ep('e1', ['o1']), ep('e3', ['o3'])], [ev('o1', 'observation'), ev('o3', 'observation')], { 'h-o1': [1, 0] });
    expect((await findingCosines(d, 't', Float32Array.from([1, 0]), [cand('e1', 1, 'UNKNOWN'), cand('f1', 1, 'heuristic', 'fact')])).size).toBe(0);
    expect([...(await findingCosines(d, 't', Float32Array.from([1, 0]), [cand('e1', 1), cand('e3', 1)])).keys()]).toEqual(['e1']);
  });
});

describe('liftByFindings', () => {
  it('lets a case whose findings the query names pass a closer-worded one: the two swap their scores, named in the breakdown', () => {
    const out = liftByFindings([cand('herring', 0.954), cand('lesson', 0.942), cand('f', 0.9, 'heuristic', 'fact')], new Map([['herring', 0.49], ['lesson', 0.64]]));
    const [herring, lesson, fact] = out;
    expect(lesson!.scores.final).toBe(0.954);
    expect(lesson!.scores.findings).toBeCloseTo(0.012);
    expect(herring!.scores.final).toBe(0.942);
    expect(herring!.scores.findings).toBeCloseTo(-0.012);
    expect(fact!.scores).toEqual({ final: 0.9 });
  });

  it('keeps the scores the cases hold against other kinds: a rule between two cases stays between them', () => {
    const out = liftByFindings([cand('a', 0.8), cand('rule', 0.78, 'heuristic', 'fact'), cand('b', 0.75)], new Map([['a', 0.1], ['b', 0.9]]));
    expect(out.map((c) => [c.doc.refId, c.scores.final])).toEqual([['a', 0.75], ['rule', 0.78], ['b', 0.8]]);
  });

  it('leaves the order alone when the findings do not outweigh the gap', () => {
    const c = [cand('a', 0.9), cand('b', 0.5)];
    const out = liftByFindings(c, new Map([['a', 0.2], ['b', 0.6]]), FINDINGS_WEIGHT);
    expect(out).toEqual(c);
    expect(out[0]!.scores.findings).toBeUndefined();
  });

  it('changes nothing with fewer than two cases to compare', () => {
    const c = [cand('e1', 0.5), cand('e2', 0.4, 'UNKNOWN')];
    expect(liftByFindings(c, new Map([['e1', 0.9], ['e2', 0.1]]))).toEqual(c);
  });
});
