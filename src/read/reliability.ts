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
 *
 * The lexical standout (fuse.ts) is weighed per memory, by the memory's own length against the lexical head's:
 *
 *   w_s(d) = min(1, w ^ ((len(d) / L)^q))     L = length of the longest memory of the lexical top n,
 *                                             q = STANDOUT_LENGTH_POWER
 *
 * Length flooding is a property of the head, not of every hit in it: a user's turn that states the fact and
 * stands out of the lexical pool by a rare word is usually much shorter than the long answers that repeat that
 * word after it (the echo), and it is the answers' length that makes the head unreliable. A memory as long as the
 * head's longest keeps w, as before; a shorter one keeps more (at q = 2, w = 0.1: 0.69 for 40 % of L, 0.98 for
 * 10 %). The relief needs a second piece of evidence: the memory shares at least STANDOUT_MIN_SHARED distinct
 * content words with the query, or it shares one and states something (`standoutWeights`). A short turn that names one
 * of the question's words and asks something else stands out of a flooded pool as well as the statement does, and
 * given its whole standout it passed evidence found by meaning (bench corpus shared-word). The share of the
 * attainable BM25 stays weighed by w (a short memory that shares the query's common words is not lifted; relief of
 * the share for every memory was measured and cost recall), except for a statement that shares a single content
 * word: that word is its whole lexical evidence, and it keeps w_s on its share too. Measured in docs/benchmarks.md
 * ("The lexical standout weighed by the memory's own length", "BM25 length handling on long turns").
 */

import { STOPWORDS } from '../learn/text.js';
import { words } from './text.js';

/** How many hits of each list are read. */
export const LENGTH_TOP = 10;
/** Up to this ratio of lengths the lexical signal keeps its whole weight. */
export const LENGTH_FLOOR = 1.5;
/** How steeply the weight falls past the floor. */
export const LENGTH_POWER = 1;

/** q above: how fast the standout's relief falls as a memory nears the lexical head's length. */
export const STANDOUT_LENGTH_POWER = 2;

/** How many distinct content words of the query a memory must share for its standout to be relieved (`standoutWeights`). */
export const STANDOUT_MIN_SHARED = 2;

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

/** w_s above: the share of its lexical standout a memory of length `length` keeps, in (0, 1]; w when the head is empty. */
export function standoutReliability(w: number, length: number, lexicalHeadLengths: readonly number[], power = STANDOUT_LENGTH_POWER): number {
  const head = lexicalHeadLengths.slice(0, LENGTH_TOP);
  if (w >= 1 || head.length === 0) return Math.min(1, w);
  const ratio = Math.max(0, length) / Math.max(1, ...head);
  return Math.min(1, w ** (ratio ** power));
}

/** Per doc under length flooding: the weight of its lexical standout, and of its BM25 share where relieved (`standoutWeights`). */
export interface LexicalRelief {
  standout: Map<number, number>;
  share: Map<number, number>;
}

/**
 * Per doc, the weight of its lexical standout under length flooding (`standoutReliability`). A doc is relieved when
 * it shares at least STANDOUT_MIN_SHARED distinct content words with the query, or one and `states` it (some sentence
 * is not a question): a short turn that names one of the question's words and asks something else is not a statement
 * of its answer, and keeps w. A statement that shares a single word (a user's long turn naming the object asked about,
 * the other words of the question being ones it does not use) also keeps the relieved weight on its BM25 share: one
 * word carries its whole lexical evidence, so its standout in a flooded pool is small. Measured in docs/benchmarks.md
 * ("BM25 length handling on long turns").
 */
export function standoutWeights(
  docs: readonly { docId: number; text: string }[],
  query: string,
  lexicalHeadLengths: readonly number[],
  w: number,
  states: (text: string) => boolean = () => false,
): LexicalRelief {
  const asked = new Set(words(query).filter((x) => !STOPWORDS.has(x)));
  const shared = (text: string) => new Set(words(text).filter((x) => asked.has(x))).size;
  const standout = new Map<number, number>();
  const share = new Map<number, number>();
  for (const d of docs) {
    const n = shared(d.text);
    const single = n === 1 && states(d.text);
    const ws = n >= STANDOUT_MIN_SHARED || single ? standoutReliability(w, d.text.length, lexicalHeadLengths) : w;
    standout.set(d.docId, ws);
    if (single) share.set(d.docId, ws);
  }
  return { standout, share };
}

/** How many hits of each list a memory must be among for the other signal to vouch for its lexical evidence (`corroborated`). */
export const AGREEMENT_TOP = 10;

/**
 * Memories both signals rank in their first AGREEMENT_TOP hits. Under length flooding the lexical weight w says the
 * lexical ranking is read from length more than from the question; a memory the vector signal also ranks near the
 * top is a lexical hit that meaning confirms (fuse.ts `agreed`: it keeps part of its unweighted share). Both lists
 * are read as the store gives them, best first (DocIndex).
 */
export function corroborated(lexicalHits: readonly { docId: number }[], vectorHits: readonly { docId: number }[], n = AGREEMENT_TOP): Set<number> {
  const vec = new Set(vectorHits.slice(0, n).map((h) => h.docId));
  return new Set(lexicalHits.slice(0, n).flatMap((h) => (vec.has(h.docId) ? [h.docId] : [])));
}
