/**
 * The engine's shared context: dependencies plus the strategy objects chosen once from them — heuristic by
 * default, LLM-backed (with the heuristic as fallback) when an LLM is configured.
 */
import type { Clock } from '../../ports/clock.js';
import type { Embedder } from '../../ports/embedder.js';
import type { Storage } from '../../ports/storage.js';
import { LlmSummarizer } from '../describe-episode-llm.js';
import { HeuristicSummarizer, type Summarizer } from '../describe-episode.js';
import { LlmExtractor } from '../extract-llm.js';
import { HeuristicExtractor, type Extractor } from '../extract.js';
import { LlmReflector } from '../reflection-llm.js';
import { HeuristicReflector, type Reflector } from '../reflection.js';
import type { LearnDeps } from './deps.js';
import { llmExtractor, ruleExtractor } from '../graph/extract-llm.js';
import { GraphLearner } from '../graph/learn.js';
import type { LearnSettings } from './options.js';

export interface EngineContext {
  storage: Storage;
  clock: Clock;
  settings: LearnSettings;
  embedder?: Embedder | undefined;
  /** Closed episodes' descriptions. */
  summarizer: Summarizer;
  /** Cheap descriptions of episodes still open (never an LLM: they change with every event). */
  draftSummarizer: Summarizer;
  /** Runs as episodes close (always deterministic). */
  closeExtractor: Extractor;
  /** Runs in `consolidate()` (the LLM one when configured). */
  consolidateExtractor: Extractor;
  reflector: Reflector;
  /** Entities and relations from new events (knowledge graph); absent when `engine.graph` is off. */
  graph?: GraphLearner | undefined;
  onError: (error: unknown) => void;
}

export function engineContext(deps: LearnDeps): EngineContext {
  const s = deps.settings;
  const heuristicSummarizer = new HeuristicSummarizer(s.describe);
  const heuristicExtractor = new HeuristicExtractor(s.extract, s.usefulness);
  const heuristicReflector = new HeuristicReflector(s.reflection);
  const llm = deps.llm;
  return {
    storage: deps.storage,
    clock: deps.clock,
    settings: s,
    embedder: deps.embedder,
    summarizer: llm ? new LlmSummarizer(llm, { options: s.describe, fallback: heuristicSummarizer }) : heuristicSummarizer,
    draftSummarizer: heuristicSummarizer,
    closeExtractor: heuristicExtractor,
    consolidateExtractor: llm ? new LlmExtractor(llm, { options: s.extract, usefulness: s.usefulness, fallback: heuristicExtractor }) : heuristicExtractor,
    reflector: llm ? new LlmReflector(llm, { options: s.reflection, fallback: heuristicReflector }) : heuristicReflector,
    graph: s.engine.graph ? graphLearner(deps) : undefined,
    onError: deps.onError ?? (() => undefined),
  };
}

function graphLearner(deps: LearnDeps): GraphLearner {
  const rules = ruleExtractor();
  const llm = deps.settings.engine.graphLlm ? deps.llm : undefined;
  return llm ? new GraphLearner(deps.storage, deps.clock, llmExtractor(llm, { fallback: rules }), 'llm') : new GraphLearner(deps.storage, deps.clock, rules, 'extraction');
}
