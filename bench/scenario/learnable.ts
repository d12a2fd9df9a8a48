/**
 * Which rounds an earlier round taught, and a memory-only measure of whether memory surfaced that lesson.
 *
 * A round is *learnable* when an earlier round's established cause answers it: the earlier round's
 * `actual_root_cause` passes this round's scoring rule (names a correct keyword, or a pool pattern when the round
 * has none, and no incorrect keyword). A scenario may list the teaching rounds itself (`taught_by`); otherwise
 * they are derived that way. Round 1 is never learnable.
 *
 * The memory measure needs no decider: for every learnable round, the rank (1-based) of the first retrieved item
 * that holds the lesson — an episode or chunk of a teaching round, or a learned fact whose text names the answer
 * — and whether a teaching round's root cause or correction reaches the retrieved text at all.
 */
import type { Scenario, ScenarioRound } from './format.js';
import { isCorrect } from './score.js';

export function teachingRounds(scenario: Pick<Scenario, 'rounds' | 'pool_patterns'>, round: ScenarioRound): number[] {
  if (round.taught_by) return [...round.taught_by];
  return scenario.rounds
    .filter((r) => r.round_num < round.round_num && isCorrect(r.actual_root_cause, round, scenario.pool_patterns))
    .map((r) => r.round_num);
}

export interface LessonItem {
  kind: string;
  fromRound: number | null;
  text: string;
}

export interface LessonRank {
  /** Rounds that taught this round's answer. */
  taughtBy: number[];
  /** 1-based rank of the first item holding the lesson; null when none was retrieved. */
  rank: number | null;
  /** A teaching round's root cause or correction appears in the retrieved text. */
  inText: boolean;
}

function norm(s: string): string {
  return s.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** Names the answer the way a decision would be scored, ignoring ruled-out words (a fact may name them after "not"). */
function namesAnswer(text: string, round: ScenarioRound, poolPatterns: readonly string[]): boolean {
  return isCorrect(text, { correct_keywords: round.correct_keywords, incorrect_keywords: [] }, poolPatterns);
}

export function lessonRank(scenario: Scenario, round: ScenarioRound, items: readonly LessonItem[], contextText: string): LessonRank {
  const taughtBy = teachingRounds(scenario, round);
  const teachers = new Set(taughtBy);
  const holds = (i: LessonItem) =>
    i.fromRound !== null ? teachers.has(i.fromRound) && (i.kind !== 'chunk' || namesAnswer(i.text, round, scenario.pool_patterns)) : i.kind !== 'chunk' && namesAnswer(i.text, round, scenario.pool_patterns);
  const at = items.findIndex(holds);
  const text = norm(contextText);
  const lessons = scenario.rounds.filter((r) => teachers.has(r.round_num)).flatMap((r) => [r.actual_root_cause, r.correction].filter(Boolean));
  return { taughtBy, rank: at < 0 ? null : at + 1, inText: lessons.some((l) => text.includes(norm(l))) };
}
