/**
 * search(): query → route → candidates (lexical + vector) → fuse (question form) → Generative-Agents score → optional rerank
 * → (hybrid) time window, conversation steps, session neighbours and author field (expand.ts) → top k. No window, no
 * budget: this is the ranked-list API under `buildContext`.
 */
import { parseContextConfig, type ContextConfig, type ConversationConfig } from '../core/config.js';
import { EngramError } from '../core/errors.js';
import type { FilterNode } from '../core/filter.js';
import type { Doc, DocKind } from '../core/types.js';
import type { ScopeFilter } from '../ports/storage.js';
import { fetchSemantic, type SemanticCandidates, type SemanticRequest } from './semantic.js';
import { CALIBRATION_DEPTH, candidatePoolSize } from './pool.js';
import { headFirst, joinDeep, splitDeep } from './deep.js';
import { conversationSettings, expandCandidates, type ExpandRequest } from './expand.js';
import { graphRetrieve } from './graph.js';
import { withGraphCandidates } from './graph-support.js';
import { rerankCandidates } from './rerank.js';
import { gathersAcrossSessions, SESSION_CAP, spreadSessions } from './session-spread.js';
import { readScopes, type ReadScopes } from './scopes.js';
import { asOfFilter, atReadTime } from './time-travel.js';
import { layerOf } from '../core/layers.js';
import { kindBoost, routeQuery, type RoutePlan } from './router.js';
import { queryTimeWindow, type TimeWindow } from './time-window.js';
import { docScore, scoreCandidate, type ScoringConfig } from './score.js';
import type { Candidate, ReadDeps, RetrievalMode, SearchHit, SearchRequest } from './types.js';

export const MAX_SEARCH_K = 1000;

/** Scoring defaults (the same ones a context config gets when it says nothing). */
const DEFAULTS: ContextConfig = parseContextConfig({});

function validate(req: SearchRequest): void {
  const issues = [];
  if (!Number.isInteger(req.k) || req.k < 1 || req.k > MAX_SEARCH_K) issues.push({ path: 'k', message: `an integer from 1 to ${MAX_SEARCH_K}` });
  if (typeof req.query !== 'string' || req.query.trim() === '') issues.push({ path: 'query', message: 'a non-empty string' });
  if (!req.tenant) issues.push({ path: 'tenant', message: 'required' });
  if (issues.length > 0) throw new EngramError('VALIDATION', `invalid search: ${issues[0]!.path}: ${issues[0]!.message}`, { issues });
}

/** The query vector, or undefined in lexical mode; a vector-only search without one cannot run. */
export async function queryVector(deps: ReadDeps, query: string, mode: RetrievalMode): Promise<Float32Array | undefined> {
  if (mode === 'lexical') return undefined;
  const vector = await deps.embedQuery(query);
  if (!vector && mode === 'vector') {
    throw new EngramError('UNAVAILABLE', 'vector search needs a query embedding, and the embedder gave none', {
      details: { mode },
    });
  }
  return vector;
}

/** Semantic candidates scored and sorted by `final` (ties: lower docId first, for determinism). */
export function scoreSemantic(sem: SemanticCandidates, scoring: ScoringConfig, plan: RoutePlan, now: number): Candidate<Doc>[] {
  const out = sem.docs.map(
    (doc): Candidate<Doc> => ({
      doc,
      origin: 'semantic',
      ...(doc.kind === 'event' && sem.events?.has(doc.refId) ? { event: sem.events.get(doc.refId) } : {}),
      ...(doc.kind === 'fact' && sem.facts?.has(doc.refId) ? { fact: sem.facts.get(doc.refId) } : {}),
      scores: scoreCandidate(doc, sem.fused.get(doc.docId), scoring, now, {
        recencyFactor: plan.recencyFactor,
        boost: kindBoost(plan, doc.kind),
      }),
    }),
  );
  return out.sort((a, b) => b.scores.final - a.scores.final || (a.doc.docId ?? 0) - (b.doc.docId ?? 0));
}

/** Recomputes `final` after rerank changed relevance (same weights, route and time). */
export function rescorer(scoring: ScoringConfig, plan: RoutePlan, now: number) {
  return (c: Candidate, relevance: number): number =>
    docScore(c.doc, relevance, scoring, now, { recencyFactor: plan.recencyFactor, boost: kindBoost(plan, c.doc.kind) }).final;
}

/** The timeline expansion (expand.ts) of one query, scored with the same weights, route and time. */
export function expandRequest(
  query: string,
  req: { tenant: string; scope?: ScopeFilter | undefined; filter?: FilterNode | undefined; kinds?: readonly DocKind[] | undefined; timeWindow?: TimeWindow | null | undefined },
  scoring: ScoringConfig,
  plan: RoutePlan,
  now: number,
  conversation: ConversationConfig = DEFAULTS.semantic_retrieval.conversation,
): ExpandRequest {
  const rescore = rescorer(scoring, plan, now);
  return {
    settings: conversationSettings(conversation),
    tenant: req.tenant,
    query,
    scope: req.scope,
    filter: req.filter,
    kinds: req.kinds,
    timeWindow: req.timeWindow,
    now,
    rescore,
    scoreNew: (c, relevance) =>
      scoreCandidate(c.doc, { vector: null, lexical: null, relevance }, scoring, now, { recencyFactor: plan.recencyFactor, boost: kindBoost(plan, c.doc.kind) }),
  };
}

/** What one search reads once, before any store call: the time, the mode, the route and the settings of its steps. */
interface SearchPlan {
  now: number;
  mode: RetrievalMode;
  plan: RoutePlan;
  conversation: ConversationConfig;
  /** The time the query names (hybrid only): the candidates search it and the expansion weighs by it. */
  timeWindow: TimeWindow | null;
  scopes: ReadScopes;
  /** The caller's filter, bounded by `asOf` (time-travel.ts). */
  filter: FilterNode | undefined;
}

function planSearch(deps: ReadDeps, req: SearchRequest): SearchPlan {
  const now = deps.clock.now();
  const mode = req.mode ?? 'hybrid';
  return {
    now,
    mode,
    plan: routeQuery(req.query),
    conversation: req.conversation ?? DEFAULTS.semantic_retrieval.conversation,
    timeWindow: mode === 'hybrid' ? (queryTimeWindow(req.query, now) ?? null) : null,
    scopes: readScopes(req.scope, req.scopeMode),
    filter: asOfFilter(req.filter, req.asOf),
  };
}

/** The semantic request of a search: the pool its k fetches, in its mode, at its time. */
function semanticRequest(req: SearchRequest, s: SearchPlan, vector: Promise<Float32Array | undefined>): SemanticRequest {
  return {
    tenant: req.tenant,
    scope: s.scopes.semantic,
    query: req.query,
    vector,
    kinds: req.kinds,
    filter: s.filter,
    k: candidatePoolSize(req.k),
    mode: s.mode,
    now: s.now,
    questionDiscount: s.conversation.question_discount,
    concepts: DEFAULTS.semantic_retrieval.concepts,
    timeWindow: s.timeWindow ?? undefined,
  };
}

/** The semantic candidates scored, read at the asked time, the deep ones last, and reranked when asked. */
async function rankSemantic(deps: ReadDeps, req: SearchRequest, s: SearchPlan, sem: SemanticCandidates, deep: ReadonlySet<number>): Promise<Candidate[]> {
  const ranked: Candidate[] = headFirst(await atReadTime(deps.storage, req.tenant, scoreSemantic(sem, DEFAULTS.scoring, s.plan, s.now), { asOf: req.asOf, knownAt: req.knownAt }, s.now), deep);
  if (!req.rerank) return ranked;
  return rerankCandidates(deps.reranker, ranked, {
    query: req.query,
    // A fixed window, like the calibration (pool.ts): the reranked head and its blend do not grow with k.
    window: CALIBRATION_DEPTH,
    rescore: rescorer(DEFAULTS.scoring, s.plan, s.now),
  });
}

/**
 * Hybrid only (the single-signal modes return what that signal found, nothing else): the head's timeline expansion
 * (expand.ts), the memories supporting the relations the query asks about (graph-support.ts; a query naming no
 * stored entity is left as it is) and, for a question that gathers, the session spread (session-spread.ts).
 */
async function expandHybrid(
  deps: ReadDeps,
  req: SearchRequest,
  s: SearchPlan,
  sem: SemanticCandidates,
  head: Candidate[],
  graphHits: ReturnType<typeof graphRetrieve> | undefined,
): Promise<Candidate[]> {
  const { scopes, timeWindow } = s;
  const expansion = {
    ...expandRequest(req.query, { tenant: req.tenant, kinds: req.kinds, scope: scopes.semantic, filter: s.filter, timeWindow }, DEFAULTS.scoring, s.plan, s.now, s.conversation),
    conversational: sem.conversational,
    loaded: sem.loadedEvents,
  };
  // A question that gathers (session-spread.ts) takes no session neighbours: they fill the top from the seeds' sessions.
  const gathers = gathersAcrossSessions(req.query);
  if (gathers) expansion.settings = { ...expansion.settings, seeds: 0 };
  const expanded = await expandCandidates(deps.storage, expansion, head);
  const { tenant, query, filter, kinds, rescore, scoreNew } = expansion;
  const out = await withGraphCandidates(deps, { tenant, query, filter, kinds, rescore, scope: scopes.semantic, timeWindow, validAt: req.asOf, scoreNew: (c, r) => scoreNew({ ...c, origin: 'semantic' }, r) }, expanded, graphHits);
  // ... and a session past SESSION_CAP events gives way to the others.
  return gathers && sem.conversational !== false ? spreadSessions(out, SESSION_CAP) : out;
}

export async function search(deps: ReadDeps, req: SearchRequest): Promise<SearchHit[]> {
  validate(req);
  const s = planSearch(deps, req);
  // Awaited inside fetchSemantic, after the lexical search has been issued.
  const vector = queryVector(deps, req.query, s.mode);
  vector.catch(() => undefined); // awaited in fetchSemantic; keeps an earlier failure from orphaning it
  // The graph step's lookups read only the query: they run while the candidates load.
  const graphHits = s.mode === 'hybrid' ? graphRetrieve(deps.storage, { tenant: req.tenant, scope: s.scopes.semantic, query: req.query, timeWindow: s.timeWindow, validAt: req.asOf }) : undefined;
  graphHits?.catch(() => undefined); // awaited by the graph step
  const sem = await fetchSemantic(deps.storage, semanticRequest(req, s, vector));
  // What only the deeper pool of a larger k found ranks after the rest (CALIBRATION_DEPTH), here and after the steps below.
  const deep = sem.deep ?? new Set<number>();
  const ranked = await rankSemantic(deps, req, s, sem, deep);
  // The steps below read the head only: what the deeper pool adds joins after them, untouched.
  const { head, tail } = splitDeep(ranked, deep);
  const out = s.mode === 'hybrid' ? await expandHybrid(deps, req, s, sem, head, graphHits) : head;
  // Joined as getContext joins them, without its relevance floor (deep.ts).
  return [...out, ...joinDeep(tail, out)].slice(0, req.k).map((c) => ({ doc: c.doc, score: c.scores.final, scores: c.scores, layer: layerOf(c.doc, s.scopes.identity) }));
}
