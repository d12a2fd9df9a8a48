/**
 * The learn engine: the pure learn logic (../) running on real storage. `createLearnEngine` wires a Learner
 * (online segmentation, links, extraction, reflection) and the APIs the facade exposes.
 */
import type { Outcome } from '../../core/types.js';
import { recordOutcome, learnApi, type AppendEvents, type LearnApi, type OutcomeOptions, type OutcomeReport } from './api.js';
import { engineContext, type EngineContext } from './context.js';
import type { LearnDeps } from './deps.js';
import { Learner } from './learner.js';
import { proceduresApi, type ProceduresApi } from './procedures.js';

export interface LearnEngine {
  readonly context: EngineContext;
  readonly learner: Learner;
  readonly learn: LearnApi;
  readonly procedures: ProceduresApi;
  recordOutcome(retrievalId: string, outcome: Outcome | Lowercase<Outcome>, opts?: OutcomeOptions): Promise<OutcomeReport>;
}

export function createLearnEngine(
  deps: LearnDeps,
  wiring: { defaultTenant: string; append: AppendEvents; waitForVectors?: () => Promise<void> },
): LearnEngine {
  const context = engineContext(deps);
  const learner = new Learner(context, { waitForVectors: wiring.waitForVectors });
  return {
    context,
    learner,
    learn: learnApi(context, learner, wiring.defaultTenant),
    procedures: proceduresApi(context, wiring.defaultTenant),
    recordOutcome: (retrievalId, outcome, opts) => recordOutcome(context, learner, wiring.append, wiring.defaultTenant, retrievalId, outcome, opts),
  };
}

export type { AppendEvents, LearnApi, OutcomeOptions, OutcomeReport } from './api.js';
export type { ConsolidateOptions, ConsolidationReport } from './consolidate.js';
export type { LearnDeps } from './deps.js';
export type { ExtractionApplied, FactUpdate } from './facts.js';
export type { LearnerRun } from './learner.js';
export type { LinkInput } from './links.js';
export { engineOptionsSchema, learnSettingsSchema, type EngineOptions, type LearnSettings, type LearnSettingsInput } from './options.js';
export type { ProcedureInput, ProceduresApi } from './procedures.js';
export type { FactReinforcement, ReinforceReport } from './reinforce.js';
export { Learner };
