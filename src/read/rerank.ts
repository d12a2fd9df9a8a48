/**
 * Rerank: a cross-encoder-style second opinion on the top of the ranking.
 *
 * The reranker's scores are only comparable within one call. Scores already in 0..1 (cross-encoder
 * probabilities, Cohere's relevance_score, the heuristic reranker) are used as they are — min-max would turn
 * a 0.61 vs 0.60 near-tie into 1 vs 0; anything else (raw logits) is min-max normalised over the window.
 * The result is blended into relevance:
 *
 *   relevance' = (1 − α)·relevance + α·rerank       α = adaptiveBlend (at most RERANK_BLEND, 0.5)
 *
 * and `final` is recomputed with the same Generative-Agents weights. Where the reranker has no evidence, it gives no
 * verdict (`abstainedScore`): a candidate that shares no word with the query (lexical 0, rerank 0) is blended with
 * the reranker's typical score for the query's best candidates instead of 0, capped at its own relevance. With the heuristic reranker this lifts
 * LoCoMo evidence R@5 from 0.472 to 0.548 and costs paraphrase-dev 0.017 R@1 (figures in fuse.ts). Items beyond the window keep their
 * scores but are ordered after the reranked ones (they were already ranked lower, and a blended score is not
 * comparable with an unblended one).
 */
import type { Reranker } from '../ports/reranker.js';
import { atRelevance } from './score.js';
import type { Candidate } from './types.js';

export const RERANK_BLEND = 0.5;
/** How many of the best candidates the adaptive blend reads. */
export const BLEND_HEAD = 10;

/**
 * The reranker's share of relevance for this query (measured with `npm run bench:corpora`, tune halves, hybrid
 * R@10: user–assistant chats 0.722 → 0.778 with the fixed 0.5 and no length factor; agent traces and
 * help-centre chunks unchanged; LoCoMo dev with the length factor 0.824 → 0.821): RERANK_BLEND scaled by how much the lexical signal
 * already carries the head of the ranking, min(1, 2 · Σ lexical / Σ (lexical + vector)) over the best
 * BLEND_HEAD candidates. A heuristic reranker is a second lexical opinion: where the query's words decide the
 * head (agent traces, identifiers) it sharpens it; where the head stands on vector evidence (a reworded
 * question over long answers that share its topic words) it would overrule the signal that found the answer.
 */
export function adaptiveBlend(ranked: readonly Candidate[]): number {
  let lexical = 0;
  let total = 0;
  for (const c of ranked.slice(0, BLEND_HEAD)) {
    if (c.scores.lexical === null || c.scores.vector === null) return RERANK_BLEND;
    lexical += c.scores.lexical;
    total += c.scores.lexical + c.scores.vector;
  }
  return total > 0 ? RERANK_BLEND * Math.min(1, (2 * lexical) / total) : RERANK_BLEND;
}

/**
 * What the reranker's blend uses for a candidate on which a word-reading reranker has no evidence: one with a
 * lexical signal of (next to) 0 (BM25 found none of the query's words in it, or only words of no weight) and a
 * rerank score of 0. Its zero says the
 * same as the lexical zero the fusion already counted, not that the candidate is off the subject; blending it in
 * as evidence halves a candidate that only the vector signal found (a reworded question whose answer shares no
 * word with it). Such a candidate is blended with the mean of the BLEND_HEAD best rerank scores of the call,
 * the reranker's own level for this query, and never above its own relevance, so abstaining lifts nothing. A
 * candidate that does share the query's words, or that the reranker scores above 0, is judged as before. Measured
 * with `npm run bench:corpora` and LoCoMo (docs/benchmarks.md, "Rerank abstains").
 */
export function abstainedScore(c: Candidate, rerank: number, headMean: number): number {
  const lexical = c.scores.lexical;
  return lexical !== null && lexical < NO_LEXICAL && rerank === 0 ? Math.min(c.scores.relevance ?? 0, headMean) : rerank;
}

/** A lexical signal below this share of the query's attainable BM25 (fuse.ts) is none: a word of next to no weight. */
export const NO_LEXICAL = 0.01;

/** Mean of the `n` best scores. */
function headMean(scores: readonly number[], n: number): number {
  const top = [...scores].sort((a, b) => b - a).slice(0, n);
  return top.length > 0 ? top.reduce((s, x) => s + x, 0) / top.length : 0;
}

export interface RerankOptions {
  query: string;
  /** How many of the top candidates to send. */
  window: number;
  model?: string | undefined;
  /** Recomputes `final` from a candidate whose relevance changed. */
  rescore: (c: Candidate, relevance: number) => number;
  signal?: AbortSignal | undefined;
}

/** Scores to 0..1: kept when already there, else min-max (all-equal → 0.5); missing scores → 0. */
export function normaliseScores(scores: readonly number[]): number[] {
  const finite = scores.filter(Number.isFinite);
  if (finite.length === 0) return scores.map(() => 0.5);
  const min = Math.min(...finite);
  const max = Math.max(...finite);
  if (min >= 0 && max <= 1) return scores.map((s) => (Number.isFinite(s) ? s : 0));
  return scores.map((s) => (!Number.isFinite(s) ? 0 : max > min ? (s - min) / (max - min) : 0.5));
}

/** Returns all candidates, reranked window first (by new final), then the rest in their previous order. */
export async function rerankCandidates<C extends Candidate>(reranker: Reranker, ranked: readonly C[], opts: RerankOptions): Promise<C[]> {
  const head = ranked.slice(0, Math.max(0, opts.window));
  const tail = ranked.slice(head.length);
  if (head.length === 0) return [...ranked];
  const keyOf = (i: number) => String(i);
  const replies = await reranker.rerank(
    opts.query,
    head.map((c, i) => ({ id: keyOf(i), text: c.doc.text })),
    { model: opts.model, signal: opts.signal },
  );
  const raw = new Map(replies.map((r) => [r.id, r.score]));
  const normalised = normaliseScores(head.map((_, i) => raw.get(keyOf(i)) ?? Number.NaN));
  const alpha = adaptiveBlend(head);
  const level = headMean(normalised, BLEND_HEAD);
  const blended = head.map((c, i): C => {
    const rerank = normalised[i]!;
    const relevance = (1 - alpha) * (c.scores.relevance ?? 0) + alpha * abstainedScore(c, rerank, level);
    return { ...c, scores: { ...atRelevance(c, relevance, opts.rescore), rerank } };
  });
  blended.sort((a, b) => b.scores.final - a.scores.final);
  return [...blended, ...tail];
}
