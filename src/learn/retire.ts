/**
 * When a learned rule stops holding: the verdict that retires it (its lineage's validity is closed, see
 * engine/retire.ts) instead of rewording it.
 *
 * A rule "When a report mentions <condition>, check <cause>" is worth keeping while its condition tells its cause
 * apart from others. It is put on trial against the closed cases that are not its sources (the episodes it was
 * learned from): each case's report either meets the condition (the share of the condition's words it states, at
 * least `match`) or not, and its established cause is either the rule's (the cause of one of its sources) or
 * another one. It fails — **condition_not_discriminating** — when the condition met at least `minMatched` reports,
 * at least two of another cause and at least as many of another cause as of its own, and it is met at least as often
 * among the reports of other causes as among those of its own: the condition holds wherever the rule is retrieved
 * and says nothing about which cause it is (a word every report of the tenant has, such as the name of the person
 * they are about). Outcomes that go against a rule are left to revision (confidence.ts): they lower its confidence
 * and name the exception, and the rule stays.
 *
 * Pure: the caller supplies the cases.
 */
import { matchShare } from './extract-clusters.js';

export interface TrialCase {
  id: string;
  /** The report's cue stems (what it states, diagnostic words only: extract-clusters `Prepared.situation`). */
  report: Set<string>;
  /** Whether its established cause is the rule's own cause. */
  sameCause: boolean;
}

export interface RetireOptions {
  /** Share of the condition's words a report must state to meet it (the extractor's `contradictMatch`). */
  match: number;
  /** Reports meeting the condition before it can be found not to discriminate. */
  minMatched: number;
}

export const DEFAULT_RETIRE_OPTIONS: RetireOptions = { match: 0.6, minMatched: 2 };

export const RETIRE_REASONS = ['condition_not_discriminating'] as const;
export type RetireReason = (typeof RETIRE_REASONS)[number];

export interface ConditionTrial {
  /** Cases whose report meets the condition, of the rule's cause and of another one. */
  matchedSame: string[];
  matchedOther: string[];
  /** Cases of each kind in the trial. */
  same: number;
  other: number;
}

export interface RetireVerdict {
  reason: RetireReason;
  trial: ConditionTrial;
}

export function conditionTrial(condition: ReadonlySet<string>, cases: readonly TrialCase[], match: number): ConditionTrial {
  const need = new Set(condition);
  const meets = (c: TrialCase) => need.size > 0 && matchShare(c.report, need) >= match - 1e-9;
  return {
    matchedSame: cases.filter((c) => c.sameCause && meets(c)).map((c) => c.id),
    matchedOther: cases.filter((c) => !c.sameCause && meets(c)).map((c) => c.id),
    same: cases.filter((c) => c.sameCause).length,
    other: cases.filter((c) => !c.sameCause).length,
  };
}

/** Whether the condition fails to tell the rule's cause from others on this trial (see the module comment). */
export function notDiscriminating(t: ConditionTrial, opts: Pick<RetireOptions, 'minMatched'>): boolean {
  const matched = t.matchedSame.length + t.matchedOther.length;
  if (matched < opts.minMatched || t.matchedOther.length < 2 || t.matchedOther.length < t.matchedSame.length) return false;
  const amongOther = t.matchedOther.length / Math.max(1, t.other);
  const amongSame = t.same === 0 ? 0 : t.matchedSame.length / t.same;
  return amongOther >= amongSame;
}

/** The reason to retire a rule on this trial, if any. */
export function retireVerdict(t: ConditionTrial, opts: RetireOptions = DEFAULT_RETIRE_OPTIONS): RetireVerdict | undefined {
  return notDiscriminating(t, opts) ? { reason: 'condition_not_discriminating', trial: t } : undefined;
}
