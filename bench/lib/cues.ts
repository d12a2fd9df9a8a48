/**
 * The judge's own reading of raw text: outcome words, root-cause statements and corrections ("was actually X,
 * not Y"). Deliberately independent of the product's cue parsing (src/learn/cues.ts), so that tuning Engram's
 * learning never changes how the bench reads a baseline chunk or an episode. Generic English only.
 */
import { sentences, stripLabel, tidy } from './text.js';

export type OutcomeLabel = 'SUCCESS' | 'FAILURE' | 'PARTIAL' | 'UNKNOWN';

const PARTIAL = /\b(partial(ly)?|mitigat\w*|somewhat|some improvement|improved but|temporar(y|ily)|workaround)\b/i;
const NOT_SUCCEEDED =
  /\b(not|never|no longer|didn't|did not|doesn't|does not|wasn't|was not|hasn't|has not|isn't|is not|couldn't|could not|failed to|unable to)\b(\s+\w+){0,2}?\s+(resolv\w*|fix(?:ed|es)?|work(?:s|ed|ing)?|succe\w*|pass(?:ed|es)?|help(?:s|ed)?|solv\w*|recover\w*)\b/i;
const FAILED = /\b(fail\w*|unsuccessful|broken|regress\w*|still (failing|broken|erroring|down|timing out|slow|happening)|no (improvement|change|effect)|worse|incorrect|wrong)\b/i;
const SUCCEEDED = /\b(success\w*|succeed\w*|resolved|fixed|solved|pass(ed|es)?|works|worked|working (again|now)|green|recovered|back to normal|restored)\b/i;

function at(re: RegExp, text: string): number {
  const m = re.exec(text);
  return m ? m.index : Number.POSITIVE_INFINITY;
}

/** The outcome a text states; the first clause ("Outcome: failure. Root cause: …") is read before the rest. */
export function classifyOutcome(text: string): OutcomeLabel {
  const t = stripLabel(text, ['outcome', 'result', 'status']);
  for (const part of [t.split(/[.;\n]/)[0] ?? t, t]) {
    if (PARTIAL.test(part)) return 'PARTIAL';
    const fail = Math.min(at(NOT_SUCCEEDED, part), at(FAILED, part));
    const ok = at(SUCCEEDED, part);
    if (fail < ok) return 'FAILURE';
    if (ok < fail) return 'SUCCESS';
  }
  return 'UNKNOWN';
}

const ROOT_CAUSE = /\broot[ -]cause(?:\s+(?:was|is|turned out to be|identified as))?\s*[:\-–—]?\s*(.+)/i;
const ACTUALLY = /\b(?:was|is|turned out to be)\s+actually\s+(.+)|\bactually\s+(?:was|is|caused by)\s+(.+)/i;
const CAUSED_BY = /\bcaused by\s+(.+)/i;

function firstSentence(text: string): string {
  return tidy(sentences(text)[0] ?? text);
}

function withoutNegatedTail(text: string): string {
  return tidy(text.replace(/,?\s+(?:and\s+)?not\s+.+$/i, ''));
}

/** A root-cause statement in free text ("Root cause: X", "was actually X", "caused by X"), or undefined. */
export function rootCausePhrase(text: string): string | undefined {
  const m = ROOT_CAUSE.exec(text);
  if (m?.[1]) return firstSentence(m[1]);
  const a = ACTUALLY.exec(text);
  if (a) return withoutNegatedTail(firstSentence(a[1] ?? a[2] ?? ''));
  const c = CAUSED_BY.exec(text);
  return c?.[1] ? withoutNegatedTail(firstSentence(c[1])) : undefined;
}

export interface CorrectionParts {
  actual?: string | undefined;
  mistaken?: string | undefined;
}

/** "was actually X, not Y", "X, not Y" and "Not Y: X". */
export function parseCorrection(text: string): CorrectionParts {
  const t = stripLabel(text, ['correction', 'actually']);
  const leadingNot = /^not\s+(.+?)\s*(?:[:;—–]|\s-\s|,)\s*(.+)$/i.exec(t);
  if (leadingNot) return { mistaken: tidy(leadingNot[1]!), actual: rootCausePhrase(leadingNot[2]!) ?? firstSentence(leadingNot[2]!) };
  const xNotY = /^(?:(?:it\s+)?(?:was|is)\s+actually\s+|actually\s+)?(.+?),?\s+(?:and\s+)?not\s+(.+)$/i.exec(firstSentence(t));
  if (xNotY) return { actual: tidy(xNotY[1]!), mistaken: tidy(xNotY[2]!) };
  const actual = rootCausePhrase(t);
  return actual ? { actual } : {};
}
