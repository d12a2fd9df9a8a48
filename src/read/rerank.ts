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
 * and `final` is recomputed with the same Generative-Agents weights. With the heuristic reranker this lifts
 * LoCoMo evidence R@5 from 0.472 to 0.548 and costs paraphrase-dev 0.017 R@1 (figures in fuse.ts). Items beyond the window keep their
 * scores but are ordered after the reranked ones (they were already ranked lower, and a blended score is not
 * comparable with an unblended one).
 */
import type { Reranker } from '../ports/reranker.js';
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
  const blended = head.map((c, i): C => {
    const rerank = normalised[i]!;
    const relevance = (1 - alpha) * (c.scores.relevance ?? 0) + alpha * rerank;
    return { ...c, scores: { ...c.scores, rerank, relevance, final: opts.rescore(c, relevance) } };
  });
  blended.sort((a, b) => b.scores.final - a.scores.final);
  return [...blended, ...tail];
}
