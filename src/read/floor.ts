/**
 * The relevance floor: the context's semantic section holds memories that are about the query in absolute
 * terms, not merely the best of an unrelated lot.
 *
 * Fused relevance (fuse.ts) is relative: vector evidence is how far a memory stands out of this query's own
 * neighbourhood, so a query about nothing in the store still finds memories that "stand out" (0.3–0.5) and
 * top_k is always filled. The floor looks at two absolute signals instead:
 *
 *   cosine    the raw cosine of the query's and the memory's vectors;
 *   coverage  the share of the query's content stems (stopwords out, light stemming: learn/text.ts) that the
 *             memory's text contains.
 *
 * It works at two levels:
 *   query     strong when some candidate reaches `query_min_cosine`, or shares a content word with the query
 *             (`query_min_coverage`) while some candidate is at least `weak_min_cosine` close, or holds
 *             `query_strong_coverage` of the query's words; weak when it is none of these but some candidate is
 *             `weak_min_cosine` close or shares a word; none otherwise. A strong query keeps every item that passes
 *             the item level; a weak one its `weak_items` best, each marked `weak` in its scores (and "weak match"
 *             in its provenance tag), with nothing joining through them; a query with none gets no semantic item;
 *   item      each memory must reach `min_cosine` or `min_coverage` (drops clear bystanders of a relevant query).
 * Without a query vector (embedder down) both levels fall back to sharing any content stem with the query; a
 * memory without a vector (not embedded yet) is judged by coverage alone. The item test also decides which
 * retrieved facts an outcome may credit or blame (learn/engine/reinforce.ts).
 *
 * Why a middle ground: a reworded question may share no word with its answer and reach no closer cosine than
 * an off-topic query does (USE-lite), and an off-topic query may share one stray word with a memory. Emptying
 * the first loses the answer; admitting the second in full fills the prompt with bystanders. Both get a few
 * marked items instead (docs/benchmarks.md, "The relevance floor's middle ground").
 *
 * Calibrated with USE-lite on the repository's own corpora (bench/corpora, tune split) and the read-path test
 * fixtures; `*_cosine` are properties of the embedding model — set them again for another one. Eight written
 * off-topic queries ("quantum chromodynamics lattice gauge", "Who won the 1998 football world cup?" …) against
 * each corpus: the best candidate's cosine is at most 0.45 (median 0.30). The tune questions' evidence: cosine
 * p5 0.26 · p10 0.31 · p25 0.42 · median 0.51, coverage median 0.2. Raw cosine alone separates nothing —
 * USE-lite puts "which units should the report use?" at 0.29 from "Bob prefers answers in metric units." and
 * "quantum chromodynamics lattice gauge" at 0.37 from it — and reworded questions often share no more than one
 * word with their answer. So the query level asks for a close memory (0.42), or a shared content word with some
 * memory not far (0.3: off-topic queries rarely reach it, no tune question's best memory is below it), or half the
 * query's words; the written off-topic queries (bench/corpora/src/off-topic.json) measure it. The item level stays
 * below the evidence's p5.
 */
import { stemSet } from '../learn/text.js';
import { cosine } from '../learn/vector.js';

export interface RelevanceFloor {
  enabled: boolean;
  min_cosine: number;
  min_coverage: number;
  query_min_cosine: number;
  query_min_coverage: number;
  /** A share of the query's words that makes the query strong whatever the cosines. */
  query_strong_coverage: number;
  /** A shared word makes the query strong only with a memory this close; without one, this close makes it weak. */
  weak_min_cosine: number;
  /** How many of the best memories a weak query keeps, each marked (0: a weak query gets none). */
  weak_items: number;
}

/** What the query level makes of a query: about the store, perhaps about it (keep a few, marked), or not. */
export type FloorVerdict = 'strong' | 'weak' | 'none';

/** Content stems of a query, computed once per query. */
export function queryStems(query: string): Set<string> {
  return stemSet(query);
}

/** Share of the query's content stems the text contains (0 for a query without content words). */
export function coverage(query: ReadonlySet<string>, text: string): number {
  if (query.size === 0) return 0;
  const have = stemSet(text);
  let n = 0;
  for (const s of query) if (have.has(s)) n++;
  return n / query.size;
}

export interface FloorInput {
  stems: ReadonlySet<string>;
  vector: Float32Array | undefined;
}

export interface Evidence {
  cosine: number | null;
  coverage: number;
}

/**
 * A memory's evidence. `situation` is the vector of what a closed case started from (its first report, when the
 * caller has it): a case is about the query when its situation is, though its whole text — what was tried, the
 * outcome, the cause — reads further from a report of symptoms. The closer of the two cosines counts.
 */
export function evidenceOf(q: FloorInput, text: string, vector: Float32Array | undefined, situation?: Float32Array): Evidence {
  const whole = q.vector && vector ? cosine(q.vector, vector) : null;
  const start = q.vector && situation ? cosine(q.vector, situation) : null;
  return { cosine: start === null ? whole : whole === null ? start : Math.max(whole, start), coverage: coverage(q.stems, text) };
}

/** Does one memory pass the item floor? */
export function itemPasses(floor: RelevanceFloor, q: FloorInput, e: Evidence): boolean {
  if (!floor.enabled) return true;
  if (!q.vector) return e.coverage > 0;
  if (e.cosine !== null && e.cosine >= floor.min_cosine) return true;
  return e.coverage >= floor.min_coverage;
}

/** Is the query about the store at all (a strong verdict), judged on its candidates? */
export function queryPasses(floor: RelevanceFloor, q: FloorInput, pool: readonly Evidence[]): boolean {
  return queryVerdict(floor, q, pool) === 'strong';
}

/**
 * The query level with its middle ground. Strong: a close memory (`query_min_cosine`), or a shared content word
 * (`query_min_coverage`) with a memory not far (`weak_min_cosine`), or most of the query's words
 * (`query_strong_coverage`). Weak: none of these, but a memory not far or a shared word. None: neither.
 */
export function queryVerdict(floor: RelevanceFloor, q: FloorInput, pool: readonly Evidence[]): FloorVerdict {
  if (!floor.enabled) return 'strong';
  if (!q.vector) return pool.some((e) => e.coverage > 0) ? 'strong' : 'none';
  let best = -Infinity;
  let shared = 0;
  for (const e of pool) {
    if (e.cosine !== null && e.cosine > best) best = e.cosine;
    if (e.coverage > 0 && e.coverage >= floor.query_min_coverage) shared = Math.max(shared, e.coverage);
  }
  const near = best >= floor.weak_min_cosine;
  if (best >= floor.query_min_cosine || (shared > 0 && near) || shared >= floor.query_strong_coverage) return 'strong';
  return (near || shared > 0) && floor.weak_items > 0 ? 'weak' : 'none';
}

/** The item test on a text and its vector (for callers without a candidate pool). */
export function aboveFloor(floor: RelevanceFloor, q: FloorInput, text: string, vector: Float32Array | undefined): boolean {
  return itemPasses(floor, q, evidenceOf(q, text, vector));
}

/**
 * Keeps the items that pass both levels (all or none by the query level, then each by the item level). `also`
 * is more evidence for the query level only: the recent events the context shows anyway (a query about what is
 * happening now is about the store even when the retrieved memories only border on it).
 */
export function applyFloor<T>(
  floor: RelevanceFloor,
  q: FloorInput,
  items: readonly T[],
  view: (item: T) => { text: string; vector: Float32Array | undefined },
  also: readonly Evidence[] = [],
): T[] {
  const judged = judgeFloor(floor, q, items, view, also);
  return judged.verdict === 'strong' ? judged.items : [];
}

/**
 * The items that pass the item level and the query level's verdict: with 'strong' all of them count; with 'weak'
 * the caller keeps the `weak_items` best of them, marked weak; with 'none' there are none.
 */
export function judgeFloor<T>(
  floor: RelevanceFloor,
  q: FloorInput,
  items: readonly T[],
  view: (item: T) => { text: string; vector: Float32Array | undefined; situation?: Float32Array | undefined },
  also: readonly Evidence[] = [],
): { verdict: FloorVerdict; items: T[] } {
  if (!floor.enabled) return { verdict: 'strong', items: [...items] };
  const evidence = items.map((i) => {
    const v = view(i);
    return evidenceOf(q, v.text, v.vector, v.situation);
  });
  const verdict = queryVerdict(floor, q, [...evidence, ...also]);
  if (verdict === 'none') return { verdict, items: [] };
  const kept = items.filter((_, i) => itemPasses(floor, q, evidence[i]!));
  return kept.length > 0 ? { verdict, items: kept } : { verdict: 'none', items: [] };
}
