/**
 * The circumstances a text states or denies, as cue classes of the priors list ("began after a change" …).
 * Negation is read per clause: "not during X", "no X", "without X" deny X up to the clause's
 * end, and "X unchanged / normal / steady" denies X. A class both stated and denied counts as denied: an
 * explicit denial is the stronger statement ("errors climbing right after X, no change in Y").
 */
import { cueClasses } from './priors.js';

export interface Circumstances {
  /** Cue classes the text states. */
  stated: Set<string>;
  /** Cue classes the text explicitly denies. */
  denied: Set<string>;
}

/** Clause boundaries: sentence ends (not the dots inside "v2.4.1"), semicolons, dashes used as breaks, "but". */
const CLAUSE_SPLIT = /(?:[.;!?]+(?=\s|$)|\n)\s*|\s[—–]\s|\s-\s|,?\s+but\s+/;
/** A negator opens a denied span that runs to the next comma or the clause end. */
const PRE_NEGATION = /\b(?:not|no|never|nor|without|isn't|wasn't|aren't|weren't|didn't|doesn't|don't)\b([^,]*)/gi;
/** "<1–3 words> (is|looks|stayed …)? unchanged|normal|steady|stable|flat": denies those words. */
const POST_NEGATION = /((?:[\w.-]+\s+){0,2}[\w.-]+)\s+(?:(?:is|was|looks?|looked|remained|stayed|stays|seems?)\s+)?(?:unchanged|normal|steady|stable|flat)\b/gi;

export function circumstancesOf(text: string): Circumstances {
  const stated = new Set<string>();
  const denied = new Set<string>();
  for (const clause of text.split(CLAUSE_SPLIT)) {
    if (!clause.trim()) continue;
    const deniedSpans: string[] = [];
    for (const m of clause.matchAll(PRE_NEGATION)) deniedSpans.push(m[1] ?? '');
    for (const m of clause.matchAll(POST_NEGATION)) deniedSpans.push(m[1] ?? '');
    for (const c of cueClasses(deniedSpans.join(' \n '))) denied.add(c);
    let rest = clause;
    for (const span of deniedSpans) if (span) rest = rest.replace(span, ' ');
    for (const c of cueClasses(rest)) stated.add(c);
  }
  for (const c of denied) stated.delete(c);
  return { stated, denied };
}

export interface CircumstanceFit {
  /** Multiplier in (0, 1]: 1 when the two situations agree on every stated or denied circumstance. */
  factor: number;
  /** Classes the report states and the precedent lacks. */
  absent: string[];
  /** Classes one side states and the other denies. */
  conflicting: string[];
  /** Classes the precedent states and the report does not mention. */
  extra: string[];
}

/**
 * Penalties: a contradiction all but rules a precedent out. A circumstance the report states and the precedent
 * lacks quarters it: the decision only weighs precedents when some precedent shares every stated circumstance
 * (cbr.ts resorts to a prior otherwise), so a precedent without it is a case of another kind.
 */
const CONFLICT_FACTOR = 0.15;
const ABSENT_FACTOR = 0.25;
const EXTRA_FACTOR = 0.8;

/** How well a precedent's circumstances fit the report's. */
export function circumstanceFit(report: Circumstances, precedent: Circumstances): CircumstanceFit {
  const conflicting = new Set<string>();
  for (const c of report.denied) if (precedent.stated.has(c)) conflicting.add(c);
  for (const c of report.stated) if (precedent.denied.has(c)) conflicting.add(c);
  const absent = [...report.stated].filter((c) => !precedent.stated.has(c) && !conflicting.has(c));
  const extra = [...precedent.stated].filter((c) => !report.stated.has(c) && !conflicting.has(c));
  let factor = 1;
  if (conflicting.size > 0) factor *= CONFLICT_FACTOR;
  if (absent.length > 0) factor *= ABSENT_FACTOR;
  if (extra.length > 0) factor *= EXTRA_FACTOR;
  return { factor, absent, conflicting: [...conflicting], extra };
}
