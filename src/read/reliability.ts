/**
 * How far to trust each signal for this query, read from the two hit lists themselves (no labels, no corpus name).
 *
 * Lexical flooding by length: BM25 sums the query words a memory contains, and a long memory contains more of any
 * query's common words by being long. When the lexical head is made of memories several times longer than the ones
 * the vector signal puts first (a reworded question over a history of long assistant answers: every answer on the
 * topic shares "money", "month", "set"), the lexical ranking says more about length than about the question, and
 * its evidence is weighed down in proportion:
 *
 *   r = mean length of the lexical top n / mean length of the vector top n       (n = LENGTH_TOP)
 *   w = 1                      when r ≤ LENGTH_FLOOR
 *   w = (LENGTH_FLOOR / r)^p   above it                                           (p = LENGTH_POWER)
 *
 * Memories of like length on both lists (agent traces, help-centre chunks, a two-person chat) give r ≈ 1 and leave
 * the lexical signal whole. The weight multiplies the BM25 share of fuse.ts; a verbatim code-like token keeps its
 * evidence (a long log quoting the exact error code is still that error). Measured in docs/benchmarks.md
 * ("Fusion weighs the lexical signal by its reliability for the query: length flooding").
 */

/** How many hits of each list are read. */
export const LENGTH_TOP = 10;
/** Up to this ratio of lengths the lexical signal keeps its whole weight. */
export const LENGTH_FLOOR = 1.5;
/** How steeply the weight falls past the floor. */
export const LENGTH_POWER = 1;

const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

/** r above: the lexical head's mean length over the vector head's; 1 when either list is empty. */
export function lengthRatio(lexicalLengths: readonly number[], vectorLengths: readonly number[], n = LENGTH_TOP): number {
  const lex = lexicalLengths.slice(0, n);
  const vec = vectorLengths.slice(0, n);
  if (lex.length === 0 || vec.length === 0) return 1;
  return mean(lex) / Math.max(1, mean(vec));
}

/** w above: the share of its evidence the lexical signal keeps for this query, in (0, 1]. */
export function lexicalReliability(lexicalLengths: readonly number[], vectorLengths: readonly number[], floor = LENGTH_FLOOR, power = LENGTH_POWER): number {
  const r = lengthRatio(lexicalLengths, vectorLengths);
  return r <= floor ? 1 : (floor / r) ** power;
}
