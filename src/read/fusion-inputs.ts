/**
 * The inputs of `fuse` (fuse.ts) for one query's candidates: the hits of each signal, the cosines, the pools that
 * calibrate each signal, the question form, the lexical reliability and the concept evidence.
 */
import type { Doc } from '../core/types.js';
import type { DocHit } from '../ports/storage.js';
import { lexicalCeiling, type FuseInput } from './fuse.js';
import { conceptEvidence, conceptMatcher, mayNameCategory } from './concepts.js';
import { corroborated, LENGTH_TOP, lexicalReliability, standoutWeights } from './reliability.js';
import { cosine } from '../learn/vector.js';
import { CALIBRATION_DEPTH, calibrationHead } from './pool.js';
import type { SemanticRequest } from './semantic.js';
import { asksQuestion, statementProfile } from './statements.js';
import { exactShare, exactTokens } from './text.js';

/**
 * The ids of a signal's head: its first CALIBRATION_DEPTH hits. Hits come best first (the Storage port's order,
 * equal scores as the index broke the tie), so a sort here would change nothing and a different tie-break would
 * change the head.
 */
export function headIds(hits: readonly DocHit[]): number[] {
  return hits.slice(0, CALIBRATION_DEPTH).map((h) => h.docId);
}

/** What `fusionInputs` reads: the candidates, their vectors and the hits of each signal. */
export interface FusionSources {
  docs: readonly Doc[];
  /** Stored vectors by content hash. */
  vectors: ReadonlyMap<string, Float32Array>;
  /** The query vector; undefined: the vector signal did not run. */
  vector: Float32Array | undefined;
  useLexical: boolean;
  /** Every lexical hit (the main search's and those from the time the query names). */
  lexHits: readonly DocHit[];
  /** The main lexical search's hits (the lexical pool), best first as the index returned them. */
  mainLexHits: readonly DocHit[];
  /** Each query term's best BM25 in the index (lexicalCeiling). */
  termBest: readonly number[];
  /** The vector search's hits (the vector pool), best first as the index returned them (see `headIds`). */
  vecHits: readonly DocHit[];
  /** The candidates read as a conversation (the question form applies). */
  conversational: boolean;
  /** Candidates found only past CALIBRATION_DEPTH (SemanticCandidates.deep). */
  deep?: ReadonlySet<number> | undefined;
}

/**
 * The inputs of `fuse` for one query (fuse.ts): BM25 and its ceiling, exact tokens, cosines (a candidate outside the
 * vector pool gets its cosine from its stored vector), the pools that calibrate each signal, the question form, the
 * lexical reliability and the concept evidence. A signal that did not run leaves its inputs undefined.
 */
export function fusionInputs(req: Pick<SemanticRequest, 'query' | 'questionDiscount' | 'concepts'>, src: FusionSources): FuseInput {
  const { docs, vector, useLexical, mainLexHits, vecHits } = src;
  const useVector = vector !== undefined;
  // The index's cosine for the vector head (and the deep candidates); a memory the vector pool found only past its
  // head gets the cosine of its stored vector, as it would from a smaller pool (the two differ in the last bits).
  const vecHead = new Set(headIds(vecHits));
  const cosines = new Map<number, number>(vecHits.filter((h) => vecHead.has(h.docId) || src.deep?.has(h.docId)).map((h) => [h.docId, h.score]));
  if (useVector) {
    for (const d of docs) {
      const v = src.vectors.get(d.contentHash);
      if (!cosines.has(d.docId) && v) cosines.set(d.docId, cosine(vector, v));
    }
  }
  const codes = useLexical ? exactTokens(req.query) : [];
  const length = new Map(docs.map((d) => [d.docId, d.text.length]));
  const lengths = (hs: readonly DocHit[]) => hs.slice(0, LENGTH_TOP).flatMap((h) => length.get(h.docId) ?? []);
  const lexicalWeight = useLexical && useVector ? lexicalReliability(lengths(mainLexHits), lengths(vecHits)) : 1;
  // Under length flooding only, and not in a conversation between people (the LoCoMo shape, tuned apart): see fuse.ts `agreed`.
  const agreed = useLexical && useVector && lexicalWeight < 1 && !src.conversational ? corroborated(mainLexHits, vecHits) : undefined;
  const states = (text: string) => statementProfile(text).questionShare < 1;
  const relief = useLexical && useVector && lexicalWeight < 1 ? standoutWeights(docs, req.query, lengths(mainLexHits), lexicalWeight, states) : undefined;
  return {
    lexical: useLexical ? new Map(src.lexHits.map((h) => [h.docId, h.score])) : undefined,
    lexicalCeiling: lexicalCeiling(src.termBest),
    exact: new Map(docs.map((d) => [d.docId, exactShare(codes, d.text)])),
    cosines: useVector ? cosines : undefined,
    vectorPool: useVector ? calibrationHead(vecHits) : undefined,
    vectorKeep: useVector && src.conversational ? questionForm(req.query, docs, req.questionDiscount ?? 0) : undefined,
    lexicalWeight,
    // A memory that only asks (every sentence a question) agrees with the query's form and topic, not its answer.
    agreed: agreed && agreed.size > 0 ? new Set(docs.filter((d) => agreed.has(d.docId) && states(d.text)).map((d) => d.docId)) : undefined,
    standoutWeight: relief?.standout,
    shareWeight: relief && relief.share.size > 0 ? relief.share : undefined,
    concept: useLexical && useVector && req.concepts !== false ? conceptSignal(req.query, docs, src.deep) : undefined,
    // Hybrid only: the lexical mode ranks by BM25 alone, and the standout would not change its order.
    lexicalPool: useLexical && useVector ? calibrationHead(mainLexHits) : undefined,
  };
}

/**
 * Concept evidence of the candidates (concepts.ts), when the query asks about a category. A query that cannot
 * name one (no "what", "which", "how many") leaves WordNet unread.
 */
export function conceptSignal(query: string, docs: readonly Doc[], deep?: ReadonlySet<number>): Map<number, number> | undefined {
  if (!mayNameCategory(query)) return undefined;
  if (!deep || deep.size === 0) return conceptEvidence(conceptMatcher(), query, docs);
  // Its length norm reads the average over the docs given: the head's own, whatever a larger k added.
  const head = conceptEvidence(conceptMatcher(), query, docs.filter((d) => !deep.has(d.docId)));
  const rest = conceptEvidence(conceptMatcher(), query, docs.filter((d) => deep.has(d.docId)));
  return head || rest ? new Map([...(head ?? []), ...(rest ?? [])]) : undefined;
}

/** Per doc, the share of its vector evidence kept under the question discount (fuse.ts); undefined: all of it. */
export function questionForm(query: string, docs: readonly Doc[], discount: number): Map<number, number> | undefined {
  if (discount <= 0 || !asksQuestion(query)) return undefined;
  return new Map(docs.map((d) => [d.docId, 1 - discount * statementProfile(d.text).questionShare]));
}
