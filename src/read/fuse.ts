/**
 * Hybrid relevance: fuses the vector and lexical signals of one query so that neither can drown the other.
 *
 *   vector    v(d) = σ(z(d) − b)       z(d) = (cos(q,d) − μ) / max(s, 0.01)
 *             μ, s: mean and standard deviation of the cosines of the query's vector pool (its K nearest docs);
 *             b = min(3, 0.45 · (n − 1)/√n), n = pool size. A memory counts as semantically relevant in
 *             proportion to how far it stands out of this query's own neighbourhood, not by a raw cosine whose
 *             scale differs per model and per query. (n − 1)/√n is the largest z a single point can reach among
 *             n, so the midpoint shrinks for small pools instead of making every doc of a tiny corpus look
 *             irrelevant; from n ≈ 48 on it is 3.
 *   lexical   l(d) = max( w · min(1, bm25(q,d) / C),  exact(d) )
 *             w: the lexical signal's reliability for this query (reliability.ts), 1 unless the lexical head is
 *             made of memories much longer than the vector head (length flooding);
 *             C = Σ_t max_d' bm25(t,d'): BM25 is a sum over query terms, so each term's best score in the index
 *             (same tenant, scope, kinds and filter) adds up to the most this query could score. A term that
 *             matches nothing counts as much as the query's rarest matched term (it is, at least, that rare),
 *             so a doc sharing one stray word with a reworded query stays low even in a tiny corpus. l is the
 *             share of the query's attainable lexical evidence the doc holds: common words (low IDF) give
 *             little, a rare exact term gives most of it.
 *             exact(d) = share of the query's code-like tokens (error codes, identifiers, versions: see
 *             `exactTokens`) that d contains verbatim. A memory quoting the exact `ERR_PG_53300` the user typed
 *             is near-certain evidence, however close other memories are in meaning.
 *             standout(d) = S · σ(zₗ(d) − 3), zₗ(d) = (bm25(q,d) − μₗ) / sₗ over the BM25 scores of the query's lexical
 *             pool (S = LEXICAL_STANDOUT, 0.3): the lexical signal, like the vector one, also counts by how far a
 *             memory stands out of this query's own hits, and l(d) = max(w · share, w_s(d) · standout, exact), with
 *             w_s(d) the standout's reliability for this memory (reliability.ts: w for a memory as long as the longest
 *             of the lexical head, closer to 1 for a much shorter one, so a user's short statement is not weighed down
 *             by the long answers that echo its rare word; w when not given). A reworded
 *             question rarely reaches a high share of its attainable BM25 (its words are common, some match nothing),
 *             so without it the lexical signal's best hit (share 0.11) sat behind vector-only neighbours whose
 *             calibrated evidence reaches 0.6; a BM25 score three deviations above the pool is the lexical
 *             counterpart of that. The midpoint stays 3 for every pool size (below ~12 hits no score can reach it,
 *             and the term is next to nothing: small stores keep the share alone). Measured in docs/benchmarks.md
 *             ("Lexical standout").
 *             agreed(d) = A · min(share(d), v(d)) for a memory both signals rank in their first 10 hits when the head is
 *             flooded (w < 1, reliability.ts `corroborated`; not a memory that only asks, not in a conversation between
 *             people), else 0; A = AGREED_SHARE, 0.5. w says the lexical ranking is read from length more than from the
 *             question; a lexical hit that meaning also ranks near the top is not a length effect, and keeps up to half
 *             of what the vector signal vouches for (never more than its own unweighted share). Measured in
 *             docs/benchmarks.md ("Fusion margins on new tuning material").
 *   question form  v(d) · (1 − q · asks(d)) when the query asks (statements.ts: a sentence ends in "?" or it opens
 *             with an interrogative word); asks(d) = the share of d's sentences that ask, q = the question discount
 *             (`semantic_retrieval.conversation.question_discount`, 1). A small sentence encoder puts a question
 *             near other questions whatever they are about: for "What does Melanie do to destress?", USE-lite
 *             gives "Got any tips for getting started on it?" more vector evidence (0.64) than either turn that
 *             answers it (0.03, 0.26). That closeness is the form of the question, not evidence of an answer.
 *             The lexical evidence of a question is kept: sharing the query's rare words puts it on the
 *             subject, and its reply inherits from it (turns.ts).
 *   relevance = 1 − (1 − v)(1 − l)     a noisy-OR: either signal alone can make a memory relevant, agreement
 *             makes it more so, and the result stays in 0..1 for the Generative-Agents score.
 *   concept   c(d) (concepts.ts), when the query asks about a category ("Which animals…") and d names a member
 *             ("our beagle"): WordNet links what neither words nor a small encoder do. It joins the noisy-OR as a
 *             third signal, relevance = 1 − (1 − v)(1 − l)(1 − c), c ≤ 0.4 (the concept weight), and only when
 *             both other signals ran (hybrid search).
 * When one signal is unavailable (no query vector, no embedding for the doc yet, lexical-only mode) it is null
 * and relevance is the other one.
 *
 * Measured (paraphrase-dev: 120 queries / 180 memories; LoCoMo categories 1–4: 1,531 questions with evidence,
 * per conversation; USE-lite; FTS5 porter BM25; pools of 50): paraphrase R@1 0.475 / R@5 0.708, LoCoMo
 * evidence R@5 0.466 / R@10 0.583 — versus USE alone 0.500 / 0.683 / 0.271 / 0.379, BM25 alone 0.117 / 0.367
 * / 0.471 / 0.558, cos + 0.3·BM25/max 0.317 / 0.592 / 0.499 / 0.598 and z-score sum 0.333 / 0.658 / 0.480 /
 * 0.572: about the better single signal on each set. The constants (slope 1, midpoint 3 at n = 50) come from
 * a grid search on both sets together; neighbouring values move each figure by about ±0.02. The midpoint
 * rule for small pools holds R@5 within 0.02 from pools of 5 to 50 (a fixed midpoint 3 falls to 0.475 on
 * paraphrase at 5). Neither set has code-like tokens, so `exact` is measured by the tests, not by them.
 * Through `search()` on the SQLite adapter the same sets give 0.475 / 0.708 and 0.472 / 0.589 (its BM25 alone:
 * 0.117 / 0.358 and 0.506 / 0.572); with `rerank: true` (heuristic reranker) 0.458 / 0.700 and 0.548 / 0.631.
 * The question form (added 2026-11-24, `npm run bench:locomo --`): LoCoMo evidence R@10 of vector search 0.460 →
 * 0.502 and of hybrid `search` 0.771 → 0.782 (dev 0.802 → 0.813, held-out 0.761 → 0.772); paraphrase-dev
 * unchanged (0.492 / 0.683 and 0.475 / 0.700: its queries ask, its memories state). Cutting by the share of
 * asking words instead of sentences gave 0.781, by the square of the kept share 0.780.
 */
import { clamp01 } from './score.js';

/** Below this, cosines are treated as identical (prevents z blowing up on near-duplicate pools). */
const MIN_STD = 0.01;
const MIDPOINT = 3;
const MIDPOINT_SHARE_OF_MAX_Z = 0.45;
const SLOPE = 1;
/** Weight of the lexical standout (S above); 0 turns it off. */
export const LEXICAL_STANDOUT = 0.3;
/** z of a BM25 score in its pool at which the lexical standout is half its weight. */
export const LEXICAL_STANDOUT_MIDPOINT = 3;
/** A (`agreed` above): the share of min(share, vector) an agreed memory keeps as lexical evidence; 0 turns it off. */
export const AGREED_SHARE = 0.5;

export interface VectorCalibration {
  mean: number;
  std: number;
  midpoint: number;
}

/** Statistics of the query's vector pool; undefined when the pool is empty. */
export function calibrateVector(poolCosines: readonly number[]): VectorCalibration | undefined {
  const n = poolCosines.length;
  if (n === 0) return undefined;
  const maxZ = (n - 1) / Math.sqrt(n);
  return { ...spread(poolCosines), midpoint: Math.min(MIDPOINT, MIDPOINT_SHARE_OF_MAX_Z * maxZ) };
}

/** Mean and standard deviation (population, floored at MIN_STD) of a non-empty pool of scores. */
function spread(pool: readonly number[]): Pick<VectorCalibration, 'mean' | 'std'> {
  const mean = pool.reduce((s, x) => s + x, 0) / pool.length;
  const variance = pool.reduce((s, x) => s + (x - mean) ** 2, 0) / pool.length;
  return { mean, std: Math.max(Math.sqrt(variance), MIN_STD) };
}

export function vectorEvidence(cosine: number, cal: VectorCalibration): number {
  const z = (cosine - cal.mean) / cal.std;
  return 1 / (1 + Math.exp(-SLOPE * (z - cal.midpoint)));
}

/** Mean and spread of the BM25 scores of the query's lexical pool; undefined with fewer than two hits. */
export function calibrateLexical(poolScores: readonly number[]): Pick<VectorCalibration, 'mean' | 'std'> | undefined {
  return poolScores.length < 2 ? undefined : spread(poolScores);
}

/** standout(d) above: S · σ(z − midpoint) for a doc BM25 found (0 for one it did not). */
export function lexicalStandout(bm25: number, cal: Pick<VectorCalibration, 'mean' | 'std'> | undefined, weight = LEXICAL_STANDOUT): number {
  if (!cal || bm25 <= 0 || weight <= 0) return 0;
  const z = (bm25 - cal.mean) / cal.std;
  return clamp01(weight) / (1 + Math.exp(-(z - LEXICAL_STANDOUT_MIDPOINT)));
}

/**
 * `ceiling` is C above (see `lexicalCeiling`); `exact` the doc's share of the query's code-like tokens; `weight` the
 * lexical reliability w; `standout` the doc's lexical standout (see `lexicalStandout`).
 */
export function lexicalEvidence(bm25: number, ceiling: number, exact = 0, weight = 1, standout = 0): number {
  const share = ceiling > 0 ? clamp01(bm25 / ceiling) : bm25 > 0 ? 1 : 0;
  return Math.max(Math.max(share, clamp01(standout)) * clamp01(weight), clamp01(exact));
}

/**
 * C from each query term's best BM25 in the index (0 = the term matches nothing): matched terms add their
 * best score, unmatched ones the largest of those (see the formula above). 0 when nothing matches.
 */
export function lexicalCeiling(termBest: readonly number[]): number {
  const matched = termBest.filter((x) => x > 0);
  if (matched.length === 0) return 0;
  const rarest = Math.max(...matched);
  return matched.reduce((s, x) => s + x, 0) + (termBest.length - matched.length) * rarest;
}

/** `agreed` above: the lexical evidence a memory both signals rank near the top keeps whatever w is. */
export function agreedEvidence(share: number, vector: number, weight = AGREED_SHARE): number {
  return clamp01(weight) * Math.min(clamp01(share), clamp01(vector));
}

export function fuseEvidence(vector: number | null, lexical: number | null): number | null {
  if (vector === null && lexical === null) return null;
  return 1 - (1 - (vector ?? 0)) * (1 - (lexical ?? 0));
}

export interface FuseInput {
  /** BM25 per docId (higher = better); docs not listed had no lexical match in the pool. */
  lexical?: ReadonlyMap<number, number> | undefined;
  lexicalCeiling?: number | undefined;
  /** Share of the query's code-like tokens each doc contains verbatim (docs not listed: 0). */
  exact?: ReadonlyMap<number, number> | undefined;
  /** Cosine per docId for every candidate whose vector is known. */
  cosines?: ReadonlyMap<number, number> | undefined;
  /** Cosines of the vector pool (the K nearest), for calibration. */
  vectorPool?: readonly number[] | undefined;
  /** Share of its vector evidence each doc keeps (the question form above; docs not listed: all). */
  vectorKeep?: ReadonlyMap<number, number> | undefined;
  /** Share of its BM25 evidence the lexical signal keeps for this query (reliability.ts; default 1). */
  lexicalWeight?: number | undefined;
  /** Concept evidence per docId (concepts.ts, already weighted, 0..1); docs not listed: 0. */
  concept?: ReadonlyMap<number, number> | undefined;
  /** BM25 scores of the lexical pool (the main lexical search's hits), for the lexical standout; absent: no standout. */
  lexicalPool?: readonly number[] | undefined;
  /** Per doc, the weight of its lexical standout (docs not listed: lexicalWeight). */
  standoutWeight?: ReadonlyMap<number, number> | undefined;
  /** Per doc, the weight of its BM25 share (docs not listed: lexicalWeight; reliability.ts `standoutWeights`). */
  shareWeight?: ReadonlyMap<number, number> | undefined;
  /** Memories both signals rank near the top under length flooding (reliability.ts `corroborated`): `agreed` above. */
  agreed?: ReadonlySet<number> | undefined;
}

export interface Fused {
  vector: number | null;
  lexical: number | null;
  relevance: number | null;
}

/** Relevance for each candidate docId. A signal that ran but did not find a doc contributes 0, not null. */
export function fuse(docIds: Iterable<number>, input: FuseInput): Map<number, Fused> {
  const cal = input.vectorPool ? calibrateVector(input.vectorPool) : undefined;
  const lexicalRan = input.lexical !== undefined;
  const ceiling = input.lexicalCeiling ?? Math.max(0, ...(input.lexical?.values() ?? []));
  const lexCal = input.lexicalPool ? calibrateLexical(input.lexicalPool) : undefined;
  const out = new Map<number, Fused>();
  for (const id of docIds) {
    const cos = input.cosines?.get(id);
    const vector = cal && cos !== undefined ? vectorEvidence(cos, cal) * clamp01(input.vectorKeep?.get(id) ?? 1) : null;
    const bm25 = input.lexical?.get(id);
    const w = input.lexicalWeight ?? 1;
    const ws = input.standoutWeight?.get(id) ?? w;
    const vouched = input.agreed?.has(id) && vector !== null ? agreedEvidence(lexicalEvidence(bm25 ?? 0, ceiling), vector) : 0;
    const lexical = lexicalRan ? Math.max(lexicalEvidence(bm25 ?? 0, ceiling, input.exact?.get(id), input.shareWeight?.get(id) ?? w, 0), clamp01(ws) * lexicalStandout(bm25 ?? 0, lexCal), vouched) : null;
    const concept = clamp01(input.concept?.get(id) ?? 0);
    const relevance = fuseEvidence(vector, lexical);
    out.set(id, { vector, lexical, relevance: concept > 0 && relevance !== null ? 1 - (1 - relevance) * (1 - concept) : relevance });
  }
  return out;
}
