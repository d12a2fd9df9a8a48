/**
 * The read path's step over cases (one call in context.ts, after the situation step): with the candidate
 * episodes' root causes read once, the look-alikes behind a case that stands out count once (standout.ts), and
 * the first case of each recurring cause carries its count, which the rendering shows (recurrence.ts).
 */
import { causeGroups, withCounts } from './recurrence.js';
import { collapseBehindStandout, isClosedCase, standout } from './standout.js';
import type { Candidate, ReadDeps } from './types.js';

/** Causes are compared among at most this many of the best closed cases (their embeddings are cached by text). */
export const MAX_CASES = 12;

const byFinal = (a: Candidate, b: Candidate) => b.scores.final - a.scores.final;

export async function weighCases(deps: ReadDeps, tenant: string, candidates: Candidate[]): Promise<Candidate[]> {
  const cases = candidates.filter(isClosedCase).sort(byFinal).slice(0, MAX_CASES);
  if (cases.length < 2) return candidates;
  const causes = new Map((await deps.storage.getEpisodes(tenant, cases.map((c) => c.doc.refId))).map((e) => [e.id, e.rootCause]));
  const causeOf = (id: string) => causes.get(id);
  const texts = [...new Set([...causes.values()].filter((t): t is string => Boolean(t)))];
  const vectors = new Map(await Promise.all(texts.map(async (t) => [t, await deps.embedQuery(t)] as const)));
  const groups = causeGroups(cases, causeOf, (t) => vectors.get(t));
  const s = standout(candidates);
  return withCounts(s ? collapseBehindStandout(candidates, causeOf, s) : candidates, groups);
}
