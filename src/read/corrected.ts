/**
 * A correction outranks the lesson it overturned. A closed case whose correction says a cause was mistaken ("not
 * the time zone: …") was an incident like the earlier cases that taught that cause, investigated by someone who
 * found it was something else. When the query is about as close to that corrected case as to an earlier case
 * whose root cause is the mistaken one (its relevance at least CORRECTED_RATIO of the earlier case's), the
 * corrected case is the more informative precedent — it holds the earlier lesson's failure and what was true
 * instead — and ranks just above it. Words only of the episodes' own corrections and causes; no case is removed
 * and no score lowered.
 */
import type { Episode } from '../core/types.js';
import { parseCorrection, revisesLesson } from '../learn/cues.js';
import { specificStems } from '../learn/text.js';
import { isClosedCase } from './standout.js';
import type { Candidate } from './types.js';

/** The corrected case's relevance must be at least this share of the overturned case's. */
export const CORRECTED_RATIO = 0.9;
const NUDGE = 1e-6;
/** How much of the mistaken words an earlier cause must hold to be the one overturned. */
const OVERTURNED_OVERLAP = 0.5;

/** What a corrected case held mistakenly: its corrections' "not …" part and its assumptions, as specific stems. */
export function mistakenOf(corrections: readonly string[], assumptions: readonly string[] = []): Set<string> {
  return specificStems([...corrections.map((c) => parseCorrection(c).mistaken ?? ''), ...assumptions].filter(Boolean).join(' '));
}

/** Whether a root cause is what the mistaken words name (learn/cues.ts `revisesLesson`, as LEARNED_FROM links read it). */
export function overturns(mistaken: ReadonlySet<string>, rootCause: string | undefined): boolean {
  return revisesLesson(mistaken, rootCause) >= OVERTURNED_OVERLAP;
}

export function correctionsAboveOverturned(candidates: readonly Candidate[], episodeOf: (id: string) => Episode | undefined): Candidate[] {
  const cases = candidates.filter(isClosedCase);
  const lifted = new Map<Candidate, number>();
  for (const n of cases) {
    const ep = episodeOf(n.doc.refId);
    if (!ep || ep.corrections.length === 0) continue;
    const mistaken = mistakenOf(ep.corrections, ep.assumptions);
    const rel = n.scores.relevance ?? 0;
    let floor = n.scores.final;
    for (const c of cases) {
      if (c === n || c.scores.final <= floor) continue;
      const other = episodeOf(c.doc.refId);
      if (!other || other.startSeq >= ep.startSeq || !overturns(mistaken, other.rootCause)) continue;
      if (rel >= CORRECTED_RATIO * (c.scores.relevance ?? 0)) floor = c.scores.final + NUDGE;
    }
    if (floor > n.scores.final) lifted.set(n, floor);
  }
  if (lifted.size === 0) return [...candidates];
  return candidates.map((c) => {
    const f = lifted.get(c);
    // The lift is named in the breakdown, so that its signals still account for the final score.
    return f === undefined ? c : { ...c, scores: { ...c.scores, corrected: f - c.scores.final, final: f } };
  });
}
