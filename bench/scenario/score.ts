/**
 * Scoring, exactly the published prototype's `_is_correct` (eval/compare.py), plus the per-round judgements
 * the report aggregates. Substring tests on the lowercased one-line decision:
 *   any incorrect keyword → wrong; elif the round has correct keywords → correct iff any is present;
 *   else correct iff any of the scenario's pool_patterns is present.
 * The only difference: keywords are lowercased too (the prototype's are all lowercase already).
 */
import type { Scenario, ScenarioRound } from './format.js';

function containsAny(haystack: string, needles: readonly string[]): boolean {
  const h = haystack.toLowerCase();
  return needles.some((n) => n.length > 0 && h.includes(n.toLowerCase()));
}

export function isCorrect(decision: string, round: Pick<ScenarioRound, 'correct_keywords' | 'incorrect_keywords'>, poolPatterns: readonly string[]): boolean {
  if (containsAny(decision, round.incorrect_keywords)) return false;
  if (round.correct_keywords.length > 0) return containsAny(decision, round.correct_keywords);
  return containsAny(decision, poolPatterns);
}

/** The decision names the scenario's recurring cause (one of its pool_patterns). */
export function appliesRecurringCause(decision: string, scenario: Pick<Scenario, 'pool_patterns'>): boolean {
  return containsAny(decision, scenario.pool_patterns);
}

/** The round's true cause is the recurring one: its actual_root_cause names one of the pool_patterns. */
export function isRecurringRound(round: Pick<ScenarioRound, 'actual_root_cause'>, scenario: Pick<Scenario, 'pool_patterns'>): boolean {
  return containsAny(round.actual_root_cause, scenario.pool_patterns);
}

/**
 * What a CORRECTION round said was wrong: its incorrect_keywords, else its assumption. The next round adapts
 * when its decision names none of them.
 */
export function correctedCauseTerms(round: Pick<ScenarioRound, 'incorrect_keywords' | 'assumption'>): string[] {
  if (round.incorrect_keywords.length > 0) return [...round.incorrect_keywords];
  return round.assumption ? [round.assumption.toLowerCase()] : [];
}

export function namesAny(decision: string, terms: readonly string[]): boolean {
  return containsAny(decision, terms);
}

/** How many of the round's expected_keywords appear in context + decision (the prototype's "Keywords" column). */
export function keywordHits(contextAndDecision: string, round: Pick<ScenarioRound, 'expected_keywords'>): number {
  const h = contextAndDecision.toLowerCase();
  return round.expected_keywords.filter((k) => h.includes(k)).length;
}
