/**
 * The semantic candidates: lexical (BM25) and vector hits over the retrieval projection, their docs and stored
 * vectors, fused into relevance (fusion-inputs.ts, fuse.ts); in hybrid mode, when the query names a time, also the
 * hits of both indexes within it (time-window.ts).
 */
import type { FilterNode } from '../core/filter.js';
import type { Doc, DocKind, Fact, MemoryEvent } from '../core/types.js';
import type { DocHit, HydratedDocs, ScopeFilter, Storage } from '../ports/storage.js';
import { calibrateVector, fuse, type Fused, type VectorCalibration } from './fuse.js';
import { looksConversational } from './conversation.js';
import { fusionInputs, headIds } from './fusion-inputs.js';
import { loadEvents } from './records.js';
import { words } from './text.js';
import type { TimeWindow } from './time-window.js';
import type { RetrievalMode } from './types.js';

/** The events of at most this many of the best lexical event hits are loaded before the query vector arrives. */
export const PREFETCH_EVENTS = 20;
/** Each index is asked for at most this many memories from the time the query names (SemanticRequest.timeWindow). */
export const TIME_WINDOW_CANDIDATES = 20;
/** At most this many distinct query terms get a ceiling probe (see lexicalCeiling). */
export const MAX_CEILING_TERMS = 32;

/** Distinct query words, in order, capped. The adapter tokenises each one itself. */
export function queryTerms(query: string): string[] {
  return [...new Set(words(query))].slice(0, MAX_CEILING_TERMS);
}

export interface SemanticRequest {
  tenant: string;
  scope?: ScopeFilter | undefined;
  query: string;
  /**
   * The query vector, or a promise of it: lexical search runs first, so with an in-process store it overlaps
   * the embedding of the query.
   */
  vector?: Float32Array | Promise<Float32Array | undefined> | undefined;
  kinds?: DocKind[] | undefined;
  filter?: FilterNode | undefined;
  k: number;
  mode: RetrievalMode;
  now: number;
  /** When the query asks, the vector evidence of a memory that asks is cut by this share (fuse.ts); 0: off. */
  questionDiscount?: number | undefined;
  /**
   * A time the query names (time-window.ts). In hybrid mode the memories from then are searched as well, so that
   * the time factor of the expansion has them to lift even when the whole store holds better matches by words.
   */
  timeWindow?: Pick<TimeWindow, 'start' | 'end'> | undefined;
  /** Concept evidence for queries that ask about a category (concepts.ts; `semantic_retrieval.concepts`, default on). */
  concepts?: boolean | undefined;
}

export interface SemanticCandidates {
  docs: Doc[];
  fused: Map<number, Fused>;
  /** Stored vectors of the candidates, by content hash (missing when not embedded yet). */
  vectors: Map<string, Float32Array>;
  calibration?: VectorCalibration | undefined;
  /** Cosines of the vector pool's calibration head (its CALIBRATION_DEPTH nearest), kept to calibrate other items against the same query. */
  vectorPool: number[];
  /** Candidates found only past CALIBRATION_DEPTH by every signal (they rank after the others: `headFirst`). */
  deep?: ReadonlySet<number> | undefined;
  /** Timeline events behind the lexical hits' event docs, by event id (loaded while the query is embedded). */
  events?: Map<string, MemoryEvent> | undefined;
  /** Every candidate event loaded with the docs (a superset of `events`, not attached; the expansion reads it). */
  loadedEvents?: ReadonlyMap<string, MemoryEvent> | undefined;
  /** Facts behind fact candidates, when loaded with the docs (the adapter's `hydrateDocs`). */
  facts?: ReadonlyMap<string, Fact> | undefined;
  /** The candidates read as a conversation between people (conversation.ts): the conversation steps apply. */
  conversational?: boolean | undefined;
}

/**
 * Each query term's best BM25 in this slice of the index (0 when it matches nothing), for the lexical
 * ceiling of fuse.ts. One k=1 probe per distinct term.
 */
export async function termBestScores(storage: Storage, base: Omit<SemanticRequest, 'query' | 'vector' | 'mode' | 'k'>, terms: readonly string[]): Promise<number[]> {
  return Promise.all(
    terms.map(async (text) => {
      const hits = await storage.lexicalSearch({ tenant: base.tenant, scope: base.scope, kinds: base.kinds, filter: base.filter, k: 1, now: base.now, text });
      return Math.max(0, hits[0]?.score ?? 0);
    }),
  );
}

/** Lexical hits and the per-term bests of the lexical ceiling: in one pass when the adapter can. */
async function lexicalWithTermBest(storage: Storage, q: Omit<SemanticRequest, 'query' | 'vector' | 'mode'> & { text: string }): Promise<[DocHit[], number[]]> {
  if (storage.lexicalSearchWithTermBest) {
    const { hits, termBest } = await storage.lexicalSearchWithTermBest(q);
    return [hits, termBest];
  }
  return Promise.all([storage.lexicalSearch(q), termBestScores(storage, q, queryTerms(q.text))]);
}

/**
 * Docs by id (in that order), their stored vectors by content hash and, with `events`, the events of the first
 * `events` event docs among them. An engine with `hydrateDocs` answers in one round trip, with the facts behind
 * the fact docs too; otherwise the facts are left to `atReadTime` (empty map).
 */
async function docsWithVectors(storage: Storage, tenant: string, ids: readonly number[], events = 0): Promise<HydratedDocs> {
  if (ids.length === 0) return { docs: [], vectors: new Map(), events: new Map(), facts: new Map() };
  if (storage.hydrateDocs) return storage.hydrateDocs(tenant, ids, { events });
  const docs = await storage.getDocs(tenant, ids);
  const vectors = docs.length > 0 ? await storage.getEmbeddings([...new Set(docs.map((d) => d.contentHash))]) : new Map<string, Float32Array>();
  const eventIds = docs.filter((d) => d.kind === 'event').slice(0, events).map((d) => d.refId);
  return { docs, vectors, events: await loadEvents(storage, tenant, eventIds), facts: new Map() };
}

/** `filter` narrowed to memories written inside `window`. */
export function withinWindow(filter: FilterNode | undefined, window: Pick<TimeWindow, 'start' | 'end'>): FilterNode {
  const ts = { kind: 'column', name: 'ts' } as const;
  const bounds: FilterNode[] = [
    { op: 'cmp', field: ts, cmp: 'gte', value: window.start },
    { op: 'cmp', field: ts, cmp: 'lt', value: window.end },
  ];
  return { op: 'and', children: filter ? [filter, ...bounds] : bounds };
}

/** What the indexes returned for one request, and the docs loaded behind the hits. */
interface FetchedHits {
  /** The query vector; undefined: the vector signal did not run. */
  vector: Float32Array | undefined;
  useLexical: boolean;
  /** The main lexical search's hits, best first, and each query term's best BM25 (lexicalCeiling). */
  mainLexHits: DocHit[];
  termBest: number[];
  /** The hits of each index from the time the query names (SemanticRequest.timeWindow). */
  datedLexHits: DocHit[];
  datedVecHits: DocHit[];
  /** The main vector search's hits, best first. */
  vecHits: DocHit[];
  /** The main lexical hits' docs, vectors and events, loaded while the query vector may still be on its way. */
  lexLoaded: HydratedDocs;
  /** The docs of every other hit. */
  vecLoaded: HydratedDocs;
}

/** Every search of one request and the docs behind its hits; the lexical side is issued before the vector is awaited. */
async function fetchHits(storage: Storage, req: SemanticRequest): Promise<FetchedHits> {
  const base = { tenant: req.tenant, scope: req.scope, kinds: req.kinds, filter: req.filter, k: req.k, now: req.now };
  const dated = req.mode === 'hybrid' && req.timeWindow ? { ...base, filter: withinWindow(req.filter, req.timeWindow), k: Math.min(req.k, TIME_WINDOW_CANDIDATES) } : undefined;
  const useLexical = req.mode !== 'vector' && words(req.query).length > 0;
  // Issued before the vector is awaited (see SemanticRequest.vector).
  // The lexical hits' docs and vectors are loaded while the query vector may still be on its way.
  const lexical = useLexical ? lexicalWithTermBest(storage, { ...base, text: req.query }) : Promise.resolve<[DocHit[], number[]]>([[], []]);
  // In hybrid mode the ranking's head is mostly lexical hits, and the timeline expansion and rendering read
  // their events (authors, sessions, tools): they are loaded with the docs, while the query vector may still be
  // on its way.
  // An engine that hydrates in one round trip brings every candidate's event (`loadedEvents`, for the expansion).
  const allEvents = (n: number) => (req.mode !== 'hybrid' ? 0 : storage.hydrateDocs ? n : PREFETCH_EVENTS);
  const lexicalDocs = lexical.then(([hits]) => docsWithVectors(storage, req.tenant, hits.map((h) => h.docId), allEvents(hits.length)));
  lexicalDocs.catch(() => undefined); // a failure surfaces from the Promise.all below, not as an unhandled rejection
  const datedLexical = dated && useLexical ? storage.lexicalSearch({ ...dated, text: req.query }) : Promise.resolve<DocHit[]>([]);
  datedLexical.catch(() => undefined);
  const vector = req.mode === 'lexical' ? undefined : await req.vector;
  const useVector = vector !== undefined;
  const hits = Promise.all([
    useVector ? storage.vectorSearch({ ...base, vector }) : Promise.resolve<DocHit[]>([]),
    lexical,
    datedLexical,
    dated && useVector ? storage.vectorSearch({ ...dated, vector }) : Promise.resolve<DocHit[]>([]),
  ] as const);
  // The other hits' docs load alongside the lexical hits' docs.
  const otherDocs = hits.then(([vecHits, [mainLexHits], datedLexHits, datedVecHits]) => {
    const lexIds = new Set(mainLexHits.map((h) => h.docId));
    const ids = [...new Set([...datedLexHits, ...vecHits, ...datedVecHits].map((h) => h.docId))].filter((id) => !lexIds.has(id));
    return docsWithVectors(storage, req.tenant, ids, storage.hydrateDocs ? allEvents(ids.length) : 0);
  });
  otherDocs.catch(() => undefined);
  const [[vecHits, [mainLexHits, termBest], datedLexHits, datedVecHits], lexLoaded, vecLoaded] = await Promise.all([hits, lexicalDocs, otherDocs]);
  return { vector, useLexical, mainLexHits, termBest, datedLexHits, datedVecHits, vecHits, lexLoaded, vecLoaded };
}

/**
 * The lexical head (the main search's CALIBRATION_DEPTH best and the dated hits) and the candidates outside the
 * head of every signal (`deep`).
 */
function signalHeads(f: Pick<FetchedHits, 'mainLexHits' | 'datedLexHits' | 'vecHits' | 'datedVecHits'>, docs: readonly Doc[]): { lexHead: Set<number>; deep: Set<number> } {
  const lexHead = new Set([...headIds(f.mainLexHits), ...f.datedLexHits.map((h) => h.docId)]);
  const head = new Set([...lexHead, ...headIds(f.vecHits), ...f.datedVecHits.map((h) => h.docId)]);
  return { lexHead, deep: new Set(docs.map((d) => d.docId).filter((id) => !head.has(id))) };
}

/** Lexical and vector hits, their docs, the docs' vectors, and fused relevance for each. */
export async function fetchSemantic(storage: Storage, req: SemanticRequest): Promise<SemanticCandidates> {
  const f = await fetchHits(storage, req);
  const { vector, useLexical, mainLexHits, termBest, vecHits, lexLoaded, vecLoaded } = f;
  const useVector = vector !== undefined;
  const seen = new Set(mainLexHits.map((h) => h.docId));
  // A dated hit scores as it would in the main search (same index, same query); it only joins the candidates.
  const lexHits = [...mainLexHits, ...f.datedLexHits.filter((h) => !seen.has(h.docId))];
  const docs = [...lexLoaded.docs, ...vecLoaded.docs];
  // Vectors serve the cosine of lexical-only hits and MMR's similarity (even in lexical mode).
  const vectors = new Map([...lexLoaded.vectors, ...vecLoaded.vectors]);
  const { lexHead, deep } = signalHeads(f, docs);
  // Read from the head's memories, like the calibration: the same for every k.
  const conversational = looksConversational(docs.filter((d) => !deep.has(d.docId)));
  // A head memory's BM25 counts when the lexical head found it, as with a smaller k; a deep one keeps its own.
  const lexCounted = lexHits.filter((h) => lexHead.has(h.docId) || deep.has(h.docId));
  const input = fusionInputs(req, { docs, vectors, vector, useLexical, lexHits: lexCounted, mainLexHits, termBest, vecHits, conversational, deep });
  const fused = fuse(docs.map((d) => d.docId), input);
  const pool = [...(input.vectorPool ?? [])];
  // Attached to candidates: the events of the first PREFETCH_EVENTS lexical event hits, whatever else was loaded.
  const prefetched = new Set(lexLoaded.docs.filter((d) => d.kind === 'event').slice(0, PREFETCH_EVENTS).map((d) => d.refId));
  const events = req.mode === 'hybrid' ? new Map([...lexLoaded.events].filter(([id]) => prefetched.has(id))) : undefined;
  const loadedEvents = new Map([...lexLoaded.events, ...vecLoaded.events]);
  const facts = new Map([...lexLoaded.facts, ...vecLoaded.facts]);
  return { docs, fused, vectors, calibration: useVector ? calibrateVector(pool) : undefined, vectorPool: pool, deep, events, loadedEvents, facts, conversational };
}
