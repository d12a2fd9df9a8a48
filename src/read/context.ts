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
 *
 * Here: selection, conflicts, chains, sections, budget, render and the record. What is read once from the request
 * is context-plan.ts; the candidates up to selection (window, semantic read, floor, reranker, what joins, the case
 * steps, the deep candidates) are gathered in gather.ts.
 */
import type { ContextConfig } from '../core/config.js';
import { newId } from '../core/ids.js';
import { fitBudget, type BudgetResult } from './budget.js';
import { attachRecords } from './records.js';
import { chainsFor } from './causal.js';
import { detectConflicts, judgeConflicts, resolveConflicts, type ResolveResult } from './conflicts.js';
import { pickCounterExample } from './counter.js';
import { dedupe } from './dedupe.js';
import { entitiesSection, hitView } from './graph-render.js';
import { mmrSelect, type NearDuplicate } from './mmr.js';
import { excerpt } from './excerpt.js';
import { retrievedItems } from './explain.js';
import { itemBody, renderItems } from './render.js';
import { overturnedNotes, supersededNotes } from './case-steps.js';
import { layerOf } from '../core/layers.js';
import { assignSections, bySectionPlace, COUNTER_EXAMPLE_SECTION, resolveSections } from './sections.js';
import { byFinal, plan, type Plan } from './context-plan.js';
import { gather, type Gathered } from './gather.js';
import type { CausalChain, Candidate, ContextRequest, ContextResult, ReadDeps } from './types.js';

/** Causal chains are told through at most this many of the best retrieved episodes. */
export const MAX_CHAIN_SEEDS = 3;

function nearDuplicate(config: ContextConfig): NearDuplicate | undefined {
  const d = config.diversity.near_duplicate;
  return d.enabled ? { cosine: d.cosine, jaccard: d.jaccard, textOnly: d.text_only } : undefined;
}

/**
 * Dedupe (window copies win), then MMR picks top_k diverse semantic items, then the counter-example (from the
 * whole pool; it may be one of the picks) takes its own slot; records attached.
 */
async function select(deps: ReadDeps, p: Plan, g: Pick<Gathered, 'window' | 'semantic' | 'sem'>): Promise<Candidate[]> {
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
