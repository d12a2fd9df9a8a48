/**
 * Phrase cues that read an episode's text: outcome words, decisions, assumptions, root causes and the
 * "X, not Y" shape of a correction. Generic English only: they work on any domain's incident log.
 */
import { OUTCOMES, type Json, type JsonObject, type Outcome } from '../core/types.js';
import { intersectionSize, overlapCoefficient, sentences, specificStems, stripLabel, tidy } from './text.js';

const PARTIAL_RE = /\b(partial(ly)?|mitigat\w*|somewhat|some improvement|improved but|temporar(y|ily)|workaround)\b/i;
/**
 * A success word under a negation: "did not fix", "not resolved", "failed to recover". Whole inflections
 * only: "not a stuck worker" or "no helper thread" are no verdicts.
 */
const NEGATED_SUCCESS_RE =
  /\b(not|never|no longer|didn't|did not|doesn't|does not|wasn't|was not|hasn't|has not|isn't|is not|couldn't|could not|failed to|unable to)\b(\s+\w+){0,2}?\s+(resolv\w*|fix(?:ed|es)?|work(?:s|ed|ing)?|succe\w*|pass(?:ed|es)?|help(?:s|ed)?|solv\w*|recover\w*)\b/i;
const FAILURE_RE =
  /\b(fail\w*|unsuccessful|broken|regress\w*|still (failing|broken|erroring|down|timing out|slow|happening)|no (improvement|change|effect)|worse|incorrect|wrong)\b/i;
const SUCCESS_RE = /\b(success\w*|succeed\w*|resolved|fixed|solved|pass(ed|es)?|works|worked|working (again|now)|green|recovered|back to normal|restored)\b/i;

/** Reads an outcome label from free text; UNKNOWN when no cue is present. */
export function classifyOutcome(text: string): Outcome {
  const t = stripLabel(text, ['outcome', 'result', 'status']);
  const head = t.split(/[.;\n]/)[0] ?? t;
  // The first clause usually carries the verdict ("Outcome: failure. Root cause: …"); read it first so the
  // cause's own words ("… under peak traffic, fixed by …") do not override it.
  for (const part of [head, t]) {
    if (PARTIAL_RE.test(part)) return 'PARTIAL';
    // The earliest cue wins: "success — the wrong key was rotated" is a success.
    const failAt = Math.min(indexOf(NEGATED_SUCCESS_RE, part), indexOf(FAILURE_RE, part));
    const successAt = indexOf(SUCCESS_RE, part);
    if (failAt < successAt) return 'FAILURE';
    if (successAt < failAt) return 'SUCCESS';
  }
  return 'UNKNOWN';
}

function indexOf(re: RegExp, text: string): number {
  const m = re.exec(text);
  return m ? m.index : Number.POSITIVE_INFINITY;
}

/** `metadata.outcome` as an Outcome ("success", "FAILURE", "partial" …), or undefined. */
export function explicitOutcome(metadata: JsonObject | undefined): Outcome | undefined {
  const v = metadata?.outcome;
  if (typeof v !== 'string') return undefined;
  const up = v.trim().toUpperCase();
  return (OUTCOMES as readonly string[]).includes(up) ? (up as Outcome) : undefined;
}

/** A string or a list of strings stored under one of `keys` in metadata. */
export function metadataStrings(metadata: JsonObject | undefined, keys: readonly string[]): string[] {
  const out: string[] = [];
  for (const k of keys) {
    const v: Json | undefined = metadata?.[k];
    if (typeof v === 'string' && v.trim()) out.push(v.trim());
    if (Array.isArray(v)) for (const x of v) if (typeof x === 'string' && x.trim()) out.push(x.trim());
  }
  return out;
}

const DECISION_RE = /\b(decided|decide to|chose|chosen|opted|going with|will (try|roll|use|switch|restart|increase|raise|revert|add|remove|disable|enable))\b/i;

/** Sentences of a text that state a decision ("decided to …", "going with …"). */
export function decisionSentences(text: string): string[] {
  return sentences(text).filter((s) => DECISION_RE.test(s)).map(tidy);
}

const ASSUMPTION_RE = /\b(assum(?:ed|ing|e|ption)|thought (?:it|this|that) was|suspect(?:ed|ing)?|hypothes[ie]s|believed|presumably|expected it to be)\b(?:\s+(?:that|it was|it's|to be))?[:\s]+(.+)/i;

/**
 * What an episode took for granted: the clause after an assumption cue ("Restarted the pods, assuming a memory
 * leak" → "a memory leak"), or the whole sentence when the clause is too short to stand alone.
 */
export function assumptionPhrases(text: string): string[] {
  const out: string[] = [];
  for (const s of sentences(text)) {
    const m = ASSUMPTION_RE.exec(s);
    if (!m) continue;
    const clause = tidy(m[2] ?? '');
    out.push(clause.split(/\s+/).length >= 2 ? clause : tidy(s));
  }
  return out;
}

const ROOT_CAUSE_RE = /\broot[ -]cause(?:\s+(?:was|is|turned out to be|identified as))?\s*[:\-–—]?\s*(.+)/i;
const ACTUALLY_RE = /\b(?:was|is|turned out to be)\s+actually\s+(.+)|\bactually\s+(?:was|is|caused by)\s+(.+)/i;
const CAUSED_BY_RE = /\bcaused by\s+(.+)/i;

/** A root-cause statement in free text, or undefined. */
export function rootCausePhrase(text: string): string | undefined {
  const m = ROOT_CAUSE_RE.exec(text);
  if (m?.[1]) return firstSentence(m[1]);
  const a = ACTUALLY_RE.exec(text);
  if (a) return withoutNegatedTail(firstSentence(a[1] ?? a[2] ?? ''));
  const c = CAUSED_BY_RE.exec(text);
  return c?.[1] ? withoutNegatedTail(firstSentence(c[1])) : undefined;
}

export interface CorrectionParts {
  /** What it really was ("the outbound HTTP client connection cap"). */
  actual?: string | undefined;
  /** What was believed instead ("a memory leak"). */
  mistaken?: string | undefined;
}

/** Reads "was actually X, not Y", "X, not Y" and "Not Y: X" corrections. */
export function parseCorrection(text: string): CorrectionParts {
  const t = stripLabel(text, ['correction', 'actually']);
  const leadingNot = /^not\s+(.+?)\s*(?:[:;—–]|\s-\s|,)\s*(.+)$/i.exec(t);
  if (leadingNot) return { mistaken: tidy(leadingNot[1]!), actual: rootCausePhrase(leadingNot[2]!) ?? firstSentence(leadingNot[2]!) };
  const first = firstSentence(t);
  const xNotY = /^(?:(?:it\s+)?(?:was|is)\s+actually\s+|actually\s+)?(.+?),?\s+(?:and\s+)?not\s+(.+)$/i.exec(first);
  if (xNotY) return { actual: tidy(xNotY[1]!), mistaken: tidy(xNotY[2]!) };
  const actual = rootCausePhrase(t);
  return actual ? { actual } : {};
}

function firstSentence(text: string): string {
  return tidy(sentences(text)[0] ?? text);
}

/** "X, not Y" → "X": the negated tail names the mistaken belief, not the cause. */
function withoutNegatedTail(text: string): string {
  return tidy(text.replace(/,?\s+(?:and\s+)?not\s+.+$/i, ''));
}

/** Clause boundaries: sentence ends (not the dots inside "v2.4.1"), semicolons, dashes used as breaks, "but". */
const CLAUSE_SPLIT = /(?:[.;!?]+(?=\s|$)|\n)\s*|\s[—–]\s|\s-\s|,?\s+but\s+/;
/** A negator denies what follows it up to the next comma or the clause end. */
const PRE_NEGATION = /\b(?:not|no|never|nor|without|isn't|wasn't|aren't|weren't|didn't|doesn't|don't)\b[^,]*/gi;
/** "<1–3 words> (is|looks|stayed …)? normal|unchanged|healthy …" denies those words. */
const POST_NEGATION =
  /(?:[\w.-]+\s+){0,2}[\w.-]+\s+(?:(?:is|are|was|were|looks?|looked|remained|stayed|stays|seems?)\s+)?(?:unchanged|normal|steady|stable|flat|healthy|fine)\b/gi;

/**
 * The text without what it denies: "no errors logged", "not during load", "disk usage is normal", "queries
 * are fine" are blanked, so a word that only occurs denied does not count as something the text reports.
 */
export function statedText(text: string): string {
  return text
    .split(CLAUSE_SPLIT)
    .map((clause) => clause.replace(PRE_NEGATION, ' ').replace(POST_NEGATION, ' '))
    .join('. ');
}

/** What the corrections of an episode say was wrongly believed, as specific stems. */
export function mistakenStems(corrections: readonly string[], assumptions: readonly string[] = []): Set<string> {
  const mistaken = corrections.map((c) => parseCorrection(c).mistaken ?? '').filter(Boolean);
  return specificStems([...mistaken, ...(mistaken.length ? [] : assumptions)].join(' '));
}

/** Whether a root cause names what a correction says was mistaken (the episode taught the wrong lesson). */
export function revisesLesson(mistaken: ReadonlySet<string>, rootCause: string | undefined): number {
  if (!rootCause || mistaken.size === 0) return 0;
  const cause = specificStems(rootCause);
  const shared = intersectionSize(mistaken, cause);
  if (shared === 0 || (shared < 2 && mistaken.size > 1)) return 0;
  return overlapCoefficient(mistaken, cause);
}
