/**
 * A learned rule the cases refute. A heuristic or insight (what outcomes taught) carries its evidence: how many
 * closed episodes supported it and how many contradicted it. When the contradictions are at least as many as the
 * supports, the rule is no evidence of its own — half or more of the cases it was tested on went against it — and,
 * where closed cases are themselves candidates, it only restates them less reliably: shown beside them it reads
 * as one more case for whatever its text names (a revised rule quotes the contradicting example's root cause).
 * Such rules leave the candidates when at least one closed case is among them; with no case to speak instead,
 * they stay (their confidence already shows the doubt).
 *
 * Counts only: nothing here reads a rule's words.
 */
import { isClosedCase } from './standout.js';
import type { Candidate } from './types.js';

const LEARNED: ReadonlySet<string> = new Set(['heuristic', 'insight']);

/** A learned fact contradicted by outcomes at least as often as supported (and at least once). */
export function isRefutedRule(c: Pick<Candidate, 'doc' | 'fact'>): boolean {
  const f = c.fact;
  if (c.doc.kind !== 'fact' || !LEARNED.has(c.doc.type ?? '') || !f) return false;
  return f.contradictCount > 0 && f.contradictCount >= f.supportCount;
}

/** The candidates without refuted rules, when a closed case is among them; unchanged otherwise. */
export function withoutRefutedRules(candidates: readonly Candidate[]): Candidate[] {
  if (!candidates.some(isClosedCase)) return [...candidates];
  return candidates.filter((c) => !isRefutedRule(c));
}
