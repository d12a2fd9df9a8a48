/**
 * The deep candidates: those found only past CALIBRATION_DEPTH in every signal (pool.ts), which only the deeper
 * pool of a larger k reaches (search's k, getContext's top_k over CONTEXT_HEAD_TOP_K). They rank after the others,
 * and the steps that read the head (floor, reranker, expansion, graph, cases) leave them alone; they join after
 * those steps, so that asking for more results only adds results after the ones a smaller k returns
 * (docs/benchmarks.md, "k-stable").
 */
import { aboveFloor, queryStems, type RelevanceFloor } from './floor.js';
import { DropLog } from './explain.js';
import type { Candidate } from './types.js';

type WithDocId = { doc: { docId?: number | undefined } };

/** The candidates of `ranked` found only past CALIBRATION_DEPTH (`deep`), and the others, each part in its own order. */
export function splitDeep<C extends WithDocId>(ranked: readonly C[], deep: ReadonlySet<number>): { head: C[]; tail: C[] } {
  const isDeep = (c: C) => c.doc.docId !== undefined && deep.has(c.doc.docId);
  return { head: ranked.filter((c) => !isDeep(c)), tail: ranked.filter(isDeep) };
}

/**
 * Candidates first, then the `deep` ones, each part in its own order: what the deeper pool of a larger k adds
 * comes after what a smaller k finds.
 */
export function headFirst<C extends WithDocId>(ranked: readonly C[], deep: ReadonlySet<number>): C[] {
  if (deep.size === 0) return [...ranked];
  const { head, tail } = splitDeep(ranked, deep);
  return [...head, ...tail];
}

/** getContext's relevance floor over the deep candidates (`joinDeep`). */
export interface DeepFloor {
  floor: RelevanceFloor;
  query: string;
  queryVector: Float32Array | undefined;
  /** Vectors by content hash (SemanticCandidates.vectors). */
  vectors: ReadonlyMap<string, Float32Array>;
  /** With `explain: true`: a deep candidate below the floor is dropped by `floor`. */
  drops?: Pick<DropLog, 'step'> | undefined;
}

/**
 * The deep candidates (`tail`) that join after `joined`, in their order, marked `deep`: those whose record is not
 * among `joined` already (a copy of a record already there is that record, not a drop). search and getContext both
 * join by this. They differ in one thing only, the relevance floor, which getContext has and search does not
 * (search ranks, it does not judge relevance): with `floor`, a deep candidate joins only when it passes the
 * floor's item test, and none does when nothing of the head was kept (the floor left nothing to join after).
 */
export function joinDeep(tail: readonly Candidate[], joined: readonly Candidate[], floor?: DeepFloor): Candidate[] {
  if (tail.length === 0 || (floor && joined.length === 0)) return [];
  const present = new Set(joined.map((c) => c.doc.refId));
  const fresh = tail.filter((c) => !present.has(c.doc.refId));
  const out = floor ? aboveDeepFloor(fresh, floor) : fresh;
  return out.map((c) => ({ ...c, deep: true }));
}

/** The candidates that pass the floor's item test (all when the floor is off); the others dropped by `floor`. */
function aboveDeepFloor(cs: readonly Candidate[], j: DeepFloor): Candidate[] {
  const q = { stems: queryStems(j.query), vector: j.queryVector };
  const out = cs.filter((c) => !j.floor.enabled || aboveFloor(j.floor, q, c.doc.text, j.vectors.get(c.doc.contentHash)));
  j.drops?.step('floor', cs, DropLog.ids(out));
  return out;
}
