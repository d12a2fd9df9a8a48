import { describe, expect, it } from 'vitest';
import type { Episode, MemoryEvent } from '../core/types.js';
import { situationVectors } from './situation-vector.js';
import type { Candidate, ReadDeps } from './types.js';

const ev = (id: string, type: string, content: string): MemoryEvent => ({ id, type, content, contentHash: `h-${id}` }) as unknown as MemoryEvent;
const ep = (id: string, eventIds: string[]): Episode => ({ id, eventIds }) as unknown as Episode;
const cand = (refId: string, type: string | undefined, kind = 'episode'): Candidate => ({ doc: { kind, refId, type } }) as unknown as Candidate;

function deps(episodes: Episode[], events: MemoryEvent[], vectors: Record<string, number[]>) {
  const asked: string[][] = [];
  const d = {
    storage: {
      getEpisodes: async (_t: string, ids: readonly string[]) => episodes.filter((e) => ids.includes(e.id)),
      getEvents: async (_t: string, ids: readonly string[]) => events.filter((e) => ids.includes(e.id)),
      getEmbeddings: async (hashes: readonly string[]) => {
        asked.push([...hashes]);
        return new Map(hashes.flatMap((h) => (vectors[h] ? [[h, Float32Array.from(vectors[h]!)] as const] : [])));
      },
    },
  } as unknown as Pick<ReadDeps, 'storage'>;
  return { d, asked };
}

describe('situationVectors', () => {
  it('gives each closed case the stored vector of its opening report (the first report-like event of its head)', async () => {
    const { d } = deps(
      [ep('e1', ['a1', 'a2']), ep('e2', ['b1', 'b2'])],
      [ev('a1', 'decision', 'Restarted it.'), ev('a2', 'message', 'Revenue doubled for Sunday.'), ev('b1', 'message', 'Numbers fell short.'), ev('b2', 'observation', 'x')],
      { 'h-a2': [1, 0], 'h-b1': [0, 1], 'h-a1': [0.5, 0.5] },
    );
    const out = await situationVectors(d, 't', [cand('e1', 'FAILURE'), cand('e2', 'SUCCESS')]);
    expect([...out.get('e1')!]).toEqual([1, 0]);
    expect([...out.get('e2')!]).toEqual([0, 1]);
  });

  it('reads nothing for candidates that are no closed case (open outcome, facts), and leaves out reports without a vector', async () => {
    const { d, asked } = deps([ep('e1', ['a1']), ep('e3', ['c1'])], [ev('a1', 'message', 'r'), ev('c1', 'message', 's')], {});
    expect((await situationVectors(d, 't', [cand('e1', 'UNKNOWN'), cand('f1', 'heuristic', 'fact')])).size).toBe(0);
    expect(asked).toEqual([]);
    expect((await situationVectors(d, 't', [cand('e3', 'FAILURE')])).size).toBe(0);
    expect(asked).toEqual([['h-c1']]);
  });
});
