/**
 * A clause-level reading of closed cases against the report. A case is told from its look-alikes by what it states
 * that the other causes' cases do not (its distinctive clauses: those that share no more than a few content stems
 * with any clause of a case of another cause), and a report meets such a clause when it states the same scope
 * ("across the whole site" against "on every terminal", "only one branch" against "a single account") or
 * contradicts it when it states the opposite scope ("for everybody" against "it works locally"), or says of the same
 * thing what the clause denies ("on a holiday she is home" against "it was not her holiday"). The cases are
 * reordered among themselves by final + CLAUSE_WEIGHT × that evidence and take the finals they held between them (the
 * slot form of findings.ts): nothing moves against a learned rule or an event, and only near ties among cases move.
 * The cues are general English: quantifier scope and negation words; nothing of any domain.
 */
import type { Episode } from '../core/types.js';
import { contentTerms, STOPWORDS, tokens } from '../learn/text.js';
import { reorderInSlots } from './findings.js';
import { isClosedCase } from './standout.js';
import type { Candidate } from './types.js';

export const CLAUSE_WEIGHT = 0.03;
/** A clause sharing more than this share of its content stems with another cause's clause is not distinctive. */
export const DISTINCT_OVERLAP = 0.34;

const ALL = new Set(['every', 'everywhere', 'everyone', 'everybody', 'all', 'whole', 'entire']);
const SOME = new Set(['only', 'single', 'one', 'locally', 'alone', 'except']);
/** A negation must be about what the other clause says: this share of the smaller clause's stems shared. */
export const NEGATION_OVERLAP = 0.67;
const NEGATION = new Set(['not', 'no', 'never', 'nothing', 'none', 'nobody', 'without', 'neither', 'nor', 'cannot']);
const CUES = new Set([...ALL, ...SOME, ...NEGATION]);

export type Scope = 'all' | 'some' | undefined;

export interface Clause {
  stems: Set<string>;
  scope: Scope;
  negated: boolean;
}

/** A text's clauses: split at sentence and clause punctuation and at contrast conjunctions. */
export function clausesOf(text: string): Clause[] {
  return text
    .split(/[.;:!?,()\n]+|\b(?:but|although|though|while|whereas|however)\b/i)
    .map(clauseOf)
    .filter((c) => c.stems.size > 0);
}

export function clauseOf(text: string): Clause {
  // A hyphenated compound ("read-only", "one-off") is one word, not a quantifier.
  const toks = tokens(text.replace(/([\p{L}\p{N}])-([\p{L}\p{N}])/gu, '$1$2'));
  const all = toks.some((t) => ALL.has(t));
  const some = toks.some((t, i) => SOME.has(t) && (t !== 'one' || countsOne(toks, i)));
  return {
    stems: new Set(contentTerms(text).filter((t) => !CUES.has(t.surface)).map((t) => t.stem)),
    scope: all === some ? undefined : all ? 'all' : 'some',
    negated: toks.some((t) => NEGATION.has(t) || t.endsWith("n't")),
  };
}

const DETERMINERS = new Set(['the', 'a', 'an', 'this', 'that', 'which', 'each', 'any', 'no', 'every']);

/** "one" as a quantifier ("one printer", "one big account"), not a pronoun ("the blue one") nor "one of". */
function countsOne(toks: readonly string[], i: number): boolean {
  const next = toks[i + 1];
  return next !== undefined && !STOPWORDS.has(next) && !DETERMINERS.has(toks[i - 1] ?? '');
}

function overlap(a: Clause, b: Clause): number {
  if (a.stems.size === 0 || b.stems.size === 0) return 0;
  let n = 0;
  for (const s of a.stems) if (b.stems.has(s)) n++;
  return n / Math.min(a.stems.size, b.stems.size);
}

/**
 * What an incident states: its situation (the report, describe-episode.ts) and its cause; not what was tried,
 * assumed or corrected (a correction's "not X" denies the assumption, not the incident). Without a stored
 * situation, the summary.
 */
export function caseText(e: Episode): string {
  const situation = typeof e.metadata.situation === 'string' ? e.metadata.situation : e.summary;
  return [situation, e.rootCause ?? ''].join('. ');
}

/** The clauses of `own` that no clause of `others` shares more than DISTINCT_OVERLAP of its stems with. */
export function distinctive(own: readonly Clause[], others: readonly Clause[], max = DISTINCT_OVERLAP): Clause[] {
  return own.filter((c) => others.every((o) => overlap(c, o) <= max));
}

/**
 * How the query's clauses meet a case's distinctive clauses: +1 for each pair stating the same scope, −1 for each
 * stating the opposite scope, −1 for each pair about the same thing (NEGATION_OVERLAP of the smaller clause's stems
 * shared) of which one denies it; clipped to −1..1.
 */
export function meet(query: readonly Clause[], own: readonly Clause[]): number {
  let s = 0;
  for (const q of query) {
    for (const d of own) {
      if (q.scope && d.scope) s += q.scope === d.scope ? 1 : -1;
      if (q.negated !== d.negated && overlap(q, d) >= NEGATION_OVERLAP) s -= 1;
    }
  }
  return Math.max(-1, Math.min(1, s));
}

/**
 * By episode id, the clause evidence of each closed case among `cases` against the query; the other cause groups'
 * clauses are those of the other cases given. Empty when the query states no scope and no negation.
 */
export function clauseEvidence(
  query: string,
  cases: readonly Candidate[],
  episodes: ReadonlyMap<string, Episode>,
  groups: ReadonlyMap<string, readonly string[]>,
): Map<string, number> {
  const q = clausesOf(query);
  const out = new Map<string, number>();
  if (!q.some((c) => c.scope || c.negated)) return out;
  const ids = [...new Set(cases.filter(isClosedCase).map((c) => c.doc.refId))];
  const clauses = new Map(ids.flatMap((id) => {
    const e = episodes.get(id);
    return e ? [[id, clausesOf(caseText(e))] as const] : [];
  }));
  for (const c of cases.filter(isClosedCase)) {
    const id = c.doc.refId;
    const own = clauses.get(id);
    if (!own) continue;
    const same = new Set(groups.get(id) ?? [id]);
    const others = [...clauses].flatMap(([other, cl]) => (same.has(other) ? [] : cl));
    out.set(id, meet(q, distinctive(own, others)));
  }
  return out;
}

/**
 * The cases with evidence are ordered by final + weight × evidence and take, in that order, the finals they held
 * between them; what each final moved by is named in the breakdown (`findings`, the same slot-form lift).
 */
export function liftByClauses(candidates: readonly Candidate[], evidence: ReadonlyMap<string, number>, weight = CLAUSE_WEIGHT): Candidate[] {
  const cases = candidates.filter((c) => isClosedCase(c) && evidence.has(c.doc.refId));
  if (cases.length < 2 || cases.every((c) => evidence.get(c.doc.refId) === 0)) return [...candidates];
  return reorderInSlots(candidates, cases, (c) => c.scores.final + weight * evidence.get(c.doc.refId)!);
}
