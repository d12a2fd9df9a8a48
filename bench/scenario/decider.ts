/**
 * How an agent turns retrieved memory into a decision. Heuristic mode (the default) runs the case-based
 * reasoning of decide/cbr.ts; LLM mode (llm-decider.ts) sends one prompt. Both agents always use the same one.
 */
import type { Retrieval, ScenarioAgent } from './agents/agent.js';
import { decide, type DecisionBasis } from './decide/cbr.js';

export type DecisionMode = 'heuristic' | 'llm';

export type AgentBasis = DecisionBasis | { kind: 'llm'; model: string };

export interface AgentDecision {
  /** One line, "Investigate: …". */
  text: string;
  reason: string;
  basis: AgentBasis;
}

export interface Decider {
  readonly mode: DecisionMode;
  decide(report: string, retrieval: Retrieval, agent: ScenarioAgent): Promise<AgentDecision>;
}

export const heuristicDecider: Decider = {
  mode: 'heuristic',
  async decide(report, retrieval, agent) {
    const d = await decide(report, retrieval.precedents, agent.embed);
    return { text: d.text, reason: d.reason, basis: d.basis };
  },
};
