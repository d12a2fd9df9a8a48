/** The read path: hybrid search and context building (see context.ts for the whole pipeline). */
export { buildContext } from './context.js';
export { mergeScope } from './scopes.js';
export { search, MAX_SEARCH_K } from './search.js';
export { routeQuery, kindBoost, type RoutePlan } from './router.js';
export { fuse, fuseEvidence, lexicalEvidence, lexicalCeiling, vectorEvidence, calibrateVector, type Fused } from './fuse.js';
export { detectConflicts, resolveConflicts, judgeConflicts, type ConflictJudge, type JudgeVerdict, type DetectedConflict } from './conflicts.js';
export { fitBudget, truncateWithMeaning } from './budget.js';
export { resolveSections, COUNTER_EXAMPLE_SECTION, type SectionSpec } from './sections.js';
export { causalChain, chainsFor, narrate, CHAIN_LINK_TYPES } from './causal.js';
export { lessonValue, outcomeBonus, effectiveRelevance, episodeBody, factBody, episodeView, factView, OUTCOME_WEIGHT } from './outcome.js';
export { pickCounterExample, majorityOutcome, MIN_COUNTER_RELEVANCE } from './counter.js';
export { hopCandidates, HOP_DISCOUNT } from './hops.js';
export type {
  ReadDeps,
  SearchRequest,
  SearchHit,
  ContextRequest,
  ContextResult,
  ContextItem,
  ContextSection,
  CausalChain,
  EpisodeView,
  FactView,
  ConflictNote,
  ScoreBreakdown,
  Provenance,
  QueryRoute,
  RetrievalMode,
} from './types.js';
