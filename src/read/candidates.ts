/**
 * Candidate generation: everything that talks to storage on the read path lives here, so the steps after it
 * are pure functions over `Candidate`s.
 *
 *   window    the episodic window from the timeline (`queryEvents`): last N events or the last T minutes of
 *             the task/session, with the window's own filters and the read-time episodic TTL;
 *   semantic  lexical (BM25) and vector hits over the retrieval projection, fused into relevance (fuse.ts);
 *             in hybrid mode, when the query names a time, also the hits of both indexes within it (time-window.ts);
 *   records   the window's events scored as candidates, and the records (events, facts, episodes) of chosen items.
 */
import type { ContextConfig } from '../core/config.js';
import { EngramError } from '../core/errors.js';
import { eventToDoc } from '../core/docs.js';
import type { FilterNode } from '../core/filter.js';
import type { Doc, DocKind, Fact, MemoryEvent } from '../core/types.js';
import type { DocHit, EventQuery, HydratedDocs, ScopeFilter, Storage } from '../ports/storage.js';
import { calibrateVector, fuse, lexicalCeiling, vectorEvidence, type FuseInput, type Fused, type VectorCalibration } from './fuse.js';
import { conceptEvidence, conceptMatcher, mayNameCategory } from './concepts.js';
import { looksConversational } from './conversation.js';
import { corroborated, LENGTH_TOP, lexicalReliability, standoutWeights } from './reliability.js';
import { cosine } from '../learn/vector.js';
import { kindBoost, type RoutePlan } from './router.js';
import { scoreCandidate } from './score.js';
import { asksQuestion, statementProfile } from './statements.js';
import { exactShare, exactTokens, words } from './text.js';
import { CALIBRATION_DEPTH, calibrationHead } from './pool.js';
import type { TimeWindow } from './time-window.js';
import type { Candidate, ReadDeps, RetrievalMode } from './types.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** A `since_minutes` window returns at most this many (most recent) events. */
export const MAX_WINDOW_EVENTS = 500;
/** The events of at most this many of the best lexical event hits are loaded before the query vector arrives. */
export const PREFETCH_EVENTS = 20;
/** Each index is asked for at most this many memories from the time the query names (SemanticRequest.timeWindow). */
export const TIME_WINDOW_CANDIDATES = 20;
/** At most this many distinct query terms get a ceiling probe (see lexicalCeiling). */
export const MAX_CEILING_TERMS = 32;

/** Oldest episodic timestamp allowed by `guardrails.episodic_ttl_days` (undefined: no limit). */
export function episodicCutoff(ttlDays: number | null, now: number): number | undefined {
  return ttlDays === null ? undefined : now - ttlDays * DAY_MS;
}

export interface WindowRequest {
  tenant: string;
  scope: ScopeFilter;
  window: ContextConfig['episodic_window'];
  windowFilter?: FilterNode | undefined;
  taskId?: string | null | undefined;
  ttlDays: number | null;
  now: number;
  /** Reading at a time (time-travel.ts): events after `asOf`, or recorded after `knownAt`, stay out. */
  asOf?: number | undefined;
  knownAt?: number | undefined;
}

/** The episodic window, chronological by event time. */
export async function fetchWindow(storage: Storage, req: WindowRequest): Promise<MemoryEvent[]> {
  const { window, now } = req;
  if (window.mode === 'none') return [];
  const scope: ScopeFilter = req.taskId ? { ...req.scope, taskId: req.taskId } : { ...req.scope };
  const q: EventQuery = {
    tenant: req.tenant,
    scope,
    filter: req.windowFilter,
    now,
    ...(req.asOf !== undefined ? { until: req.asOf + 1 } : {}),
    ...(req.knownAt !== undefined ? { knownAt: req.knownAt } : {}),
  };
  const cutoff = episodicCutoff(req.ttlDays, now);
  if (window.mode === 'last_n_events') {
    if (window.n === 0) return [];
    q.lastN = window.n;
    q.since = cutoff;
  } else {
    if (window.since_minutes === null) {
      throw new EngramError('VALIDATION', 'episodic_window.since_minutes is required when mode is "since_minutes"', {
        issues: [{ path: 'episodic_window.since_minutes', message: 'required when mode is "since_minutes"' }],
      });
    }
    const since = (req.asOf ?? now) - window.since_minutes * MINUTE_MS;
    q.since = cutoff === undefined ? since : Math.max(since, cutoff);
    q.lastN = MAX_WINDOW_EVENTS;
  }
  return storage.queryEvents(q);
}

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

/** Lexical and vector hits, their docs, the docs' vectors, and fused relevance for each. */
export async function fetchSemantic(storage: Storage, req: SemanticRequest): Promise<SemanticCandidates> {
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
  const seen = new Set(mainLexHits.map((h) => h.docId));
  // A dated hit scores as it would in the main search (same index, same query); it only joins the candidates.
  const lexHits = [...mainLexHits, ...datedLexHits.filter((h) => !seen.has(h.docId))];
  const docs = [...lexLoaded.docs, ...vecLoaded.docs];
  // Vectors serve the cosine of lexical-only hits and MMR's similarity (even in lexical mode).
  const vectors = new Map([...lexLoaded.vectors, ...vecLoaded.vectors]);

  const byScore = (hs: readonly DocHit[]) => [...hs].sort((a, b) => b.score - a.score).slice(0, CALIBRATION_DEPTH);
  const lexHead = new Set([...byScore(mainLexHits), ...datedLexHits].map((h) => h.docId));
  const head = new Set([...lexHead, ...[...byScore(vecHits), ...datedVecHits].map((h) => h.docId)]);
  const deep = new Set(docs.map((d) => d.docId).filter((id) => !head.has(id)));
  // Read from the head's memories, like the calibration: the same for every k.
  const conversational = looksConversational(docs.filter((d) => !deep.has(d.docId)));
  // A head memory's BM25 counts when the lexical head found it, as with a smaller k; a deep one keeps its own.
  const lexCounted = lexHits.filter((h) => lexHead.has(h.docId) || deep.has(h.docId));
  const input = fusionInputs(req, { docs, vectors, vector: useVector ? vector : undefined, useLexical, lexHits: lexCounted, mainLexHits, termBest, vecHits, conversational, deep });
  const fused = fuse(docs.map((d) => d.docId), input);
  const pool = [...(input.vectorPool ?? [])];
  // Attached to candidates: the events of the first PREFETCH_EVENTS lexical event hits, whatever else was loaded.
  const prefetched = new Set(lexLoaded.docs.filter((d) => d.kind === 'event').slice(0, PREFETCH_EVENTS).map((d) => d.refId));
  const events = req.mode === 'hybrid' ? new Map([...lexLoaded.events].filter(([id]) => prefetched.has(id))) : undefined;
  const loadedEvents = new Map([...lexLoaded.events, ...vecLoaded.events]);
  const facts = new Map([...lexLoaded.facts, ...vecLoaded.facts]);
  return { docs, fused, vectors, calibration: useVector ? calibrateVector(pool) : undefined, vectorPool: pool, deep, events, loadedEvents, facts, conversational };
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
  /** The main lexical search's hits (the lexical pool). */
  mainLexHits: readonly DocHit[];
  /** Each query term's best BM25 in the index (lexicalCeiling). */
  termBest: readonly number[];
  /** The vector search's hits (the vector pool). */
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
  const vecHead = new Set([...vecHits].sort((a, b) => b.score - a.score).slice(0, CALIBRATION_DEPTH).map((h) => h.docId));
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

/** The timeline events behind event docs (tool, args, result, name), keyed by id. */
export async function loadEvents(storage: Storage, tenant: string, ids: readonly string[]): Promise<Map<string, MemoryEvent>> {
  if (ids.length === 0) return new Map();
  const events = await storage.getEvents(tenant, ids);
  return new Map(events.map((e) => [e.id, e]));
}

/** The facts behind fact docs (key, subject, predicate, value), keyed by id. */
export async function loadFacts(storage: Storage, tenant: string, ids: readonly string[]): Promise<Map<string, Fact>> {
  if (ids.length === 0) return new Map();
  const facts = storage.getFacts ? await storage.getFacts(tenant, ids) : await Promise.all(ids.map((id) => storage.getFact(tenant, id)));
  return new Map(facts.filter((f): f is Fact => f !== undefined).map((f) => [f.id, f]));
}

/**
 * Window events as candidates, scored with the same weights. Their vector evidence is calibrated on the
 * semantic pool plus the window itself: a filtered semantic pool can be tiny, and the window's own spread
 * tells which recent events are about the query.
 */
export async function windowCandidates(
  deps: ReadDeps,
  events: readonly MemoryEvent[],
  vector: Float32Array | undefined,
  sem: SemanticCandidates,
  config: ContextConfig,
  plan: RoutePlan,
  now: number,
): Promise<{ candidates: Candidate[]; cosines: Map<string, number> }> {
  const vectors = vector && events.length > 0 ? await deps.storage.getEmbeddings(events.map((e) => e.contentHash)) : new Map<string, Float32Array>();
  const cosines = new Map<string, number>();
  for (const e of events) {
    const v = vectors.get(e.contentHash);
    if (v && vector) cosines.set(e.id, cosine(vector, v));
  }
  const cal = calibrateVector([...sem.vectorPool, ...cosines.values()]);
  const candidates = events.map((e): Candidate => {
    const doc = eventToDoc(e);
    const cos = cosines.get(e.id);
    const evidence = cos !== undefined && cal ? vectorEvidence(cos, cal) : null;
    const fused = evidence === null ? undefined : { vector: evidence, lexical: null, relevance: evidence };
    const scores = scoreCandidate(doc, fused, config.scoring, now, { recencyFactor: plan.recencyFactor, boost: kindBoost(plan, doc.kind) });
    return { doc, origin: 'window', event: e, scores };
  });
  return { candidates, cosines };
}

/**
 * Attaches events (tool rendering), facts (conflict checks, confidence) and episodes with their links (outcome
 * labels) to the chosen items.
 */
export async function attachRecords(deps: ReadDeps, tenant: string, items: readonly Candidate[]): Promise<Candidate[]> {
  const eventIds = items.filter((c) => c.doc.kind === 'event' && !c.event).map((c) => c.doc.refId);
  const factIds = items.filter((c) => c.doc.kind === 'fact' && !c.fact).map((c) => c.doc.refId);
  const episodeIds = items.filter((c) => c.doc.kind === 'episode').map((c) => c.doc.refId);
  const [events, facts, episodes, links] = await Promise.all([
    loadEvents(deps.storage, tenant, eventIds),
    loadFacts(deps.storage, tenant, factIds),
    episodeIds.length ? deps.storage.getEpisodes(tenant, episodeIds.filter((id) => !items.find((c) => c.doc.refId === id)?.episode)) : Promise.resolve([]),
    episodeIds.length ? deps.storage.getLinks({ tenant, ids: episodeIds, direction: 'both' }) : Promise.resolve([]),
  ]);
  const byId = new Map(episodes.map((e) => [e.id, e]));
  return items.map((c) => {
    const out: Candidate = { ...c, event: c.event ?? events.get(c.doc.refId), fact: c.fact ?? facts.get(c.doc.refId) };
    if (c.doc.kind === 'episode') {
      out.episode = c.episode ?? byId.get(c.doc.refId);
      out.links = links.filter((l) => l.fromId === c.doc.refId || l.toId === c.doc.refId);
    }
    return out;
  });
}
