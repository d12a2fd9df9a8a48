/** Feedback examples (seed 003): toggle rules, conversation analysis, similar examples and guidance. */
export { createExamplesApi, type ExamplesApi, type ExamplesApiOptions, type AnalysisReport, type AnalyzedExample, type ListExamplesInput } from './api.js';
export type { LearnDeps, RememberMeta, LongTermHit, LongTermSearchOptions } from './deps.js';
export type { FeedbackResult, FeedbackAction, InferredAction } from './toggle.js';
export type { SimilarExample, SimilarExamples } from './similar.js';
export type { Guidance } from './guidance.js';
export type { FeedbackInput, AnalyzeInput, SimilarInput, GuidanceOptions, TurnInput } from './input.js';
export { HeuristicConversationAnalyzer, analyzeHeuristically, type AnalyzedPair, type ConversationAnalyzer } from './analyze.js';
export { LlmConversationAnalyzer } from './analyze-llm.js';
export { readUserMessage, type UserMessageReading, type FeedbackCue } from './indicators.js';
