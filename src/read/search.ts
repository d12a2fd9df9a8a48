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
import { fetchSemantic, type SemanticCandidates } from './semantic.js';
import { CALIBRATION_DEPTH, candidatePoolSize } from './pool.js';
import { headFirst, joinDeep, splitDeep } from './deep.js';
import { conversationSettings, expandCandidates, type ExpandRequest } from './expand.js';
import { graphRetrieve } from './graph.js';
import { withGraphCandidates } from './graph-support.js';
import { rerankCandidates } from './rerank.js';
import { gathersAcrossSessions, SESSION_CAP, spreadSessions } from './session-spread.js';
import { readScopes } from './scopes.js';
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

export async function search(deps: ReadDeps, req: SearchRequest): Promise<SearchHit[]> {
  validate(req);
  const now = deps.clock.now();
  const mode = req.mode ?? 'hybrid';
  const plan = routeQuery(req.query);
  // Awaited inside fetchSemantic, after the lexical search has been issued.
  const vector = queryVector(deps, req.query, mode);
  vector.catch(() => undefined); // awaited in fetchSemantic; keeps an earlier failure from orphaning it
  const pool = candidatePoolSize(req.k);
  const conversation = req.conversation ?? DEFAULTS.semantic_retrieval.conversation;
  // Read once: the candidates search it (hybrid) and the expansion weighs by it.
  const timeWindow = mode === 'hybrid' ? (queryTimeWindow(req.query, now) ?? null) : null;
  const scopes = readScopes(req.scope, req.scopeMode);
  // The graph step's lookups read only the query: they run while the candidates load.
  const graphHits = mode === 'hybrid' ? graphRetrieve(deps.storage, { tenant: req.tenant, scope: scopes.semantic, query: req.query, timeWindow, validAt: req.asOf }) : undefined;
  graphHits?.catch(() => undefined); // awaited by the graph step below
  const sem = await fetchSemantic(deps.storage, {
    tenant: req.tenant,
    scope: scopes.semantic,
    query: req.query,
    vector,
    kinds: req.kinds,
    filter: asOfFilter(req.filter, req.asOf),
    k: pool,
    mode,
    now,
    questionDiscount: conversation.question_discount,
    concepts: DEFAULTS.semantic_retrieval.concepts,
    timeWindow: timeWindow ?? undefined,
  });
  // What only the deeper pool of a larger k found ranks after the rest (CALIBRATION_DEPTH), here and after the steps below.
  const deep = sem.deep ?? new Set<number>();
  let ranked: Candidate[] = headFirst(await atReadTime(deps.storage, req.tenant, scoreSemantic(sem, DEFAULTS.scoring, plan, now), { asOf: req.asOf, knownAt: req.knownAt }, now), deep);
  if (req.rerank) {
    ranked = await rerankCandidates(deps.reranker, ranked, {
      query: req.query,
      // A fixed window, like the calibration (pool.ts): the reranked head and its blend do not grow with k.
      window: CALIBRATION_DEPTH,
      rescore: rescorer(DEFAULTS.scoring, plan, now),
    });
  }
  // Hybrid only: the single-signal modes return what that signal found, nothing else.
  const expansion = { ...expandRequest(req.query, { ...req, scope: scopes.semantic, filter: asOfFilter(req.filter, req.asOf), timeWindow }, DEFAULTS.scoring, plan, now, conversation), conversational: sem.conversational, loaded: sem.loadedEvents };
  // A question that gathers (session-spread.ts) takes no session neighbours: they fill the top from the seeds' sessions.
  const gathers = gathersAcrossSessions(req.query);
  if (gathers) expansion.settings = { ...expansion.settings, seeds: 0 };
  // The steps below read the head only: what the deeper pool adds joins after them, untouched.
  const { head, tail: deepTail } = splitDeep(ranked, deep);
  ranked = head;
  let out = mode === 'hybrid' ? await expandCandidates(deps.storage, expansion, ranked) : ranked;
  // Knowledge graph (hybrid): the memories supporting the relations the query asks about join (graph-support.ts); a query
  // naming no stored entity is left as it is.
  if (mode === 'hybrid') {
    const { tenant, query, filter, kinds, rescore, scoreNew } = expansion;
    out = await withGraphCandidates(deps, { tenant, query, filter, kinds, rescore, scope: scopes.semantic, timeWindow, validAt: req.asOf, scoreNew: (c, r) => scoreNew({ ...c, origin: 'semantic' }, r) }, out, graphHits);
    // ... and a session past SESSION_CAP events gives way to the others.
    if (gathers && sem.conversational !== false) out = spreadSessions(out, SESSION_CAP);
  }
  // Joined as getContext joins them, without its relevance floor (deep.ts).
  out = [...out, ...joinDeep(deepTail, out)];
  return out.slice(0, req.k).map((c) => ({ doc: c.doc, score: c.scores.final, scores: c.scores, layer: layerOf(c.doc, scopes.identity) }));
}
