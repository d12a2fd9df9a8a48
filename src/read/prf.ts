/**
 * Pseudo-relevance feedback for the vector signal (Rocchio): the query vector moved toward the mean of its first
 * hits' vectors, renormalised, and searched again (candidates.ts `fetchSemantic`; `semantic_retrieval.feedback`).
 * Only for a question that gathers a list across sessions in a conversation between people, where the answer's
 * instances are worded unlike the question's class and sit deep in the first vector pool (docs/benchmarks.md).
 */

/** β: the weight of the hits' mean against the query. */
export const PRF_BETA = 0.5;
/** m: how many of the first vector hits are read. */
export const PRF_HITS = 5;

/** normalise(q + β·mean(hits)); q itself when no hit vector is given. */
export function prfVector(query: Float32Array, hits: readonly Float32Array[], beta = PRF_BETA): Float32Array {
  if (hits.length === 0) return query;
  const out = new Float32Array(query.length);
  for (let i = 0; i < query.length; i++) {
    let s = 0;
    for (const h of hits) s += h[i] ?? 0;
    out[i] = query[i]! + (beta * s) / hits.length;
  }
  let n = 0;
  for (const x of out) n += x * x;
  n = Math.sqrt(n);
  if (n > 0) for (let i = 0; i < out.length; i++) out[i] = out[i]! / n;
  return out;
}
