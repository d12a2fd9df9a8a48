/**
 * The benchmark's totals per agent, from the per-round results:
 *  - correct decisions;
 *  - retrieved items carrying a structured outcome label (and, of those, episodes);
 *  - pattern applications: rounds whose true cause is the recurring one (pool_patterns) where the decision
 *    named it; false positives: rounds with another true cause where it named it anyway;
 *  - adaptation after correction: for each CORRECTION round, did the next round's decision avoid what the
 *    correction said was wrong (its incorrect_keywords, else its assumption)? Reported with whether the
 *    CORRECTION round's own decision had named it (the prototype's "yes→no").
 */
import type { AgentName } from './agents/agent.js';
import type { Scenario } from './format.js';
import type { ScenarioRun } from './runner.js';
import { correctedCauseTerms, namesAny } from './score.js';

export interface Ratio {
  n: number;
  of: number;
}

export interface Adaptation {
  from: number;
  to: number;
  /** The corrected round's own decision named the corrected-away cause (before the correction arrived). */
  appliedBefore: boolean;
  /** The next round's decision avoided it. */
  avoided: boolean;
  /** adapted: the next round avoided the corrected-away cause; repeated mistake: it named it again. */
  verdict: 'adapted' | 'repeated mistake';
}

export interface AgentSummary {
  correct: Ratio;
  retrievedLabelled: Ratio;
  episodesLabelled: Ratio;
  /** Retrieved items whose text says "outcome:" (the prototype's measure for unstructured chunks). */
  mentionOutcome: Ratio;
  patternApplications: Ratio;
  falsePositives: Ratio;
  adaptations: Adaptation[];
  /** Rounds an earlier round taught (learnable.ts) decided correctly. */
  learnable: Ratio;
  /** Learnable rounds whose lesson was the first retrieved item / among the first three. */
  precedentAt1: Ratio;
  precedentAt3: Ratio;
  /** Learnable rounds whose teaching round's root cause or correction reached the retrieved text. */
  lessonInText: Ratio;
  byPrior: number;
  byPrecedent: number;
  /** Of the precedent decisions, those made by recurrence (no situation close enough). */
  byRecurrence: number;
}

export function summarize(scenario: Scenario, run: ScenarioRun, agent: AgentName): AgentSummary {
  const rows = run.rounds.flatMap((r) => (r.agents[agent] ? [{ r, a: r.agents[agent] }] : []));
  const sum = (f: (x: (typeof rows)[number]) => number) => rows.reduce((s, x) => s + f(x), 0);
  const recurring = rows.filter((x) => x.r.recurring);
  const other = rows.filter((x) => !x.r.recurring);
  const hasPattern = scenario.pool_patterns.length > 0;
  const learnable = rows.filter((x) => x.r.taughtBy.length > 0);
  return {
    correct: { n: sum((x) => (x.a.correct ? 1 : 0)), of: rows.length },
    retrievedLabelled: { n: sum((x) => x.a.retrieval.labelled), of: sum((x) => x.a.retrieval.items) },
    episodesLabelled: { n: sum((x) => x.a.retrieval.episodesLabelled), of: sum((x) => x.a.retrieval.episodes) },
    mentionOutcome: { n: sum((x) => x.a.retrieval.mentionOutcome), of: sum((x) => x.a.retrieval.items) },
    patternApplications: hasPattern ? { n: recurring.filter((x) => x.a.appliedRecurring).length, of: recurring.length } : { n: 0, of: 0 },
    falsePositives: hasPattern ? { n: other.filter((x) => x.a.appliedRecurring).length, of: other.length } : { n: 0, of: 0 },
    adaptations: adaptations(scenario, run, agent),
    learnable: { n: learnable.filter((x) => x.a.correct).length, of: learnable.length },
    precedentAt1: { n: learnable.filter((x) => x.a.lesson?.rank === 1).length, of: learnable.length },
    precedentAt3: { n: learnable.filter((x) => (x.a.lesson?.rank ?? 99) <= 3).length, of: learnable.length },
    lessonInText: { n: learnable.filter((x) => x.a.lesson?.inText).length, of: learnable.length },
    byPrior: rows.filter((x) => x.a.decision.basis.kind === 'prior').length,
    byPrecedent: rows.filter((x) => x.a.decision.basis.kind === 'precedent').length,
    byRecurrence: rows.filter((x) => x.a.decision.basis.kind === 'precedent' && x.a.decision.basis.via === 'recurrence').length,
  };
}

function adaptations(scenario: Scenario, run: ScenarioRun, agent: AgentName): Adaptation[] {
  const out: Adaptation[] = [];
  scenario.rounds.forEach((round, i) => {
    const next = scenario.rounds[i + 1];
    if (!next || round.round_label.toUpperCase() !== 'CORRECTION') return;
    const terms = correctedCauseTerms(round);
    const before = run.rounds.find((r) => r.round === round.round_num)?.agents[agent];
    const after = run.rounds.find((r) => r.round === next.round_num)?.agents[agent];
    if (!before || !after || terms.length === 0) return;
    const appliedBefore = namesAny(before.decision.text, terms);
    const avoided = !namesAny(after.decision.text, terms);
    out.push({ from: round.round_num, to: next.round_num, appliedBefore, avoided, verdict: avoided ? 'adapted' : 'repeated mistake' });
  });
  return out;
}

export function ratio(r: Ratio): string {
  return r.of === 0 ? 'n/a' : `${r.n}/${r.of} (${Math.round((100 * r.n) / r.of)}%)`;
}
