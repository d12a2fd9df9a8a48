/**
 * getContext's candidates (context.ts): the recent window and the semantic read, scored; those past the episodic TTL
 * or not valid at the read's time left out; the relevance floor and the reranker over the head; what joins through
 * it (session neighbours, hops, the knowledge graph's supporting memories) and the situation and case steps; then
 * the deep candidates after it (deep.ts).
 */
import type { ContextConfig } from '../core/config.js';
import { parseFilter, type FilterNode } from '../core/filter.js';
import { episodicCutoff, fetchWindow, windowCandidates } from './candidates.js';
import { fetchSemantic, type SemanticCandidates } from './semantic.js';
import { CALIBRATION_DEPTH, CONTEXT_HEAD_TOP_K } from './pool.js';
import { joinDeep, splitDeep } from './deep.js';
import { hopCandidates } from './hops.js';
import { graphRetrieve, type GraphHit } from './graph.js';
import { liftingHits, withGraphSupport } from './graph-support.js';
import { DropLog } from './explain.js';
import { rerankCandidates } from './rerank.js';
import { kindBoost } from './router.js';
import { scoreCandidate } from './score.js';
import { judgeCases } from './case-steps.js';
import { pastSessionCap, SESSION_CAP } from './session-spread.js';
import { expandRequest, rescorer, scoreSemantic } from './search.js';
import { expandCandidates } from './expand.js';
import { asOfFilter, atReadTime } from './time-travel.js';
import { coverage, judgeFloor, queryStems } from './floor.js';
import { situationVectors } from './situation-vector.js';
import { byFinal, type Plan } from './context-plan.js';
import type { Candidate, ReadDeps } from './types.js';
import type { MemoryEvent } from '../core/types.js';

/** A fresh one per request: later steps add vectors to it. */
const emptySemantic = (): SemanticCandidates => ({ docs: [], fused: new Map(), vectors: new Map(), vectorPool: [] });

/** What gather hands on: the window and semantic candidates, the semantic read (its vectors), the graph's relations. */
export interface Gathered {
  window: Candidate[];
  semantic: Candidate[];
  sem: SemanticCandidates;
  graph: GraphHit[];
}

/**
 * Window and semantic candidates, scored; semantic ones past the episodic TTL or not valid at the read's time
 * dropped; the floor and the reranker over the head, what joins through it, then the deep candidates after it.
 */
export async function gather(deps: ReadDeps, p: Plan): Promise<Gathered> {
  // Parsed before any I/O so a bad filter fails fast, naming its path.
  const filters = readFilters(p.config);
  const { events, sem, queryVector } = await fetchAll(deps, p, filters);
  const cutoff = episodicCutoff(p.config.guardrails.episodic_ttl_days, p.now);
  const { candidates: window, cosines: windowCosines } = await windowCandidates(deps, events, queryVector, sem, p.config, p.route, p.now);
  // The floor, the reranker and every step after them read the head; what only the deeper pool of a top_k over
  // CONTEXT_HEAD_TOP_K found joins after them, untouched (as in search), for the slots the head leaves (select).
  const { head, tail } = splitDeep(await currentSemantic(deps, p, sem, cutoff), sem.deep ?? new Set<number>());
  const kept = await floored(deps, p, sem, head, window, windowCosines, queryVector);
  // A query the floor is unsure of keeps its few best memories, marked weak; nothing joins through them (floor.ts).
  if (kept.weak) return { window, semantic: kept.semantic, sem, graph: [] };
  const grown = await grow(deps, p, sem, kept.semantic, filters.semantic, cutoff);
  const deep = joinDeep(tail, grown.semantic, { floor: p.config.semantic_retrieval.relevance_floor, query: p.query, queryVector, vectors: sem.vectors, drops: p.drops });
  return { window, sem, graph: grown.graph, semantic: [...grown.semantic, ...deep] };
}

/** The window's filter, and semantic retrieval's as of the read's time. */
function readFilters(config: ContextConfig): { window: FilterNode | undefined; semantic: FilterNode | undefined } {
  const window = parseFilter(config.episodic_window.filters, 'episodic_window.filters');
  const semantic = parseFilter(config.semantic_retrieval.filters, 'semantic_retrieval.filters');
  return { window, semantic: asOfFilter(semantic, config.as_of) };
}

/** The recent window's events and the semantic read, side by side, while the query is embedded (off-thread). */
async function fetchAll(deps: ReadDeps, p: Plan, filters: ReturnType<typeof readFilters>): Promise<{ events: MemoryEvent[]; sem: SemanticCandidates; queryVector: Float32Array | undefined }> {
  const { config, now } = p;
  // Not awaited yet: the window and the lexical search run while the query is embedded.
  const vectorP = p.query ? deps.embedQuery(p.query) : Promise.resolve(undefined);
  vectorP.catch(() => undefined); // awaited below; this only keeps an early failure elsewhere from orphaning it
  const [events, sem] = await Promise.all([
    fetchWindow(deps.storage, {
      tenant: p.tenant,
      scope: p.scopes.window,
      window: config.episodic_window,
      windowFilter: filters.window,
      taskId: config.task_id,
      ttlDays: config.guardrails.episodic_ttl_days,
      now,
      asOf: config.as_of,
      knownAt: config.known_at,
    }),
    p.query
      ? fetchSemantic(deps.storage, {
          tenant: p.tenant,
          scope: p.scopes.semantic,
          query: p.query,
          vector: vectorP,
          kinds: config.semantic_retrieval.kinds,
          filter: filters.semantic,
          k: p.pool,
          mode: 'hybrid',
          now,
          questionDiscount: config.semantic_retrieval.conversation.question_discount,
          concepts: config.semantic_retrieval.concepts,
          timeWindow: p.timeWindow ?? undefined,
        })
      : Promise.resolve(emptySemantic()),
  ]);
  return { events, sem, queryVector: await vectorP };
}

/**
 * The semantic candidates scored, those past the episodic TTL dropped, and facts as they held at the read's time
 * (time-travel.ts; the others are dropped by `validity`), before the floor (floor.ts) and anything that builds on a
 * candidate: neighbours and hops only join relevant seeds.
 */
async function currentSemantic(deps: ReadDeps, p: Plan, sem: SemanticCandidates, cutoff: number | undefined): Promise<Candidate[]> {
  const { config, now } = p;
  const scored = scoreSemantic(sem, config.scoring, p.route, now).filter(withinTtl(cutoff));
  const ended: Candidate[] = [];
  const current = await atReadTime(deps.storage, p.tenant, scored, { asOf: config.as_of, knownAt: config.known_at }, now, ended);
  p.drops?.step('validity', ended, []);
  return current;
}

/**
 * The relevance floor (floor.ts) over the scored candidates, then the reranker. A weak verdict keeps the
 * `weak_items` best, each marked weak.
 */
async function floored(
  deps: ReadDeps,
  p: Plan,
  sem: SemanticCandidates,
  current: Candidate[],
  window: readonly Candidate[],
  windowCosines: ReadonlyMap<string, number>,
  queryVector: Float32Array | undefined,
): Promise<{ semantic: Candidate[]; weak: boolean }> {
  const { config, now } = p;
  const floorInput = { stems: queryStems(p.query), vector: queryVector };
  const floor = config.semantic_retrieval.relevance_floor;
  const also = window.map((c) => ({ cosine: windowCosines.get(c.doc.refId) ?? null, coverage: coverage(floorInput.stems, c.doc.text) }));
  let judged = judgeFloor(floor, floorInput, current, (c) => ({ text: c.doc.text, vector: sem.vectors.get(c.doc.contentHash) }), also);
  // Short of strong, a closed case is judged by its opening report too (situation-vector.ts).
  if (judged.verdict !== 'strong' && queryVector) {
    const situations = await situationVectors(deps, p.tenant, current);
    if (situations.size > 0) {
      judged = judgeFloor(floor, floorInput, current, (c) => ({ text: c.doc.text, vector: sem.vectors.get(c.doc.contentHash), situation: situations.get(c.doc.refId) }), also);
    }
  }
  let semantic: Candidate[] = judged.items;
  const reranker = config.semantic_retrieval.reranker;
  if (reranker.enabled && semantic.length > 0) {
    semantic = await rerankCandidates(deps.reranker, semantic, {
      query: p.query,
      // A fixed window, as in search: past CONTEXT_HEAD_TOP_K the pool grows with top_k and the window does not.
      window: Math.min(p.pool, CALIBRATION_DEPTH),
      model: reranker.model,
      rescore: rescorer(config.scoring, p.route, now),
    });
  }
  const weak = judged.verdict === 'weak';
  if (weak) semantic = semantic.slice(0, floor.weak_items).map((c) => ({ ...c, scores: { ...c.scores, weak: true } }));
  p.drops?.step('floor', current, DropLog.ids(semantic));
  return { semantic, weak };
}

/**
 * What joins the seeds the floor kept, and the steps that judge them all: session neighbours, hops, the knowledge
 * graph's supporting memories, then the situation and case steps and the session spread.
 */
async function grow(
  deps: ReadDeps,
  p: Plan,
  sem: SemanticCandidates,
  seeds: Candidate[],
  filter: FilterNode | undefined,
  cutoff: number | undefined,
): Promise<{ semantic: Candidate[]; graph: GraphHit[] }> {
  const { config, now } = p;
  let semantic = seeds;
  if (p.query && semantic.length > 0) semantic = await expand(deps, p, filter, sem, semantic, cutoff);
  const hops = await hopCandidates(
    deps,
    { tenant: p.tenant, scope: p.scopes.semantic, filter, kinds: config.semantic_retrieval.kinds, seeds: Math.min(config.semantic_retrieval.top_k, CONTEXT_HEAD_TOP_K), scoring: config.scoring, route: p.route, now },
    semantic,
  );
  if (hops.candidates.length > 0) {
    for (const [hash, v] of hops.vectors) sem.vectors.set(hash, v);
    semantic = [...semantic, ...hops.candidates].sort(byFinal);
  }
  // Knowledge graph: relations around the entities the query names; their supporting memories join (graph-support.ts).
  const graph = p.query ? await graphRetrieve(deps.storage, { tenant: p.tenant, scope: p.scopes.semantic, query: p.query, timeWindow: p.timeWindow, validAt: config.as_of }) : [];
  // Relations read in the direction the query says lift their statements, and a relation matched by type alone only
  // when it is the one of its type (graph-support.ts liftingHits): among several, lifting them took the slots of memories
  // search ranked higher. All strong relations still show in the Entities section.
  const lifting = liftingHits(graph);
  if (lifting.length > 0) semantic = await graphSupport(deps, p, filter, sem, semantic, lifting, cutoff);
  // Last, so that episodes joining through hops and the graph are judged too: their situation against the query's,
  // then the cases (superseded ones out, one that stands out, recurring causes counted, corrections first): case-steps.ts.
  semantic = await judgeCases(deps, { tenant: p.tenant, query: p.query, rescore: rescorer(config.scoring, p.route, now), drops: p.drops }, semantic);
  // As hybrid search does, a gathering question in a conversation: a session past its first few events gives way.
  if (p.gathers && sem.conversational !== false) {
    const behind = pastSessionCap([...semantic].sort(byFinal), SESSION_CAP);
    if (behind.size > 0) semantic = semantic.map((c) => (behind.has(c) ? { ...c, behind: true } : c));
  }
  return { semantic, graph };
}

/** The memories supporting the graph's strongest relations join the candidates; MMR gets their vectors. */
async function graphSupport(deps: ReadDeps, p: Plan, filter: FilterNode | undefined, sem: SemanticCandidates, semantic: Candidate[], graph: readonly GraphHit[], cutoff: number | undefined): Promise<Candidate[]> {
  const rescore = rescorer(p.config.scoring, p.route, p.now);
  const out = await withGraphSupport(
    deps,
    {
      tenant: p.tenant,
      scope: p.scopes.semantic,
      filter,
      kinds: p.config.semantic_retrieval.kinds,
      cutoff,
      rescore,
      scoreNew: (c, relevance) => scoreCandidate(c.doc, { vector: null, lexical: null, relevance }, p.config.scoring, p.now, { recencyFactor: p.route.recencyFactor, boost: kindBoost(p.route, c.doc.kind) }),
    },
    semantic,
    graph,
  );
  await addVectors(deps, sem, out);
  return out;
}

/** Time window, conversation steps, session neighbours and author field (expand.ts); neighbours past the episodic TTL stay out, MMR gets their vectors. */
async function expand(deps: ReadDeps, p: Plan, filter: FilterNode | undefined, sem: SemanticCandidates, semantic: Candidate[], cutoff: number | undefined): Promise<Candidate[]> {
  const req = {
    ...expandRequest(p.query, { tenant: p.tenant, scope: p.scopes.semantic, filter, kinds: p.config.semantic_retrieval.kinds, timeWindow: p.timeWindow }, p.config.scoring, p.route, p.now, p.config.semantic_retrieval.conversation),
    conversational: sem.conversational,
  };
  // A question that gathers takes no session neighbours: they would fill the top from the seeds' sessions (search.ts).
  if (p.gathers) req.settings = { ...req.settings, seeds: 0 };
  const out = (await expandCandidates(deps.storage, req, semantic)).filter(withinTtl(cutoff));
  await addVectors(deps, sem, out);
  return out;
}

/** Keeps what the episodic TTL allows: an event at or after `cutoff` (when there is one), and every other kind. */
const withinTtl = (cutoff: number | undefined) => (c: Candidate) => !(cutoff !== undefined && c.doc.kind === 'event' && c.doc.ts < cutoff);

/** The vectors of the candidates `sem` has none for yet, for MMR. */
async function addVectors(deps: ReadDeps, sem: SemanticCandidates, cs: readonly Candidate[]): Promise<void> {
  const unseen = [...new Set(cs.filter((c) => !sem.vectors.has(c.doc.contentHash)).map((c) => c.doc.contentHash))];
  if (unseen.length > 0) for (const [hash, v] of await deps.storage.getEmbeddings(unseen)) sem.vectors.set(hash, v);
}
