/**
 * The vector of what a closed case started from: the first report-like event among an episode's first few
 * (situation.ts `situationEvent`), whose vector the indexer stored with the event. The relevance floor reads it
 * beside the episode's whole-text vector (floor.ts `evidenceOf`): a reworded report of a second incident can sit as
 * far from the first incident's whole story (what was tried, the outcome, the cause) as an off-topic query does,
 * while its opening report reads as near as any on-topic memory.
 *
 * Read only when the whole-text vectors leave the query short of a strong verdict (context.ts `floored`): a query
 * the floor already takes is judged as before, with no extra read.
 */
import { HEAD_EVENTS, situationEvent } from './situation.js';
import { isClosedCase } from './standout.js';
import type { Candidate, ReadDeps } from './types.js';

/** By episode id, the stored vector of each closed case's situation (those without one left out). */
export async function situationVectors(deps: Pick<ReadDeps, 'storage'>, tenant: string, candidates: readonly Candidate[]): Promise<Map<string, Float32Array>> {
  const out = new Map<string, Float32Array>();
  const ids = [...new Set(candidates.filter(isClosedCase).map((c) => c.doc.refId))];
  if (ids.length === 0) return out;
  const episodes = await deps.storage.getEpisodes(tenant, ids);
  const events = new Map((await deps.storage.getEvents(tenant, [...new Set(episodes.flatMap((e) => e.eventIds.slice(0, HEAD_EVENTS)))])).map((e) => [e.id, e]));
  const hashOf = new Map(episodes.flatMap((e) => {
    const ev = situationEvent(e.eventIds, events);
    return ev?.contentHash ? [[e.id, ev.contentHash] as const] : [];
  }));
  if (hashOf.size === 0) return out;
  const vectors = await deps.storage.getEmbeddings([...new Set(hashOf.values())]);
  for (const [id, h] of hashOf) {
    const v = vectors.get(h);
    if (v) out.set(id, v);
  }
  return out;
}
