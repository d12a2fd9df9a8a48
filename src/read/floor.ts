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
 *   query     the query is about the store only when some candidate reaches `query_min_cosine` or
 *             `query_min_coverage`; otherwise no semantic item at all;
 *   item      each memory must reach `min_cosine` or `min_coverage` (drops clear bystanders of a relevant query).
 * Without a query vector (embedder down) both levels fall back to sharing any content stem with the query; a
 * memory without a vector (not embedded yet) is judged by coverage alone. The item test also decides which
 * retrieved facts an outcome may credit or blame (learn/engine/reinforce.ts).
 *
 * Calibrated with USE-lite on the repository's own corpora (bench/corpora, tune split) and the read-path test
 * fixtures; `*_cosine` are properties of the embedding model — set them again for another one. Eight written
 * off-topic queries ("quantum chromodynamics lattice gauge", "Who won the 1998 football world cup?" …) against
 * each corpus: the best candidate's cosine is at most 0.45 (median 0.30). The tune questions' evidence: cosine
 * p5 0.26 · p10 0.31 · p25 0.42 · median 0.51, coverage median 0.2. Raw cosine alone separates nothing —
 * USE-lite puts "which units should the report use?" at 0.29 from "Bob prefers answers in metric units." and
 * "quantum chromodynamics lattice gauge" at 0.37 from it — and reworded questions often share no more than one
 * word with their answer. So the query level asks for a close memory (0.42) or any content word of the query
 * in a candidate (`query_min_coverage` 0: any; raise it to ask for more): the off-topic queries that share no
 * word with a corpus (16 of the 24 pairs) get nothing, those with a stray shared word ("gauge" in agent traces
 * about metrics) still pass, while a relevant question almost always shares a word with some candidate (the
 * lexical hits do by construction). The item level stays below the evidence's p5.
 */
import { stemSet } from '../learn/text.js';
import { cosine } from './mmr.js';

export interface RelevanceFloor {
  enabled: boolean;
  min_cosine: number;
  min_coverage: number;
  query_min_cosine: number;
  query_min_coverage: number;
}

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

export function evidenceOf(q: FloorInput, text: string, vector: Float32Array | undefined): Evidence {
  return { cosine: q.vector && vector ? cosine(q.vector, vector) : null, coverage: coverage(q.stems, text) };
}

/** Does one memory pass the item floor? */
export function itemPasses(floor: RelevanceFloor, q: FloorInput, e: Evidence): boolean {
  if (!floor.enabled) return true;
  if (!q.vector) return e.coverage > 0;
  if (e.cosine !== null && e.cosine >= floor.min_cosine) return true;
  return e.coverage >= floor.min_coverage;
}

/** Is the query about the store at all, judged on its candidates? */
export function queryPasses(floor: RelevanceFloor, q: FloorInput, pool: readonly Evidence[]): boolean {
  if (!floor.enabled) return true;
  if (!q.vector) return pool.some((e) => e.coverage > 0);
  return pool.some((e) => (e.cosine !== null && e.cosine >= floor.query_min_cosine) || (e.coverage > 0 && e.coverage >= floor.query_min_coverage));
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
  if (!floor.enabled) return [...items];
  const evidence = items.map((i) => {
    const v = view(i);
    return evidenceOf(q, v.text, v.vector);
  });
  if (!queryPasses(floor, q, [...evidence, ...also])) return [];
  return items.filter((_, i) => itemPasses(floor, q, evidence[i]!));
}
