/**
 * The learn path's pure logic: segmentation, episode description, fact confidence and revision, the usefulness
 * filter, heuristic extraction, reflection and procedures. No I/O: storage and the facade wire these up.
 */
export {
  applyEvidence,
  contradictingEpisodeIds,
  evidenceWeight,
  factFieldsFromStats,
  initialStats,
  needsRevision,
  ORIGIN_PRIORS,
  planRevision,
  posteriorMean,
  statsFromEvidence,
  statsFromFact,
  supportingEpisodeIds,
  type ConfidenceStats,
  type Evidence,
  type Polarity,
  type RevisionPlan,
} from './confidence.js';
export { classifyOutcome, explicitOutcome, parseCorrection, type CorrectionParts } from './cues.js';
export { LlmSummarizer, llmEpisodeSchema, type LlmSummarizerOptions } from './describe-episode-llm.js';
export {
  actionsOf,
  describeEpisode,
  findingsOf,
  HeuristicSummarizer,
  situationOf,
  type DescribeEvent,
  type EpisodeDescription,
  type Summarizer,
} from './describe-episode.js';
export { LlmExtractor, llmHeuristicsSchema, type LlmExtractorOptions } from './extract-llm.js';
export {
  episodeEvidenceText,
  extractHeuristics,
  HeuristicExtractor,
  toExtractionEpisode,
  type ExtractionEpisode,
  type ExtractionResult,
  type Extractor,
  type HeuristicCandidate,
  type HeuristicKind,
} from './extract.js';
export { LEARN_DEFAULTS, learnConfigSchema, parseLearnOptions, type LearnConfig, type LearnConfigInput } from './options.js';
export {
  findApplicable,
  learnFromEpisode,
  recordOutcome,
  stepsOf,
  successRate,
  type LearnedProcedure,
  type ProcedureDraft,
  type ProcedureMatch,
  type Situation,
} from './procedures.js';
export { LlmReflector, llmInsightsSchema, type LlmReflectorOptions } from './reflection-llm.js';
export {
  defaultReflectionKey,
  entitiesOf,
  HeuristicReflector,
  reflectHeuristically,
  ReflectionTrigger,
  type Insight,
  type InsightKind,
  type ReflectionEvent,
  type ReflectionRequest,
  type Reflector,
  type TriggerState,
} from './reflection.js';
export {
  defaultStreamKey,
  Segmenter,
  type BoundaryReason,
  type CloseReason,
  type OpenReason,
  type Segment,
  type SegmentDecision,
  type SegmentEvent,
  type StreamState,
} from './segment.js';
export { assessUsefulness, type UsefulnessCheck, type UsefulnessInput, type UsefulnessVerdict } from './usefulness.js';
