/**
 * Tunables of the learn path, with their defaults, in one place. Each step parses its own section once
 * (`parseLearnOptions(section, input)`); `learnConfigSchema` bundles them so the engine config can embed it as
 * `learn: learnConfigSchema.prefault({})`.
 */
import { z } from 'zod';
import { EVENT_TYPES } from '../core/types.js';
import { parseWith } from '../core/validate.js';

const MINUTE = 60_000;
const unit = z.number().min(0).max(1);

export const segmenterOptionsSchema = z
  .object({
    /** A pause longer than this between two events of a stream starts a new episode. */
    gapMs: z.number().int().positive().default(30 * MINUTE),
    /**
     * Cosine distance (1 − cos) from the running centroid above which an event counts as off-topic. Measured
     * with the bundled USE-lite encoder: events of one incident mostly sit 0.25–0.7 from their episode's
     * centroid, an unrelated conversation 0.7–1.0. The margin is thin, which is why one odd event never splits
     * (patience) and why the outcome, state and time signals come first. Other encoders may need their own value.
     */
    shiftDistance: z.number().min(0).max(2).default(0.7),
    /** Hysteresis: this many consecutive off-topic events are needed to split, so one odd event never does. */
    shiftPatience: z.number().int().min(1).max(20).default(2),
    /** The semantic signal is only trusted once the episode's centroid rests on this many vectors. */
    minEventsForShift: z.number().int().min(1).max(100).default(2),
    /** Event types that still join an episode an outcome is closing (a correction belongs to its outcome). */
    followUpTypes: z.array(z.enum(EVENT_TYPES)).default(['correction', 'feedback']),
    /** How long after the outcome a follow-up may arrive and still join (corrections often come late). */
    followUpGraceMs: z.number().int().positive().default(24 * 60 * MINUTE),
  })
  .strict();

export const describeOptionsSchema = z
  .object({
    /** Upper bound of the heuristic summary, in characters. */
    maxSummaryChars: z.number().int().min(80).max(4000).default(420),
    /** Upper bound of each extracted decision / assumption / correction / root cause. */
    maxItemChars: z.number().int().min(20).max(1000).default(200),
    /** Events shown to an LLM summarizer, newest kept when there are more. */
    maxLlmEvents: z.number().int().min(1).max(500).default(60),
  })
  .strict();

export const confidenceOptionsSchema = z
  .object({
    /** A version whose confidence new contradictions push below this gets revised into a new version. */
    revisionThreshold: unit.default(0.5),
    /**
     * Learned rules are retired (their lineage's validity closed, learn/retire.ts) when their condition stops
     * telling their cause from others.
     */
    retire: z.boolean().default(true),
    /** Reports (other than its sources) that must meet a rule's condition before it can be found not to discriminate. */
    retireMinMatched: z.number().int().min(2).max(1000).default(2),
  })
  .strict();

export const usefulnessOptionsSchema = z
  .object({
    /** Distinct supporting episodes a generalisation needs. */
    minSupport: z.number().int().min(1).max(100).default(2),
    /** Content words that are neither stopwords nor generic/hedge vocabulary. */
    minSpecificTerms: z.number().int().min(1).max(20).default(3),
    minWords: z.number().int().min(1).max(50).default(6),
    maxWords: z.number().int().min(5).max(200).default(45),
    /** Share of hedge words ("often", "may" …) among content words above which a statement is too hedged. */
    maxHedgeShare: unit.default(0.2),
    /** Token overlap with a single supporting episode above which the fact merely restates it. */
    maxRestatement: unit.default(0.8),
    /** When evidence texts are given: share of specific terms that must occur in them. */
    minGrounding: unit.default(0.5),
  })
  .strict();

export const extractOptionsSchema = z
  .object({
    /** Overlap coefficient of root-cause terms at which two episodes share a cause. */
    causeOverlap: unit.default(0.5),
    /** …and at least this many shared root-cause terms. */
    minSharedCauseTerms: z.number().int().min(1).max(10).default(2),
    /** Cosine of root-cause vectors at which two causes are the same, when vectors are given. */
    causeCosine: unit.default(0.85),
    /** A term describes a cluster's situation when it occurs in at least this share of its episodes. */
    contextShare: unit.default(0.5),
    /** Condition terms named in a heuristic. */
    maxConditionTerms: z.number().int().min(1).max(8).default(4),
    /** Episodes outside a cluster that match this share of its condition terms count against it. */
    contradictMatch: unit.default(0.6),
    /** Episodes shown to an LLM extractor (the most recent when there are more). */
    maxLlmEpisodes: z.number().int().min(2).max(500).default(40),
  })
  .strict();

export const reflectionOptionsSchema = z
  .object({
    /** Sum of event importance (0..1 each) that triggers a reflection: Generative Agents' 150 on a 1–10 scale. */
    importanceThreshold: z.number().positive().max(1e6).default(15),
    /** Most recent events a reflection looks at. */
    windowSize: z.number().int().min(2).max(10_000).default(100),
    /** Events an entity or pattern must recur in to become an insight. */
    minRecurrence: z.number().int().min(2).max(100).default(3),
    maxInsights: z.number().int().min(1).max(50).default(5),
  })
  .strict();

export const procedureOptionsSchema = z
  .object({
    /** Trigger match (0..1) below which a procedure is not applicable at all. */
    minMatch: unit.default(0.2),
    limit: z.number().int().min(1).max(100).default(5),
    /** Notes kept per procedure (most recent). */
    maxNotes: z.number().int().min(1).max(1000).default(20),
    minSteps: z.number().int().min(1).max(50).default(2),
    maxSteps: z.number().int().min(2).max(100).default(12),
    /** A learned draft this similar to an existing procedure reinforces it instead of creating a new one. */
    duplicateMatch: unit.default(0.6),
  })
  .strict();

export const learnConfigSchema = z
  .object({
    segment: segmenterOptionsSchema.prefault({}),
    describe: describeOptionsSchema.prefault({}),
    confidence: confidenceOptionsSchema.prefault({}),
    usefulness: usefulnessOptionsSchema.prefault({}),
    extract: extractOptionsSchema.prefault({}),
    reflection: reflectionOptionsSchema.prefault({}),
    procedures: procedureOptionsSchema.prefault({}),
  })
  .strict();

export type LearnConfigInput = z.input<typeof learnConfigSchema>;
export type LearnConfig = z.output<typeof learnConfigSchema>;
export type LearnSection = keyof LearnConfig;

export type SegmenterOptions = LearnConfig['segment'];
export type DescribeOptions = LearnConfig['describe'];
export type ConfidenceOptions = LearnConfig['confidence'];
export type UsefulnessOptions = LearnConfig['usefulness'];
export type ExtractOptions = LearnConfig['extract'];
export type ReflectionOptions = LearnConfig['reflection'];
export type ProcedureOptions = LearnConfig['procedures'];

/** Parses one section (errors name `learn.<section>.<field>`); `undefined` gives the defaults. */
export function parseLearnOptions<S extends LearnSection>(section: S, input: unknown): LearnConfig[S] {
  const schema = learnConfigSchema.shape[section];
  return parseWith(schema, input ?? {}, { what: `learn.${section} options`, prefix: `learn.${section}` }) as LearnConfig[S];
}

export const LEARN_DEFAULTS: LearnConfig = learnConfigSchema.parse({});
