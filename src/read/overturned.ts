/**
 * Overturned for this query: when the closest closed case is a correction ("it was A, not M") and it is the
 * closest on its own merits (first among the closed cases before any lift of corrected.ts), the earlier cases
 * whose root cause is the mistaken M are the belief that case overturned in a situation like this one. Shown
 * beside it, several of them repeating M read as N cases against one, and a reader that weighs how many cases
 * agree takes the overturned cause again. They leave the candidates for this query, and the correction carries a
 * note naming how many it overturned (rendered under "## Conflicts"). Nothing is forgotten: the cases stay in
 * memory and come back whenever the correction is not the closest case (an incident like theirs, not like it).
 *
 * Only earlier cases leave (a later case of M happened after the correction and stands), only those whose
 * cause is not the correction's own cause, and only when the correction is at least as relevant as each of
 * them. A learned rule drawn only from the cases that leave (every episode of its `provenance.episodeIds`) leaves
 * with them, named in the same note (supersede.ts `rulesLeavingWith`); a rule with any other source stays. Words
 * only of the episodes' own corrections, assumptions and causes; no domain's words are read.
 *
 * The mirror (`withoutCorrectionsOfConfirmed`): when the closest closed case holds no correction and its cause M
 * happened after an earlier correction said "not M", that correction was about its own incident, and M has since
 * been the cause again, in the case closest to this query. Shown beside it, the earlier "not M" reads as a ruling
 * against the closest case; that corrected case leaves the candidates for this query (only when it is no more
 * relevant than the closest case, and is not itself a case of M). It comes back whenever it is the closer case.
 */
import type { Episode } from '../core/types.js';
import { parseCorrection } from '../learn/cues.js';
import { intersectionSize, overlapCoefficient, specificStems } from '../learn/text.js';
import { mistakenOf, overturns } from './corrected.js';
import { isClosedCase, SAME_CAUSE_OVERLAP } from './standout.js';
import { leftOutNote, rulesLeavingWith } from './supersede.js';
import type { Candidate, ConflictNote } from './types.js';

/** The score a closed case has on its own: its final score without the lift corrected.ts gave it. */
const ownScore = (c: Candidate) => c.scores.final - (c.scores.corrected ?? 0);

/** Whether the correction's mistaken belief names this cause: all it held at once, or one of its statements. */
export function namesMistaken(ep: Pick<Episode, 'corrections' | 'assumptions'>, rootCause: string | undefined): boolean {
  if (!rootCause) return false;
  if (overturns(mistakenOf(ep.corrections, ep.assumptions), rootCause)) return true;
  const held = [...ep.corrections.map((c) => parseCorrection(c).mistaken ?? ''), ...ep.assumptions].filter(Boolean);
  return held.some((m) => overturns(specificStems(m), rootCause));
}

function sameCause(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  const x = specificStems(a);
  const y = specificStems(b);
  const shared = intersectionSize(x, y);
  return shared >= 2 && overlapCoefficient(x, y) >= SAME_CAUSE_OVERLAP;
}

/**
 * The closest closed case by its own score (when `leadFits` its episode), and the earlier cases of other causes, no
 * more relevant than it, that `leaves` picks; undefined when none leaves. Both steps below read cases this way.
 */
function leavingBehindLead(
  candidates: readonly Candidate[],
  episodeOf: (id: string) => Episode | undefined,
  leadFits: (lead: Episode) => boolean,
  leaves: (lead: Episode, other: Episode) => boolean,
): { lead: Candidate; ep: Episode; gone: Set<string> } | undefined {
  const cases = candidates.filter(isClosedCase).sort((a, b) => ownScore(b) - ownScore(a));
  const lead = cases[0];
  const ep = lead ? episodeOf(lead.doc.refId) : undefined;
  if (!lead || !ep || !ep.rootCause || !leadFits(ep)) return undefined;
  const rel = lead.scores.relevance ?? 0;
  const earlierOther = (other: Episode | undefined): other is Episode =>
    other !== undefined && other.startSeq < ep.startSeq && !sameCause(other.rootCause, ep.rootCause);
  const gone = new Set(
    cases
      .slice(1)
      .filter((c) => {
        const other = episodeOf(c.doc.refId);
        return earlierOther(other) && (c.scores.relevance ?? 0) <= rel && leaves(ep, other);
      })
      .map((c) => c.doc.refId),
  );
  return gone.size === 0 ? undefined : { lead, ep, gone };
}

/**
 * The candidates without the earlier cases the closest correction overturned and the learned rules drawn only from
 * them; the correction carries their ids and its correction (for the note). Unchanged when the closest closed case holds no correction.
 */
export function withoutOverturned(candidates: readonly Candidate[], episodeOf: (id: string) => Episode | undefined): Candidate[] {
  const found = leavingBehindLead(
    candidates,
    episodeOf,
    (lead) => lead.corrections.length > 0,
    (lead, other) => namesMistaken(lead, other.rootCause),
  );
  if (!found) return [...candidates];
  const { lead, ep, gone } = found;
  const rules = [...rulesLeavingWith(candidates, (id) => (gone.has(id) ? lead.doc.refId : undefined)).keys()];
  const overturned = { ids: [...gone], correction: ep.corrections[0]!, ...(rules.length > 0 ? { rules } : {}) };
  const left = new Set([...gone, ...rules]);
  return candidates.filter((c) => !left.has(c.doc.refId)).map((c) => (c === lead ? { ...c, overturned } : c));
}

/**
 * The candidates without the earlier corrected cases whose correction named as mistaken the cause of the closest
 * closed case, when that case is later than them and holds no correction itself (the mirror above).
 */
export function withoutCorrectionsOfConfirmed(candidates: readonly Candidate[], episodeOf: (id: string) => Episode | undefined): Candidate[] {
  const found = leavingBehindLead(
    candidates,
    episodeOf,
    (lead) => lead.corrections.length === 0,
    (lead, other) => other.corrections.length > 0 && namesMistaken(other, lead.rootCause),
  );
  return found ? candidates.filter((c) => !found.gone.has(c.doc.refId)) : [...candidates];
}

/** One note per shown correction that overturned earlier cases for this query. */
export function overturnedNotes(shown: readonly Candidate[]): ConflictNote[] {
  return shown.flatMap((c) => {
    const o = c.overturned;
    if (!o) return [];
    return [leftOutNote(c, o, (cases, rules) => `${cases} of the cause this closer case corrected${rules} left out as overturned: "${o.correction}"`)];
  });
}
