/**
 * How deep a read goes. The pool fetched from each index grows with the k asked; what scores the candidates —
 * each signal's calibration, and the head the answer is drawn from — reads a fixed number of each signal's best
 * hits, so that asking for more results only adds results after the ones a smaller k returns
 * (docs/benchmarks.md, "k-stable").
 */
import type { DocHit } from '../ports/storage.js';

/**
 * The pool size fetched from each index: `configured`, else max(floor, 4·top_k). search() uses the floor
 * CALIBRATION_DEPTH; getContext keeps `semantic_retrieval.candidates` else max(CONTEXT_POOL_FLOOR, 4·top_k).
 */
export function candidatePoolSize(topK: number, configured?: number, floor = CALIBRATION_DEPTH): number {
  return configured ?? Math.max(floor, 4 * topK);
}

/**
 * getContext's smallest default pool. Its reads for top_k up to CONTEXT_HEAD_TOP_K are as they were (the
 * calibration head below is the whole pool there).
 */
export const CONTEXT_POOL_FLOOR = 50;

/**
 * How many of each signal's best hits calibrate it (fuse.ts: the vector pool's mean and spread, the lexical
 * standout's) and form the head of the answer, whatever the pool fetched. The pool grows with the k asked; a
 * calibration read from all of it changed every memory's evidence, and the memories found only deeper in it
 * competed with the head, so that asking for more results changed (and worsened) the first ones (corpora tune
 * R@10 0.914 at k 20, 0.861 at k 50). 80 is the pool k 20 fetched before (what bench:locomo and bench:corpora ask),
 * and the default pool is never smaller, so every k calibrates on the same head (docs/benchmarks.md, "k-stable").
 */
export const CALIBRATION_DEPTH = 80;

/**
 * The largest top_k whose default getContext pool, 4·top_k, is no deeper than the calibration head. From this
 * top_k on, a larger top_k keeps the context a smaller one returns and adds after it (context.ts: the reranker's
 * window is the head, the steps after it read the head, graph hops start from at most this many episodes, and the
 * picks past this many are shown in the order MMR chose them); below it the pool, and so every score, still
 * grows with top_k (docs/benchmarks.md, "getContext k-stable").
 */
export const CONTEXT_HEAD_TOP_K = CALIBRATION_DEPTH / 4;

/** The `depth` best scores of a hit list (the head a signal is calibrated on). */
export function calibrationHead(hits: readonly DocHit[], depth = CALIBRATION_DEPTH): number[] {
  return hits.map((h) => h.score).sort((a, b) => b - a).slice(0, depth);
}
