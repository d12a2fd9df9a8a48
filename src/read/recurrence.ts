/**
 * A recurring cause: closed cases (episodes with a known outcome) whose root causes say the same thing — most of
 * the shorter cause's specific words (standout.ts `saysCause`), or sentence embeddings at least SAME_CAUSE_COSINE
 * close — are one cause seen N times. The first-ranked case of each cause seen in two or more of the candidate
 * cases carries how many (`cases`); it is rendered as "Recurring cause: N similar cases." and returned on the
 * item's episode view (`recurringCases`), so a reader or an LLM sees N cases of one cause as one cause with its
 * count — also when the look-alikes behind a standout were left out (standout.ts): the one that stays for them
 * carries their count. The order is not changed here (docs/benchmarks.md, fifth pass: letting a near tie go to
 * the recurring cause was tried and not kept).
 *
 * Nothing here reads a domain's words.
 */
import { isClosedCase, saysCause } from './standout.js';
import { cosine } from '../learn/vector.js';
import type { Candidate } from './types.js';
const byFinal = (a: Candidate, b: Candidate) => b.scores.final - a.scores.final;

/** Two causes whose sentence embeddings are at least this close are one cause in other words. */
export const SAME_CAUSE_COSINE = 0.7;

/** Two causes are one: most of the shorter one's specific words (saysCause), or embeddings this close. */
export function sameCause(a: string, b: string, vectorOf: (cause: string) => Float32Array | undefined = () => undefined): boolean {
  if (saysCause(a, b)) return true;
  const va = vectorOf(a);
  const vb = vectorOf(b);
  return va !== undefined && vb !== undefined && cosine(va, vb) >= SAME_CAUSE_COSINE;
}

/**
 * For each closed case (by episode id), the ids of the cases whose causes are the same as its own (itself
 * included). Not transitive: a chain of look-alike causes ("intended public bucket" ~ "a module default made the
 * bucket public" ~ "the template defaults to anonymous access") would join a red herring to the cause it imitates.
 * A case whose cause is unknown is a group of one.
 */
export function causeGroups(
  cases: readonly Candidate[],
  causeOf: (episodeId: string) => string | undefined,
  vectorOf?: (cause: string) => Float32Array | undefined,
): Map<string, string[]> {
  const ids = [...new Set(cases.map((c) => c.doc.refId))];
  return new Map(
    ids.map((id) => {
      const cause = causeOf(id);
      return [id, cause ? ids.filter((other) => other === id || (causeOf(other) !== undefined && sameCause(cause, causeOf(other)!, vectorOf))) : [id]];
    }),
  );
}

/** The first-ranked candidate of every cause seen in two or more cases carries the count (`cases`). */
export function withCounts(candidates: readonly Candidate[], groups: ReadonlyMap<string, readonly string[]>): Candidate[] {
  const shown = new Set<string>();
  const firsts = new Set<Candidate>();
  for (const c of candidates.filter(isClosedCase).sort(byFinal)) {
    const group = groups.get(c.doc.refId);
    if (!group || group.length < 2 || group.some((id) => shown.has(id))) continue;
    shown.add(c.doc.refId);
    firsts.add(c);
  }
  return candidates.map((c) => (firsts.has(c) ? { ...c, cases: groups.get(c.doc.refId)!.length } : c));
}

