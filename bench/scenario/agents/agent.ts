/**
 * What the runner needs from an agent's memory: retrieve for a report, learn from a finished round, and show
 * what it ended up believing. Both agents decide with the same procedure (decide/); only memory differs.
 */
import type { Outcome } from '../../../src/index.js';
import type { Precedent } from '../decide/precedents.js';
import type { EmbedFn } from '../decide/similarity.js';
import type { ScenarioRound } from '../format.js';

export type AgentName = 'engram' | 'baseline';

export interface RetrievedItem {
  id: string;
  /** episode, fact, event, chunk … */
  kind: string;
  /** Structured outcome label the item carries; null when it has none (UNKNOWN counts as none). */
  outcome: Outcome | null;
  /** The round the item was learned from, when it belongs to one (facts span rounds: null). Report only. */
  fromRound: number | null;
  text: string;
}

export interface Retrieval {
  /** Engram's retrieval id (what recordOutcome is given); undefined for the baseline. */
  retrievalId?: string | undefined;
  items: RetrievedItem[];
  precedents: Precedent[];
  /** The retrieved memory as an LLM would be shown it. */
  contextText: string;
}

export interface FactVersionReport {
  version: number;
  text: string;
  confidence: number;
  supportCount: number;
  contradictCount: number;
  live: boolean;
  /** A retired rule's closing version: the reason it records (`metadata.retired.reason`); it is live but holds nowhere. */
  retired?: string;
}

export interface FactReport {
  key: string;
  kind: string;
  versions: FactVersionReport[];
}

export interface ScenarioAgent {
  readonly name: AgentName;
  /** The embedding the decision procedure compares texts with (the agent's own embedder). */
  readonly embed: EmbedFn;
  /** Memory for the round's bug report (the round is passed for scoping only: its answer is not read). */
  retrieve(report: string, round: Pick<ScenarioRound, 'round_num'>): Promise<Retrieval>;
  /** Ingests the finished round (after the decision was scored). */
  learn(round: ScenarioRound, retrieval: Retrieval): Promise<void>;
  /** Learned facts with every version; empty for a memory without facts. */
  facts(): Promise<FactReport[]>;
  close(): Promise<void>;
}

/**
 * The texts of a finished round, as both memories receive them: the report, each note, the attempted fix,
 * the assumption, "Outcome: <o>. Root cause: <cause>" and "Correction: <c>" (the prototype's lines).
 */
export interface RoundTexts {
  report: string;
  notes: string[];
  attemptedFix?: string | undefined;
  assumption?: string | undefined;
  outcomeLine: string;
  correctionLine?: string | undefined;
}

export function roundTexts(r: ScenarioRound): RoundTexts {
  return {
    report: r.bug_report,
    notes: r.investigation_notes,
    attemptedFix: r.attempted_fix || undefined,
    assumption: r.assumption ? `Assumption: ${r.assumption}` : undefined,
    outcomeLine: `Outcome: ${r.outcome}. Root cause: ${r.actual_root_cause}`,
    correctionLine: r.correction ? `Correction: ${r.correction}` : undefined,
  };
}
