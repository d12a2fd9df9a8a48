/**
 * The reinforcement loop's core: an outcome episode meets the retrieval that informed it.
 *
 *  - LED_TO from exactly the retrieved episodes and facts to the outcome episode;
 *  - evidence on exactly the retrieved facts (their lineage's live version is updated, or revised below the
 *    threshold) and, where the evidence contradicts, a link `episode CONTRADICTED fact`;
 *  - with a correction, LEARNED_FROM from the outcome episode to the retrieved episodes whose lesson the
 *    correction revises (their root cause is what it says was mistaken; all retrieved episodes when it names
 *    no mistaken belief or none of them matches).
 *
 * How a fact is judged (`judgeFact`): when a root cause or a correction is known, the fact's claim is compared
 * with it first — a claim that names what it actually was is supported (1) even though the decision failed;
 * one that names what the correction calls mistaken is contradicted (1); one that shares nothing with the
 * established cause did not apply to a situation it was retrieved for, and is contradicted at half strength.
 * Otherwise the outcome decides: SUCCESS supports (1), FAILURE contradicts (1), PARTIAL supports at half
 * strength, UNKNOWN says nothing. The claim is the clause after its action verb ("… check <claim>"), minus a
 * "not …" tail, which counts the other way round (overlap coefficient of specific terms, ≥ 0.5 to count). Weights fall with retrieval rank (0.9^i among the retrieved facts): the
 * first-ranked fact bore most on the decision.
 */
import { idKind } from '../../core/ids.js';
import { relevanceFloorSchema } from '../../core/config.js';
import type { Episode, Fact, Link, Outcome } from '../../core/types.js';
import { aboveFloor, queryStems, type RelevanceFloor } from '../../read/floor.js';
import { sameCause } from '../../read/recurrence.js';
import type { RetrievalRecord } from '../../ports/storage.js';
import { mistakenStems, parseCorrection, revisesLesson } from '../cues.js';
import { intersectionSize, overlapCoefficient } from '../text.js';
import type { EngineContext } from './context.js';
import { loadCauseVectors } from './cause-vectors.js';
import { addEvidence, type FactUpdate } from './facts.js';
import { makeLink, specificStems } from './links.js';

export interface ReinforceOptions {
  correction?: string | undefined;
  rootCause?: string | undefined;
  /**
   * The retrieved items the caller actually used. When given, only these are credited or blamed (and linked
   * LED_TO); otherwise every retrieved item that passes the relevance floor against the retrieval's query.
   */
  usedItemIds?: readonly string[] | undefined;
}

export interface FactJudgement {
  polarity: 'support' | 'contradict';
  /** 0..1 before the rank discount. */
  strength: number;
  reason: string;
}

export type FactReinforcement = FactUpdate & { polarity: 'support' | 'contradict'; weight: number; reason: string };

export interface ReinforceReport {
  retrievalId: string;
  episodeId: string;
  outcome: Outcome;
  retrievedEpisodeIds: string[];
  retrievedFactIds: string[];
  /**
   * Retrieved facts left untouched: not named in `usedItemIds`, or (without it) below the relevance floor for the
   * retrieval's query — bystanders never change confidence.
   */
  bystanderFactIds: string[];
  /** Every link asserted (LED_TO, LEARNED_FROM, CONTRADICTED), as stored. */
  links: Link[];
  facts: FactReinforcement[];
}

const RANK_DECAY = 0.9;
const MIN_WEIGHT = 0.1;
const ACTION_RE = /\b(?:check|suspect|investigate|inspect|look at|verify|prefer|use|try|roll back|revert|restart|scale|increase|raise|reduce|lower)\b\s+(.+)$/i;
const NEGATED_TAIL_RE = /,?\s+(?:and\s+)?(?:not|rather than|instead of)\s+(.+)$/i;

/**
 * The claim of a fact, what it says it is not, and its condition (the words before its action verb: "When a report
 * mentions …"). The condition's words hold in every situation the fact is retrieved for, so they say nothing about
 * which cause it was: they are left out of the claim (unless nothing else is left) and out of a cause compared with it.
 */
export function claimOf(text: string): { claim: Set<string>; negated: Set<string>; condition: Set<string> } {
  const body = text.split(' Revised:')[0]!.replace(/\([^()]*\)/g, ' ');
  const match = ACTION_RE.exec(body);
  const action = match?.[1] ?? body;
  const condition = match ? specificStems(body.slice(0, match.index)) : new Set<string>();
  const neg = NEGATED_TAIL_RE.exec(action);
  return { claim: beyond(specificStems(neg ? action.slice(0, neg.index) : action), condition), negated: beyond(specificStems(neg?.[1] ?? ''), condition), condition };
}

/** The stems of `a` not in `b`, or `a` itself when nothing is left. */
function beyond(a: ReadonlySet<string>, b: ReadonlySet<string>): Set<string> {
  const rest = new Set([...a].filter((s) => !b.has(s)));
  return rest.size > 0 ? rest : new Set(a);
}

/** The larger number of stems the claim shares with the actual cause, or its negated tail with the mistaken one. */
function sharedMost(claim: ReadonlySet<string>, actual: ReadonlySet<string>, negated: ReadonlySet<string>, mistaken: ReadonlySet<string>): number {
  return Math.max(intersectionSize(claim, actual), intersectionSize(negated, mistaken));
}

function without(a: ReadonlySet<string>, b: ReadonlySet<string>): Set<string> {
  return new Set([...a].filter((s) => !b.has(s)));
}

/**
 * `sameCause`: whether the episode's established cause is the cause the fact was learned from (its source episodes'
 * causes, by meaning — `factCauseVerdict`); undefined when unknown. It decides a success whose cause shares only
 * some of the claim's words: supported when it is the fact's cause, contradicted at half strength when it is another
 * one, no evidence when unknown — shared words alone never credit a fact with a success.
 */
export function judgeFact(text: string, outcome: Outcome, opts: ReinforceOptions & { sameCause?: boolean | undefined } = {}): FactJudgement | undefined {
  const parts = opts.correction ? parseCorrection(opts.correction) : {};
  const stated = specificStems([opts.rootCause ?? '', parts.actual ?? ''].join(' '));
  const wrong = opts.correction ? mistakenStems([opts.correction]) : new Set<string>();
  if (stated.size > 0 || wrong.size > 0) {
    const { claim, negated, condition } = claimOf(text);
    const actual = without(stated, condition);
    const mistaken = without(wrong, condition);
    const agree = Math.max(overlapCoefficient(claim, actual), overlapCoefficient(negated, mistaken));
    const disagree = Math.max(overlapCoefficient(claim, mistaken), overlapCoefficient(negated, actual));
    // One shared word is not enough when the causes differ in meaning (a word like "weekend" is in many causes).
    const byWords = agree >= 0.5 && agree > disagree && (opts.sameCause !== false || sharedMost(claim, actual, negated, mistaken) >= 2);
    if (byWords) return { polarity: 'support', strength: 1, reason: 'its claim names the actual cause' };
    if (disagree >= 0.5 && disagree > agree) return { polarity: 'contradict', strength: 1, reason: 'its claim names what the correction says was mistaken' };
    // It was retrieved for this situation and points elsewhere than the established cause: it did not apply.
    if (actual.size > 0 && claim.size > 0 && agree === 0) return { polarity: 'contradict', strength: 0.5, reason: 'its claim misses the established cause' };
    if (actual.size > 0 && (outcome === 'SUCCESS' || outcome === 'PARTIAL')) {
      if (opts.sameCause === true) return { polarity: 'support', strength: outcome === 'SUCCESS' ? 1 : 0.5, reason: 'the established cause is the one it was learned from' };
      if (opts.sameCause === false) return { polarity: 'contradict', strength: 0.5, reason: 'the established cause is another than the one it was learned from' };
      return undefined;
    }
  }
  switch (outcome) {
    case 'SUCCESS':
      return { polarity: 'support', strength: 1, reason: 'the decision it informed succeeded' };
    case 'FAILURE':
      return { polarity: 'contradict', strength: 1, reason: 'the decision it informed failed' };
    case 'PARTIAL':
      return { polarity: 'support', strength: 0.5, reason: 'the decision it informed partly succeeded' };
    default:
      return undefined;
  }
}

export async function reinforceFromRetrieval(
  ctx: EngineContext,
  tenant: string,
  episode: Episode,
  record: RetrievalRecord,
  outcome: Outcome,
  opts: ReinforceOptions = {},
): Promise<ReinforceReport> {
  const at = ctx.clock.now();
  const used = opts.usedItemIds ? new Set(opts.usedItemIds) : undefined;
  const retrievedEpisodeIds = [...new Set(record.itemIds.filter((id) => idKind(id) === 'episode' && id !== episode.id && (!used || used.has(id))))];
  const retrievedFactIds = [...new Set(record.itemIds.filter((id) => idKind(id) === 'fact'))];
  const loaded = new Map<string, Fact>();
  for (const id of retrievedFactIds) {
    const fact = await ctx.storage.getFact(tenant, id);
    if (fact) loaded.set(id, fact);
  }
  const credited = used
    ? retrievedFactIds.filter((id) => used.has(id))
    : await relevantFacts(ctx, record, retrievedFactIds.flatMap((id) => (loaded.has(id) ? [loaded.get(id)!] : [])));
  const creditedSet = new Set(credited);
  const evidence = `retrieval ${record.id}`;
  const links: Link[] = [
    ...retrievedEpisodeIds.map((id) => makeLink(tenant, 'LED_TO', id, episode.id, { evidence, at })),
    ...credited.map((id) => makeLink(tenant, 'LED_TO', id, episode.id, { evidence, at })),
  ];
  if (opts.correction) links.push(...(await learnedFrom(ctx, tenant, episode, retrievedEpisodeIds, opts.correction, at)));

  const facts: FactReinforcement[] = [];
  let rank = 0;
  for (const id of credited) {
    const fact = loaded.get(id);
    if (!fact) continue;
    const judged = judgeFact(fact.text, outcome, { ...opts, sameCause: await factCauseVerdict(ctx, tenant, fact, episode.rootCause ?? opts.rootCause) });
    const weight = Math.max(MIN_WEIGHT, round((judged?.strength ?? 0) * RANK_DECAY ** rank++));
    if (!judged) continue;
    const update = await addEvidence(ctx, tenant, fact, [{ episodeId: episode.id, polarity: judged.polarity, weight }]);
    if (!update) continue;
    facts.push({ ...update, polarity: judged.polarity, weight, reason: judged.reason });
    if (judged.polarity === 'contradict') links.push(makeLink(tenant, 'CONTRADICTED', episode.id, fact.id, { weight, evidence, at }));
  }
  const stored = links.length ? await ctx.storage.putLinks(links) : [];
  const bystanderFactIds = retrievedFactIds.filter((id) => !creditedSet.has(id));
  return { retrievalId: record.id, episodeId: episode.id, outcome, retrievedEpisodeIds, retrievedFactIds, bystanderFactIds, links: stored, facts };
}

/**
 * Whether `cause` is the cause `fact` was learned from: one of its source episodes' root causes says the same
 * (read/recurrence.ts `sameCause`: most of the shorter cause's specific words, or stored cause vectors at least
 * SAME_CAUSE_COSINE close). Undefined when the fact has no source with a known cause, or nothing is established.
 */
export async function factCauseVerdict(ctx: EngineContext, tenant: string, fact: Fact, cause: string | undefined): Promise<boolean | undefined> {
  if (!cause?.trim() || (fact.provenance.episodeIds ?? []).length === 0) return undefined;
  const sources = (await ctx.storage.getEpisodes(tenant, fact.provenance.episodeIds ?? [])).flatMap((e) => (e.rootCause?.trim() ? [e.rootCause] : []));
  if (sources.length === 0) return undefined;
  const vectors = await loadCauseVectors(ctx, [cause, ...sources]);
  return sources.some((s) => sameCause(s, cause, (c) => vectors.get(c)));
}

/**
 * The thresholds of the relevance floor the retrieval ran with (its stored context config), or the default
 * ones — always applied: a read that turned the floor off still credits only what was relevant.
 */
function floorOf(record: RetrievalRecord): RelevanceFloor {
  const cfg = record.config as { semantic_retrieval?: { relevance_floor?: unknown } } | null | undefined;
  const parsed = relevanceFloorSchema.safeParse(cfg?.semantic_retrieval?.relevance_floor ?? {});
  return { ...(parsed.success ? parsed.data : relevanceFloorSchema.parse({})), enabled: true };
}

/** The retrieved facts that pass the relevance floor against the retrieval's query (read/floor.ts). */
async function relevantFacts(ctx: EngineContext, record: RetrievalRecord, facts: readonly Fact[]): Promise<string[]> {
  const floor = floorOf(record);
  if (facts.length === 0) return [];
  let vector: Float32Array | undefined;
  try {
    vector = ctx.embedder ? (await ctx.embedder.embed([record.query], { priority: 'query' }))[0] : undefined;
  } catch (e) {
    ctx.onError(e); // judged by wording alone
  }
  const vectors = vector ? await ctx.storage.getEmbeddings(facts.map((f) => f.contentHash)) : new Map<string, Float32Array>();
  const q = { stems: queryStems(record.query), vector };
  return facts.filter((f) => aboveFloor(floor, q, f.text, vectors.get(f.contentHash))).map((f) => f.id);
}

async function learnedFrom(ctx: EngineContext, tenant: string, episode: Episode, retrieved: readonly string[], correction: string, at: number): Promise<Link[]> {
  if (retrieved.length === 0) return [];
  const episodes = await ctx.storage.getEpisodes(tenant, retrieved);
  const mistaken = mistakenStems([correction]);
  const revised = episodes.filter((e) => revisesLesson(mistaken, e.rootCause ?? e.summary) >= 0.5);
  const targets = revised.length > 0 ? revised : episodes;
  const why = revised.length > 0 ? 'correction revises its root cause' : 'correction of a decision it informed';
  return targets.map((e) => makeLink(tenant, 'LEARNED_FROM', episode.id, e.id, { evidence: why, at }));
}

/** Scope and stream of a retrieval, from the context config it stored (`task_id`, `scope.*`). */
export function retrievalScope(record: RetrievalRecord): { taskId?: string; sessionId?: string; userId?: string; agentId?: string } {
  const cfg = record.config;
  if (!cfg || typeof cfg !== 'object') return {};
  const c = cfg as { task_id?: unknown; scope?: { session_id?: unknown; user_id?: unknown; agent_id?: unknown } };
  const str = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : undefined);
  const out: { taskId?: string; sessionId?: string; userId?: string; agentId?: string } = {};
  const taskId = str(c.task_id);
  const sessionId = str(c.scope?.session_id);
  const userId = str(c.scope?.user_id);
  const agentId = str(c.scope?.agent_id);
  if (taskId) out.taskId = taskId;
  if (sessionId) out.sessionId = sessionId;
  if (userId) out.userId = userId;
  if (agentId) out.agentId = agentId;
  return out;
}


function round(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}
