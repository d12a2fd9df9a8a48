/**
 * One case that stands out. When the best closed episode is clearly closer to the query than every other learned
 * memory (each other episode's and fact's relevance at most STANDOUT_RATIO of its own), the others are
 * look-alikes of a kind this incident is less like: shown side by side they read as N cases against one, and
 * several look-alikes repeating another cause — as episodes, or as the facts learned from those episodes —
 * outweigh the one case that resembles the query. They count once instead: the strongest of them stays, as the
 * alternative; the rest leave the candidates. Cases that say the best episode's own cause (most of the specific
 * words of the shorter of the two causes, at least two) are no counter-vote and stay. When no episode stands out
 * (a near tie among several, or a fact as close as the best episode), nothing changes: how many cases agree is
 * then the evidence.
 *
 * Only what outcomes taught counts as a case: episodes with a known outcome, and the rules and insights learned
 * from them. Everything else (episodes of plain conversation, stated facts, documents, events) is untouched, and
 * so is anything when fewer than three closed episodes are candidates.
 */
import { intersectionSize, overlapCoefficient, specificStems } from '../learn/text.js';
import type { Candidate } from './types.js';

/** The other cases' relevance must be at most this share of the best episode's. */
export const STANDOUT_RATIO = 0.75;
/** Two causes are one when they share this share of the shorter one's specific words (and at least two). */
export const SAME_CAUSE_OVERLAP = 0.5;

/** An episode with a known outcome: a closed case. */
export const isClosedCase = (c: Candidate): boolean => c.doc.kind === 'episode' && c.doc.type !== undefined && c.doc.type !== 'UNKNOWN';
/** What outcomes taught: closed cases, and the rules and insights learned from them. */
const isCase = (c: Candidate) => isClosedCase(c) || (c.doc.kind === 'fact' && (c.doc.type === 'heuristic' || c.doc.type === 'insight'));
const byFinal = (a: Candidate, b: Candidate) => b.scores.final - a.scores.final;

/** The best episode when it stands out, and the cases behind it; undefined when none stands out. */
export function standout(candidates: readonly Candidate[]): { best: Candidate; others: Candidate[] } | undefined {
  const episodes = candidates.filter(isClosedCase).sort(byFinal);
  if (episodes.length < 3) return undefined;
  const best = episodes[0]!;
  const top = best.scores.relevance ?? 0;
  const others = candidates.filter((c) => isCase(c) && c !== best).sort(byFinal);
  if (top <= 0 || others.some((c) => (c.scores.relevance ?? 0) > STANDOUT_RATIO * top)) return undefined;
  return { best, others };
}

/** Whether a case's text says the given cause. */
export function saysCause(cause: string, text: string): boolean {
  const a = specificStems(cause);
  const b = specificStems(text);
  return intersectionSize(a, b) >= 2 && overlapCoefficient(a, b) >= SAME_CAUSE_OVERLAP;
}

/**
 * The step: `causeOf` gives an episode's root cause (undefined: unknown); a fact is read by its text. Without
 * the best episode's cause, every case behind it counts as another cause's.
 */
export function collapseBehindStandout(
  candidates: readonly Candidate[],
  causeOf: (episodeId: string) => string | undefined = () => undefined,
  s: ReturnType<typeof standout> = standout(candidates),
): Candidate[] {
  if (!s) return [...candidates];
  const cause = causeOf(s.best.doc.refId);
  const agrees = (c: Candidate) => {
    if (!cause) return false;
    const text = c.doc.kind === 'episode' ? causeOf(c.doc.refId) : c.doc.text;
    return text !== undefined && saysCause(cause, text);
  };
  const against = s.others.filter((c) => !agrees(c));
  const gone = new Set(against.slice(1));
  return candidates.filter((c) => !gone.has(c));
}
