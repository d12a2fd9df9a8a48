/**
 * What an earlier investigation found, against the new report. A closed case's findings (its observation events,
 * read among the first STORY_EVENTS as situation.ts reads them) are not in its indexed text — a red herring's
 * findings deny the recurring cause in its own words — so the whole-text vector ranks a case by its report, what was
 * tried and its cause. A report that names what one case's investigation found ("the new billing subdomain" against
 * "we moved outbound mail to a new email provider") is nearer that case than its story's other words say. Each closed
 * case among the best MAX_CASES is ranked among the others by its final score + FINDINGS_WEIGHT × (the query's best
 * cosine with one of its findings − the lowest such cosine among those cases) and takes the score of its new place
 * (`liftByFindings`): what moved is named in the breakdown (`findings`).
 */
import type { Episode } from '../core/types.js';
import { cosine } from '../learn/vector.js';
import { STORY_EVENTS } from './situation.js';
import { isClosedCase } from './standout.js';
import type { Candidate, ReadDeps } from './types.js';

export const FINDINGS_WEIGHT = 0.1;

/**
 * By episode id, the query's best cosine with one of the case's stored finding vectors (cases without one left out).
 * `known`: episodes the caller already read (cases.ts), so that they are not read twice.
 */
export async function findingCosines(
  deps: Pick<ReadDeps, 'storage'>,
  tenant: string,
  query: Float32Array,
  cases: readonly Candidate[],
  known?: ReadonlyMap<string, Episode>,
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const ids = [...new Set(cases.filter(isClosedCase).map((c) => c.doc.refId))];
  if (ids.length === 0) return out;
  const missing = ids.filter((id) => !known?.has(id));
  const fetched = missing.length > 0 ? await deps.storage.getEpisodes(tenant, missing) : [];
  const episodes = [...ids.flatMap((id) => known?.get(id) ?? []), ...fetched];
  const events = await deps.storage.getEvents(tenant, [...new Set(episodes.flatMap((e) => e.eventIds.slice(0, STORY_EVENTS)))]);
  const hashes = new Map(events.flatMap((e) => (e.type === 'observation' && e.contentHash ? [[e.id, e.contentHash] as const] : [])));
  if (hashes.size === 0) return out;
  const vectors = await deps.storage.getEmbeddings([...new Set(hashes.values())]);
  for (const e of episodes) {
    const cos = e.eventIds.slice(0, STORY_EVENTS).flatMap((id) => {
      const v = vectors.get(hashes.get(id) ?? '');
      return v && v.length === query.length ? [cosine(query, v)] : [];
    });
    if (cos.length > 0) out.set(e.id, Math.max(...cos));
  }
  return out;
}

/**
 * The cases with a finding cosine are ordered by final + weight × (cosine − the lowest among them) and take, in that
 * order, the final scores they held between them: the order among cases moves, the scores they hold against other
 * kinds (a learned rule, an event) do not. What each final moved by is named in the breakdown (`findings`).
 */
export function liftByFindings(candidates: readonly Candidate[], cosines: ReadonlyMap<string, number>, weight = FINDINGS_WEIGHT): Candidate[] {
  const cases = candidates.filter((c) => isClosedCase(c) && cosines.has(c.doc.refId));
  if (cases.length < 2) return [...candidates];
  const floor = Math.min(...cases.map((c) => cosines.get(c.doc.refId)!));
  return reorderInSlots(candidates, cases, (c) => c.scores.final + weight * (cosines.get(c.doc.refId)! - floor));
}

/**
 * The slot form shared by the case reorders (this file, clauses.ts): `cases` are ordered by `lifted` and take, in that
 * order, the final scores they held between them; every other candidate keeps its own. What each final moved by is
 * added to the breakdown's `findings`.
 */
export function reorderInSlots(candidates: readonly Candidate[], cases: readonly Candidate[], lifted: (c: Candidate) => number): Candidate[] {
  const slots = cases.map((c) => c.scores.final).sort((a, b) => b - a);
  const order = [...cases].sort((a, b) => lifted(b) - lifted(a));
  const final = new Map(order.map((c, i) => [c, slots[i]!] as const));
  return candidates.map((c) => {
    const f = final.get(c);
    if (f === undefined || f === c.scores.final) return c;
    return { ...c, scores: { ...c.scores, findings: (c.scores.findings ?? 0) + f - c.scores.final, final: f } };
  });
}
