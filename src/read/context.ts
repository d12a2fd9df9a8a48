/**
 * buildContext(): the read path end to end (seed 000's hybrid recipe with seed 002's scoring).
 *
 *   query → route → candidates (episodic window + lexical/vector + graph hops) → fuse → score (outcome-aware)
 *   → relevance floor → rerank (floor.ts: a weak query keeps its few best, marked, and nothing joins) → time window,
 *   conversation steps, session neighbours + author field (expand.ts) → session spread for a gathering question (as
 *   search does) → dedupe → MMR → counter-example → conflict notes → causal chains → sections + token budget
 *   → render (JSON items + prompt text) → retrieval record
 *
 * Issue B: closed episodes are candidates like any memory and come back with their outcome, root cause,
 * corrections and links (`item.episode`); facts with confidence and evidence counts (`item.fact`). See
 * outcome.ts for how outcome and confidence score, hops.ts for graph hops, counter.ts for the reserved
 * counter-example, causal.ts for the `## Causal chain` section.
 *
 * Dedupe runs before MMR (the design lists it after) so that a semantic hit which is already in the window
 * merges into it instead of taking one of the top_k semantic slots.
 */
import type { ContextConfig } from '../core/config.js';
import { parseFilter, type FilterNode } from '../core/filter.js';
import { newId } from '../core/ids.js';
import { fitBudget, type BudgetResult } from './budget.js';
import { attachRecords, episodicCutoff, fetchSemantic, fetchWindow, windowCandidates, type SemanticCandidates } from './candidates.js';
import { CALIBRATION_DEPTH, candidatePoolSize, CONTEXT_HEAD_TOP_K, CONTEXT_POOL_FLOOR, headFirst, splitDeep } from './pool.js';
import { chainsFor } from './causal.js';
import { detectConflicts, judgeConflicts, resolveConflicts, type ResolveResult } from './conflicts.js';
import { pickCounterExample } from './counter.js';
import { dedupe } from './dedupe.js';
import { hopCandidates } from './hops.js';
import { graphRetrieve, type GraphHit } from './graph.js';
import { entitiesSection, hitView } from './graph-render.js';
import { liftingHits, withGraphSupport } from './graph-support.js';
import { mmrSelect, type NearDuplicate } from './mmr.js';
import { excerpt } from './excerpt.js';
import { DropLog, retrievedItems } from './explain.js';
import { itemBody, renderItems } from './render.js';
import { rerankCandidates } from './rerank.js';
import { kindBoost, routeQuery, type RoutePlan } from './router.js';
import { scoreCandidate } from './score.js';
import { judgeCases, overturnedNotes, supersededNotes } from './case-steps.js';
import { gathersAcrossSessions, pastSessionCap, SESSION_CAP } from './session-spread.js';
import { queryTimeWindow, type TimeWindow } from './time-window.js';
import { expandRequest, rescorer, scoreSemantic } from './search.js';
import { expandCandidates } from './expand.js';
import { asOfFilter, atReadTime } from './time-travel.js';
import { mergeScope, readScopes, type ReadScopes } from './scopes.js';
import { layerOf } from '../core/layers.js';
import { aboveFloor, coverage, judgeFloor, queryStems } from './floor.js';
import { situationVectors } from './situation-vector.js';
import { assignSections, bySectionPlace, COUNTER_EXAMPLE_SECTION, resolveSections } from './sections.js';
import type { CausalChain, Candidate, ContextRequest, ContextResult, ReadDeps } from './types.js';

/** Causal chains are told through at most this many of the best retrieved episodes. */
export const MAX_CHAIN_SEEDS = 3;

/** A fresh one per request: later steps add vectors to it. */
const emptySemantic = (): SemanticCandidates => ({ docs: [], fused: new Map(), vectors: new Map(), vectorPool: [] });

const byFinal = (a: Candidate, b: Candidate) => b.scores.final - a.scores.final;

/** Everything derived once from the request: the steps below read it, none changes it. */
interface Plan {
  tenant: string;
  query: string;
  now: number;
  route: RoutePlan;
  /** The time the query names (null: none), read once for the candidates and the expansion. */
  timeWindow: TimeWindow | null;
  /** The window's and semantic retrieval's scopes, and who is asking (scopes.ts). */
  scopes: ReadScopes;
  config: ContextConfig;
  pool: number;
  /** With `explain: true`: what was considered but left out, and why (explain.ts). */
  drops?: DropLog | undefined;
  /** A question that gathers across sessions (session-spread.ts), as hybrid search reads it. */
  gathers: boolean;
}

function plan(deps: ReadDeps, req: ContextRequest): Plan {
  const query = (req.query || req.config.query || '').trim();
  const now = deps.clock.now();
  return {
    tenant: req.tenant,
    query,
    now,
    route: routeQuery(query),
    timeWindow: queryTimeWindow(query, now) ?? null,
    scopes: readScopes(mergeScope(req.scope, req.config.scope), req.config.scope_mode),
    config: req.config,
    pool: candidatePoolSize(req.config.semantic_retrieval.top_k, req.config.semantic_retrieval.candidates, CONTEXT_POOL_FLOOR),
    drops: req.config.explain ? new DropLog(req.config.guardrails.pii_scrub_at_ingest ? deps.scrubText : undefined) : undefined,
    gathers: gathersAcrossSessions(query),
  };
}

/** Window and semantic candidates, scored; semantic ones past the episodic TTL dropped, then reranked. */
async function gather(deps: ReadDeps, p: Plan): Promise<{ window: Candidate[]; semantic: Candidate[]; sem: SemanticCandidates; graph: GraphHit[] }> {
  const { config, now } = p;
  // Parsed before any I/O so a bad filter fails fast, naming its path.
  const windowFilter = parseFilter(config.episodic_window.filters, 'episodic_window.filters');
  const semanticFilter = parseFilter(config.semantic_retrieval.filters, 'semantic_retrieval.filters');
  // Not awaited yet: the window and the lexical search run while the query is embedded (off-thread).
  const vectorP = p.query ? deps.embedQuery(p.query) : Promise.resolve(undefined);
  vectorP.catch(() => undefined); // awaited below; this only keeps an early failure elsewhere from orphaning it
  const [events, sem] = await Promise.all([
    fetchWindow(deps.storage, {
      tenant: p.tenant,
      scope: p.scopes.window,
      window: config.episodic_window,
      windowFilter,
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
          filter: asOfFilter(semanticFilter, config.as_of),
          k: p.pool,
          mode: 'hybrid',
          now,
          questionDiscount: config.semantic_retrieval.conversation.question_discount,
          concepts: config.semantic_retrieval.concepts,
          timeWindow: p.timeWindow ?? undefined,
        })
      : Promise.resolve(emptySemantic()),
  ]);
  const cutoff = episodicCutoff(config.guardrails.episodic_ttl_days, now);
  const queryVector = await vectorP;
  const { candidates: window, cosines: windowCosines } = await windowCandidates(deps, events, queryVector, sem, config, p.route, now);
  // Facts as they held at the read's time (time-travel.ts), then the floor (floor.ts) before anything builds on a
  // candidate: neighbours and hops only join relevant seeds.
  // As in search: what only a pool deeper than CALIBRATION_DEPTH found (top_k over CONTEXT_HEAD_TOP_K) ranks after the rest.
  const ended: Candidate[] = [];
  const current = headFirst(
    await atReadTime(
      deps.storage,
      p.tenant,
      scoreSemantic(sem, config.scoring, p.route, now).filter((c) => !(cutoff !== undefined && c.doc.kind === 'event' && c.doc.ts < cutoff)),
      { asOf: config.as_of, knownAt: config.known_at },
      now,
      ended,
    ),
    sem.deep ?? new Set<number>(),
  );
  p.drops?.step('validity', ended, []);
  // The floor, the reranker and every step after them read the head; what only the deeper pool of a top_k over
  // CONTEXT_HEAD_TOP_K found joins after them, untouched (as in search), for the slots the head leaves (select).
  const { head, tail } = splitDeep(current, sem.deep ?? new Set<number>());
  const kept = await floored(deps, p, sem, head, window, windowCosines, queryVector);
  // A query the floor is unsure of keeps its few best memories, marked weak; nothing joins through them (floor.ts).
  if (kept.weak) return { window, semantic: kept.semantic, sem, graph: [] };
  const grown = await grow(deps, p, sem, kept.semantic, asOfFilter(semanticFilter, config.as_of), cutoff);
  return { window, sem, graph: grown.graph, semantic: [...grown.semantic, ...deepJoin(p, sem, tail, grown.semantic, queryVector)] };
}

/** The deep candidates that pass the floor's item test and are not candidates already, marked `deep`. */
function deepJoin(p: Plan, sem: SemanticCandidates, tail: readonly Candidate[], semantic: readonly Candidate[], queryVector: Float32Array | undefined): Candidate[] {
  if (tail.length === 0 || semantic.length === 0) return [];
  const floor = p.config.semantic_retrieval.relevance_floor;
  const q = { stems: queryStems(p.query), vector: queryVector };
  const present = new Set(semantic.map((c) => c.doc.refId));
  const out = tail.filter((c) => !present.has(c.doc.refId) && (!floor.enabled || aboveFloor(floor, q, c.doc.text, sem.vectors.get(c.doc.contentHash))));
  p.drops?.step('floor', tail, DropLog.ids(out));
  return out.map((c) => ({ ...c, deep: true }));
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
  const unseen = [...new Set(out.filter((c) => !sem.vectors.has(c.doc.contentHash)).map((c) => c.doc.contentHash))];
  if (unseen.length > 0) for (const [hash, v] of await deps.storage.getEmbeddings(unseen)) sem.vectors.set(hash, v);
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
  const out = (await expandCandidates(deps.storage, req, semantic)).filter((c) => !(cutoff !== undefined && c.doc.kind === 'event' && c.doc.ts < cutoff));
  const unseen = [...new Set(out.filter((c) => !sem.vectors.has(c.doc.contentHash)).map((c) => c.doc.contentHash))];
  if (unseen.length > 0) for (const [hash, v] of await deps.storage.getEmbeddings(unseen)) sem.vectors.set(hash, v);
  return out;
}

function nearDuplicate(config: ContextConfig): NearDuplicate | undefined {
  const d = config.diversity.near_duplicate;
  return d.enabled ? { cosine: d.cosine, jaccard: d.jaccard, textOnly: d.text_only } : undefined;
}

/**
 * Dedupe (window copies win), then MMR picks top_k diverse semantic items, then the counter-example (from the
 * whole pool; it may be one of the picks) takes its own slot; records attached.
 */
async function select(deps: ReadDeps, p: Plan, g: Pick<Awaited<ReturnType<typeof gather>>, 'window' | 'semantic' | 'sem'>): Promise<Candidate[]> {
  const policy = p.config.merge_policy.dedupe;
  const { items: near } = dedupe([...g.window, ...g.semantic.filter((c) => c.deep !== true)], policy);
  // A deep candidate that copies one of these is left out, not merged: its scores would change the copy a smaller top_k shows.
  const unique = [...near, ...dedupe([...near, ...g.semantic.filter((c) => c.deep === true)], policy).items.slice(near.length)];
  const semanticPool = unique.filter((c) => c.origin === 'semantic');
  p.drops?.selecting([...g.window, ...g.semantic], unique, semanticPool);
  const pick = (pool: readonly Candidate[], k: number) =>
    mmrSelect(
      pool.map((c) => ({ key: c.doc.refId, score: c.scores.final, text: c.doc.text, vector: g.sem.vectors.get(c.doc.contentHash), c })),
      k,
      p.config.diversity.mmr_lambda,
      nearDuplicate(p.config),
    ).map((m) => m.c);
  // Events the session spread moved behind only take the slots the others leave, and the deep candidates (found
  // only past the calibration head) the slots both leave.
  const topK = p.config.semantic_retrieval.top_k;
  const tiers = [
    semanticPool.filter((c) => c.behind !== true && c.deep !== true),
    semanticPool.filter((c) => c.behind === true && c.deep !== true),
    semanticPool.filter((c) => c.deep === true),
  ];
  const diverse: Candidate[] = [];
  for (const tier of tiers) if (tier.length > 0 && diverse.length < topK) diverse.push(...pick(tier, topK - diverse.length));
  const order = new Map(diverse.map((c, i) => [c, i]));
  const counter = pickCounterExample(diverse, semanticPool);
  const picked = (counter ? [...diverse.filter((c) => c !== counter), { ...counter, role: 'counter_example' as const }] : diverse).map((c) =>
    order.has(c) ? { ...c, pick: order.get(c)! } : c,
  );
  const chosen = [...unique.filter((c) => c.origin === 'window'), ...picked].map((c) => ({ ...c, layer: layerOf(c.doc, p.scopes.identity), layerShown: Object.keys(p.scopes.identity).length > 0 }));
  return attachRecords(deps, p.tenant, chosen);
}

/**
 * Sections in priority order, each filled by score, under the token budget (PII scrubbed first if asked); the
 * counter-example is reserved first, causal-chain lines come last.
 */
function fit(deps: ReadDeps, p: Plan, resolved: ResolveResult, extras: { counterId?: string | undefined; chains: readonly CausalChain[] }): BudgetResult {
  const { config } = p;
  const { specs } = resolveSections(config.merge_policy.priority, { taskId: config.task_id });
  if (extras.counterId) specs.push(COUNTER_EXAMPLE_SECTION);
  const groups = assignSections(resolved.items, specs);
  const scrub = config.guardrails.pii_scrub_at_ingest ? deps.scrubText : undefined;
  // A long memory renders as the sentences the query is about, with a pointer to the whole (excerpt.ts).
  const shown = (c: Candidate) => (c.doc.kind === 'episode' ? itemBody(c) : excerpt(itemBody(c), p.query, c.doc.refId, deps.tokens));
  return fitBudget({
    sections: specs.map((spec) => ({ spec, items: [...groups.get(spec.name)!].sort(bySectionPlace) })),
    notes: scrub ? resolved.notes.map((n) => ({ ...n, note: scrub(n.note) })) : resolved.notes,
    body: scrub ? (c) => scrub(shown(c)) : shown,
    budget: config.merge_policy.token_budget,
    tokens: deps.tokens,
    render: { provenanceInline: config.guardrails.provenance_inline, scrub },
    reserved: new Set(extras.counterId ? [extras.counterId] : []),
    chains: extras.chains.map((c) => ({ text: scrub ? scrub(c.narrative) : c.narrative, episodeIds: c.episodeIds })),
  });
}

export async function buildContext(deps: ReadDeps, req: ContextRequest): Promise<ContextResult> {
  const p = plan(deps, req);
  const gathered = await gather(deps, p);
  const chosen = await select(deps, p, gathered);

  const counterId = chosen.find((c) => c.role === 'counter_example')?.doc.refId;
  const chainSeeds = chosen.filter((c) => c.doc.kind === 'episode').sort(byFinal).slice(0, MAX_CHAIN_SEEDS).map((c) => c.doc.refId);
  const chains = chainSeeds.length ? await chainsFor(deps.storage, p.tenant, chainSeeds) : [];

  const detected = detectConflicts(chosen, { policy: deps.factPolicy });
  const verdicts = await judgeConflicts(deps.conflictJudge, p.query, chosen, detected);
  // The Entities section (graph-render.ts) takes its share of the budget first; the sections fill the rest.
  const scrub = p.config.guardrails.pii_scrub_at_ingest ? deps.scrubText : undefined;
  // Only the relations the query asked for: the rest would take budget from the memories.
  const entities = entitiesSection(gathered.graph.filter((h) => h.strong), { budget: p.config.merge_policy.token_budget, tokens: deps.tokens, provenanceInline: p.config.guardrails.provenance_inline, scrub });
  const rest = entities.text ? { ...p, config: { ...p.config, merge_policy: { ...p.config.merge_policy, token_budget: p.config.merge_policy.token_budget - entities.tokens } } } : p;
  const resolved = resolveConflicts(chosen, detected, p.config.conflict_resolution, verdicts);
  const fitted = fit(deps, rest, { ...resolved, notes: [...resolved.notes, ...supersededNotes(resolved.items), ...overturnedNotes(resolved.items)] }, { counterId, chains });
  const budget = entities.text ? { ...fitted, text: fitted.text ? `${entities.text}\n\n${fitted.text}` : entities.text } : fitted;
  if (entities.text) budget.used = deps.tokens.count(budget.text);
  const items = renderItems(budget.sections, p.config.guardrails.pii_scrub_at_ingest ? deps.scrubText : undefined);
  // explain.ts: the stale sides of conflicts, then what did not fit (resolving again is pure, and only when asked).
  p.drops?.settle(chosen, resolveConflicts(chosen, detected, p.config.conflict_resolution, verdicts).items, items);

  // The record closes the loop later: feedback on this retrieval reinforces exactly these items. Like every
  // stored string it is scrubbed (write/pii-policy.ts): the query and the config (filters, task id) may hold PII.
  const retrievalId = newId('retrieval', p.now);
  await deps.storage.putRetrieval({
    id: retrievalId,
    tenant: p.tenant,
    query: deps.scrubText ? deps.scrubText(p.query) : p.query,
    createdAt: p.now,
    itemIds: items.map((i) => i.id),
    config: deps.scrubJson ? deps.scrubJson(p.config) : p.config,
    items: retrievedItems(items),
  });

  return {
    retrievalId,
    query: p.query,
    route: p.route.route,
    items,
    conflicts: budget.notes,
    // In text order (items are), which for the window is chronological.
    sections: budget.sections.map((s) => ({ name: s.spec.name, itemIds: items.filter((i) => i.section === s.spec.name).map((i) => i.id) })),
    tokens: { used: budget.used, budget: p.config.merge_policy.token_budget },
    dropped: budget.dropped,
    text: budget.text,
    causalChains: budget.chains.map((i) => chains[i]!),
    ...(entities.shown.length > 0 ? { entities: entities.shown.map(hitView) } : {}),
    ...(counterId && items.some((i) => i.id === counterId) ? { counterExampleId: counterId } : {}),
    ...(p.drops ? { droppedItems: p.drops.list() } : {}),
  };
}
