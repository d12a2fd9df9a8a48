/**
 * Settings of the learn engine (the part that runs the pure learn logic on real storage), with defaults. The
 * engine config embeds them as `learn: learnSettingsSchema.prefault({})`: the pure sections of
 * `learnConfigSchema` (segment, describe, confidence, …) plus `engine`.
 */
import { z } from 'zod';
import { learnConfigSchema } from '../options.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const unit = z.number().min(0).max(1);

export const retentionOptionsSchema = z
  .object({
    /**
     * Off by default. When on, `consolidate()` forgets raw events older than `minAgeDays` whose importance is
     * below `maxImportance` — and only those covered by a closed episode with a summary, so what they taught
     * survives in the episode (its summary, root cause and corrections) while the raw text goes.
     */
    enabled: z.boolean().default(false),
    minAgeDays: z.number().positive().max(100_000).default(30),
    maxImportance: unit.default(0.5),
    /** Events removed per consolidation run, at most. */
    maxEvents: z.number().int().min(1).max(1_000_000).default(10_000),
  })
  .strict();

export const engineOptionsSchema = z
  .object({
    /** Segment in the background after each durable append (otherwise only on `flush()` / `consolidate()`). */
    background: z.boolean().default(true),
    /**
     * How long the background learner waits for the embedding indexer before it segments events without their
     * vectors (the semantic-shift signal then skips those events; state, time and explicit signals still apply).
     */
    vectorWaitMs: z.number().int().min(0).max(600_000).default(10_000),
    /** Events read per storage page while segmenting. */
    batchSize: z.number().int().min(1).max(10_000).default(256),
    /**
     * An episode that reaches this many events is closed and the stream continues in a new one (linked by
     * CONTINUATION). Without it a long stream with no outcome, pause or state change — or with no vectors yet
     * for the semantic signal — would grow one episode without bound.
     */
    maxEpisodeEvents: z.number().int().min(2).max(100_000).default(500),
    /**
     * RETRY_OF: cosine of the two episodes' situation vectors at or above which a new episode retries an earlier
     * FAILED one. USE-lite puts reworded reports of the same incident at 0.86–0.95 and different incidents of one
     * domain at 0.45–0.71 (a deploy-time error vs another deploy-time error of another service: 0.80).
     */
    retryCosine: unit.default(0.82),
    /** Without vectors, RETRY_OF falls back to the Jaccard of the situations' specific terms. */
    retryJaccard: unit.default(0.5),
    /** RETRY_OF links made per new episode, most similar first. */
    maxRetryLinks: z.number().int().min(1).max(20).default(2),
    /** CONTINUATION: the longest pause between two consecutive episodes of a stream that still continues it. */
    continuationGapMs: z.number().int().positive().default(4 * HOUR),
    /** LEARNED_FROM: earlier episodes a correction revises, at most (those whose cause it says was mistaken). */
    maxLearnedFromLinks: z.number().int().min(1).max(50).default(5),
    /** Closed episodes (most recent) the extractor looks at. */
    extractWindow: z.number().int().min(2).max(10_000).default(300),
    /**
     * Run the extractor whenever episodes close. With an LLM configured the LLM extractor runs in
     * `consolidate()` only (one call per consolidation, not per closed episode); the heuristic one runs here.
     */
    extractOnClose: z.boolean().default(true),
    /**
     * Knowledge graph: read entities and relations from new events (rules and an offline tagger; the LLM when
     * one is configured and `graphLlm` is on), in the background like the rest of the learner.
     */
    graph: z.boolean().default(true),
    graphLlm: z.boolean().default(true),
    /** Reflection (importance-triggered insights) while events arrive. */
    reflect: z.boolean().default(true),
    retention: retentionOptionsSchema.prefault({}),
  })
  .strict();

export const learnSettingsSchema = learnConfigSchema.extend({ engine: engineOptionsSchema.prefault({}) });

export type EngineOptions = z.output<typeof engineOptionsSchema>;
export type LearnSettings = z.output<typeof learnSettingsSchema>;
export type LearnSettingsInput = z.input<typeof learnSettingsSchema>;
