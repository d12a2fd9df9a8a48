/**
 * The Generative-Agents retrieval score (seed 002), with Engram's confidence term:
 *
 *   final = w_rel·relevance + w_rec·recency + w_imp·importance + w_conf·confidence
 *   recency = 0.5^(age_hours / half_life_hours)        (0.99^hours of the paper ≈ a 69-hour half-life)
 *
 * Every input is in 0..1, so `final` is comparable across kinds. A signal that did not apply (null) adds 0.
 * The route's kind boost multiplies the sum: it nudges, it never reorders a clearly better memory.
 * Outcome awareness (outcome.ts): an episode adds OUTCOME_WEIGHT·relevance·lesson (failed and corrected
 * episodes teach most), and a learned fact's relevance is scaled by 0.5 + 0.5·confidence.
 */
import type { ContextConfig } from '../core/config.js';
import { effectiveRelevance, outcomeBonus } from './outcome.js';
import type { Candidate, ReadDoc, ScoreBreakdown } from './types.js';

export type ScoringConfig = ContextConfig['scoring'];
export type ScoringWeights = ScoringConfig['weights'];

const HOUR_MS = 3_600_000;

/** 0.5^(age/half-life); future timestamps count as age 0. */
export function recencyScore(ts: number, now: number, halfLifeHours: number): number {
  const ageHours = Math.max(0, now - ts) / HOUR_MS;
  return Math.pow(0.5, ageHours / halfLifeHours);
}

export interface ScoreInputs {
  relevance: number | null;
  ts: number;
  importance: number;
  confidence: number;
}

/** The weighted sum; `recencyFactor` and `boost` come from the query route. */
export function generativeScore(
  inputs: ScoreInputs,
  scoring: ScoringConfig,
  now: number,
  opts: { recencyFactor?: number; boost?: number; bonus?: number | null } = {},
): Pick<ScoreBreakdown, 'relevance' | 'recency' | 'importance' | 'confidence' | 'final'> {
  const w = scoring.weights;
  const recency = recencyScore(inputs.ts, now, scoring.recency_half_life_hours);
  const importance = clamp01(inputs.importance);
  const confidence = clamp01(inputs.confidence);
  const relevance = inputs.relevance === null ? null : clamp01(inputs.relevance);
  const sum =
    w.relevance * (relevance ?? 0) +
    w.recency * (opts.recencyFactor ?? 1) * recency +
    w.importance * importance +
    w.confidence * confidence +
    (opts.bonus ?? 0);
  return { relevance, recency, importance, confidence, final: sum * (opts.boost ?? 1) };
}

export function clamp01(x: number): number {
  if (!Number.isFinite(x)) return 0;
  return x < 0 ? 0 : x > 1 ? 1 : x;
}

export function emptyBreakdown(): ScoreBreakdown {
  return { vector: null, lexical: null, relevance: null, recency: null, importance: null, confidence: null, rerank: null, outcome: null, final: 0 };
}

type ScoredDoc = Pick<ReadDoc, 'ts' | 'importance' | 'confidence'> & Partial<Pick<ReadDoc, 'kind' | 'type' | 'metadata'>>;

/** The score of a doc at a given relevance, outcome bonus and fact confidence included (rerank rescoring too). */
export function docScore(doc: ScoredDoc, relevance: number | null, scoring: ScoringConfig, now: number, opts: { recencyFactor?: number; boost?: number } = {}) {
  const typed = doc.kind ? { kind: doc.kind, type: doc.type, metadata: doc.metadata ?? {}, confidence: doc.confidence } : undefined;
  const effective = typed ? effectiveRelevance(typed, relevance) : relevance;
  const bonus = typed ? outcomeBonus(typed, relevance) : null;
  const ga = generativeScore({ relevance: effective, ts: doc.ts, importance: doc.importance, confidence: doc.confidence }, scoring, now, { ...opts, bonus });
  return { ...ga, relevance: relevance === null ? null : clamp01(relevance), outcome: bonus };
}

/** The full breakdown of one candidate, given its fused signals (or none). */
export function scoreCandidate(
  doc: ScoredDoc,
  fused: { vector: number | null; lexical: number | null; relevance: number | null } | undefined,
  scoring: ScoringConfig,
  now: number,
  opts: { recencyFactor?: number; boost?: number } = {},
): ScoreBreakdown {
  const scored = docScore(doc, fused?.relevance ?? null, scoring, now, opts);
  return { vector: fused?.vector ?? null, lexical: fused?.lexical ?? null, rerank: null, ...scored };
}

/**
 * A candidate's breakdown at a new relevance (rerank, expansion, graph support, turns, situation): `final` as
 * `rescore` recomputes it, and an episode's outcome bonus, which scales with relevance (outcome.ts), restated with
 * it, so that the breakdown still accounts for the final score.
 */
export function atRelevance(c: Candidate, relevance: number, rescore: (c: Candidate, relevance: number) => number): ScoreBreakdown {
  const outcome = c.doc.kind === 'episode' ? { outcome: outcomeBonus(c.doc, relevance) } : {};
  return { ...c.scores, relevance, ...outcome, final: rescore(c, relevance) };
}
