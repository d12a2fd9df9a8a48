/**
 * The read path's step over cases (one call in case-steps.ts, after the situation step): with the candidate
 * episodes' root causes read once (and their vectors, stored when the episodes closed), the look-alikes behind a
 * case that stands out count once (standout.ts), and the first case of each recurring cause carries its count,
 * which the rendering shows (recurrence.ts). Learned rules the cases refuted as often as they supported leave first
 * (refuted.ts), and before the rest the cases are reordered among themselves by how near the query is to what each
 * one's investigation found (findings.ts) and, once the cause groups are known, by how the query's stated scope or
 * negation meets each case's distinctive clauses (clauses.ts). When the closest case is a correction, the earlier
 * cases of the cause it overturned leave (overturned.ts); when it is a later, uncorrected case of a cause an earlier
 * correction called the mistake, that correction's case leaves (overturned.ts, the mirror).
 */
import { causeVectorKey } from '../core/docs-learn.js';
import type { Episode } from '../core/types.js';
import { correctionsAboveOverturned } from './corrected.js';
import { clauseEvidence, liftByClauses } from './clauses.js';
import { DropLog, type CaseDrops } from './explain.js';
import { findingCosines, liftByFindings } from './findings.js';
import { withoutCorrectionsOfConfirmed, withoutOverturned } from './overturned.js';
import { causeGroups, withCounts } from './recurrence.js';
import { withoutRefutedRules } from './refuted.js';
import { supersededCases, withoutSuperseded } from './supersede.js';
import { collapseBehindStandout, isClosedCase, standout } from './standout.js';
import type { Candidate, ReadDeps } from './types.js';

/** Causes are compared among at most this many of the best closed cases. */
export const MAX_CASES = 12;

const byFinal = (a: Candidate, b: Candidate) => b.scores.final - a.scores.final;

/** `drops` (with `explain`) records what each step left out, by its reason (explain.ts). */
export async function weighCases(deps: ReadDeps, tenant: string, all: Candidate[], query?: string, drops?: CaseDrops): Promise<Candidate[]> {
  let candidates = withoutRefutedRules(all);
  drops?.step('refuted', all, DropLog.ids(candidates));
  let cases = candidates.filter(isClosedCase).sort(byFinal).slice(0, MAX_CASES);
  if (cases.length < 2) return candidates;
  // The cases' episodes, read once: the findings order reads them, and only reorders these cases among themselves.
  let episodes = await episodesOf(deps, tenant, cases);
  // What each case's investigation found, against the report (findings.ts).
  const qv = query ? await deps.embedQuery(query) : undefined;
  if (qv) {
    candidates = liftByFindings(candidates, await findingCosines(deps, tenant, qv, cases, episodes));
    cases = candidates.filter(isClosedCase).sort(byFinal).slice(0, MAX_CASES);
    episodes = await episodesOf(deps, tenant, cases, episodes);
  }
  const causes = new Map([...episodes].map(([id, e]) => [id, e.rootCause]));
  const causeOf = (id: string) => causes.get(id);
  const texts = [...new Set([...causes.values()].filter((t): t is string => Boolean(t)))];
  const vectors = await causeVectors(deps, texts);
  const all0 = causeGroups(cases, causeOf, (t) => vectors.get(t));
  // Earlier cases whose answer a later case of their cause replaced leave first (supersede.ts).
  const superseded = supersededCases([...episodes.values()], (a, b) => all0.get(a)?.includes(b) ?? false);
  const unlifted = withoutSuperseded(candidates, superseded);
  drops?.step('superseded', candidates, DropLog.ids(unlifted), 'replaced');
  const groups = superseded.by.size === 0 ? all0 : causeGroups(cases.filter((c) => !superseded.by.has(c.doc.refId)), causeOf, (t) => vectors.get(t));
  // What the report states against each case's distinctive clauses (clauses.ts): the cases reordered among themselves.
  const live = query ? liftByClauses(unlifted, clauseEvidence(query, cases.filter((c) => !superseded.by.has(c.doc.refId)), episodes, groups)) : unlifted;
  const s = standout(live);
  const collapsed = s ? collapseBehindStandout(live, causeOf, s) : live;
  drops?.step('standout', live, DropLog.ids(collapsed));
  const ranked = correctionsAboveOverturned(withCounts(collapsed, groups), (id) => episodes.get(id));
  // The earlier cases the closest correction overturned leave for this query (overturned.ts).
  const kept = withoutOverturned(ranked, (id) => episodes.get(id));
  drops?.step('superseded', ranked, DropLog.ids(kept), 'overturned');
  // The mirror: earlier corrections against the cause of the closest case, which has happened again since, leave.
  const confirmed = withoutCorrectionsOfConfirmed(kept, (id) => episodes.get(id));
  drops?.step('superseded', kept, DropLog.ids(confirmed), 'overturned');
  return confirmed;
}

/** The cases' episodes by id, in the cases' order; only those `known` does not hold are read. */
async function episodesOf(deps: ReadDeps, tenant: string, cases: readonly Candidate[], known = new Map<string, Episode>()): Promise<Map<string, Episode>> {
  const missing = cases.filter((c) => !known.has(c.doc.refId)).map((c) => c.doc.refId);
  const read = new Map(missing.length > 0 ? (await deps.storage.getEpisodes(tenant, missing)).map((e) => [e.id, e] as const) : []);
  return new Map(cases.flatMap((c) => {
    const e = known.get(c.doc.refId) ?? read.get(c.doc.refId);
    return e ? [[c.doc.refId, e] as const] : [];
  }));
}

/**
 * The causes' vectors: those the learner stored when the episodes closed (src/learn/engine/cause-vectors.ts),
 * and, for a cause without one (an episode closed before they were stored), the query embedder's (cached by text).
 */
export async function causeVectors(deps: Pick<ReadDeps, 'storage' | 'embedQuery'>, causes: readonly string[]): Promise<Map<string, Float32Array | undefined>> {
  const stored = causes.length ? await deps.storage.getEmbeddings(causes.map(causeVectorKey)) : new Map<string, Float32Array>();
  return new Map(await Promise.all(causes.map(async (t) => [t, stored.get(causeVectorKey(t)) ?? (await deps.embedQuery(t))] as const)));
}
