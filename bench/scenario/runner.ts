/**
 * Runs a scenario online, round by round, for every agent: retrieve for the bug report → decide → score →
 * then (only then) ingest the round, so no agent ever sees a round's answer before deciding it.
 */
import type { AgentName, FactReport, ScenarioAgent } from './agents/agent.js';
import type { AgentDecision, Decider, DecisionMode } from './decider.js';
import { roundType, type Scenario, type ScenarioRound } from './format.js';
import { lessonRank, teachingRounds, type LessonRank } from './learnable.js';
import { appliesRecurringCause, isCorrect, isRecurringRound, keywordHits } from './score.js';

export interface RetrievalStats {
  items: number;
  /** Items that carry a structured outcome label (SUCCESS, FAILURE, PARTIAL). */
  labelled: number;
  episodes: number;
  episodesLabelled: number;
  facts: number;
  /** Precedents the decision procedure could build from the items. */
  precedents: number;
  /** Items whose text mentions an outcome ("outcome:"): the prototype's measure for raw chunks. */
  mentionOutcome: number;
}

export interface AgentRound {
  decision: AgentDecision;
  correct: boolean;
  /** The decision names the scenario's recurring cause (one of pool_patterns). */
  appliedRecurring: boolean;
  keywordHits: number;
  retrieval: RetrievalStats;
  /** What was retrieved, in order: id, kind, outcome label, and the round it was learned from (if one). */
  retrieved: Array<{ id: string; kind: string; outcome: string | null; fromRound: number | null }>;
  /** Learnable rounds only: where the lesson an earlier round taught ranked in what was retrieved. */
  lesson?: LessonRank;
}

export interface RoundResult {
  round: number;
  type: string;
  service: string;
  /** The round's true cause is the recurring one. */
  recurring: boolean;
  /** Earlier rounds whose established cause answers this one; empty when the round is not learnable. */
  taughtBy: number[];
  agents: Partial<Record<AgentName, AgentRound>>;
}

export interface ScenarioRun {
  mode: DecisionMode;
  rounds: RoundResult[];
  facts: Partial<Record<AgentName, FactReport[]>>;
}

export interface RunOptions {
  onRound?: (r: RoundResult) => void;
}

export async function runScenario(scenario: Scenario, agents: readonly ScenarioAgent[], decider: Decider, opts: RunOptions = {}): Promise<ScenarioRun> {
  const rounds: RoundResult[] = [];
  for (const round of scenario.rounds) {
    const result: RoundResult = {
      round: round.round_num,
      type: roundType(round),
      service: round.service,
      recurring: isRecurringRound(round, scenario),
      taughtBy: teachingRounds(scenario, round),
      agents: {},
    };
    const pending: Array<() => Promise<void>> = [];
    for (const agent of agents) {
      const retrieval = await agent.retrieve(round.bug_report, { round_num: round.round_num });
      const decision = await decider.decide(round.bug_report, retrieval, agent);
      const correct = isCorrect(decision.text, round, scenario.pool_patterns);
      result.agents[agent.name] = {
        decision,
        correct,
        appliedRecurring: appliesRecurringCause(decision.text, scenario),
        keywordHits: keywordHits(`${retrieval.contextText} ${decision.text}`, round),
        retrieval: retrievalStats(retrieval),
        retrieved: retrieval.items.map((i) => ({ id: i.id, kind: i.kind, outcome: i.outcome, fromRound: i.fromRound })),
        ...(result.taughtBy.length ? { lesson: lessonRank(scenario, round, retrieval.items, retrieval.contextText) } : {}),
      };
      pending.push(() => agent.learn(round, retrieval));
    }
    // Every agent decides before any learns: the same information state for all, whatever the agent order.
    for (const learn of pending) await learn();
    rounds.push(result);
    opts.onRound?.(result);
  }
  const facts: ScenarioRun['facts'] = {};
  for (const agent of agents) facts[agent.name] = await agent.facts();
  return { mode: decider.mode, rounds, facts };
}

function retrievalStats(r: { items: Array<{ kind: string; outcome: string | null; text: string }>; precedents: unknown[] }): RetrievalStats {
  const episodes = r.items.filter((i) => i.kind === 'episode');
  return {
    items: r.items.length,
    labelled: r.items.filter((i) => i.outcome !== null).length,
    episodes: episodes.length,
    episodesLabelled: episodes.filter((i) => i.outcome !== null).length,
    facts: r.items.filter((i) => i.kind === 'fact').length,
    precedents: r.precedents.length,
    mentionOutcome: r.items.filter((i) => /\boutcome\s*:/i.test(i.text)).length,
  };
}

export type { ScenarioRound };
