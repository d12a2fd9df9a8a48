/**
 * The episodic graph's links, automatic and explicit.
 *
 * Direction convention: a link reads as a sentence from `fromId` to `toId`:
 *   B CONTINUATION A   — B continues A's work (A came just before, in the same stream)
 *   B RETRY_OF A       — B tries again what failed in A
 *   A LED_TO B         — A (a retrieved episode or fact) informed the decision whose outcome is B
 *   B CAUSED_BY A      — A caused B
 *   B LEARNED_FROM A   — B, holding a correction, learned from A: the episode it corrected, or an earlier
 *                        episode whose lesson (its root cause) the correction says was mistaken
 *   E CONTRADICTED F   — episode E's outcome contradicted fact F
 * So the "later" end is `from` for CONTINUATION, RETRY_OF, CAUSED_BY and LEARNED_FROM, and `to` for LED_TO.
 */
import { z } from 'zod';
import { EngramError } from '../../core/errors.js';
import { idKind, newId } from '../../core/ids.js';
import { LINK_TYPES, type Episode, type Link, type LinkType } from '../../core/types.js';
import { parseWith } from '../../core/validate.js';
import type { Storage } from '../../ports/storage.js';
import { mistakenStems, revisesLesson } from '../cues.js';
import { jaccard, specificStems } from '../text.js';
import { cosine } from '../vector.js';
import type { EngineContext } from './context.js';
import { metaString } from './episode-record.js';

export function makeLink(
  tenant: string,
  type: LinkType,
  fromId: string,
  toId: string,
  opts: { weight?: number; origin?: Link['origin']; evidence?: string; at: number },
): Link {
  return {
    id: newId('link', opts.at),
    tenant,
    type,
    fromId,
    toId,
    weight: round(Math.min(1, Math.max(0, opts.weight ?? 1))),
    origin: opts.origin ?? 'inferred',
    ...(opts.evidence ? { evidence: opts.evidence } : {}),
    createdAt: opts.at,
  };
}

export { specificStems };

/**
 * CONTINUATION from the episode a boundary opened to the one it closed, unless the earlier one ended with an
 * outcome (then the next is a new task, not more of the same work) or the pause exceeds `continuationGapMs`.
 * Weight falls linearly with the pause.
 */
export function continuationLink(ctx: EngineContext, prev: Pick<Episode, 'id' | 'endTs' | 'tenant'> & { endedByOutcome: boolean }, next: { id: string; startTs: number }): Link | undefined {
  if (prev.endedByOutcome) return undefined;
  const gap = Math.max(0, next.startTs - prev.endTs);
  const limit = ctx.settings.engine.continuationGapMs;
  if (gap > limit) return undefined;
  return makeLink(prev.tenant, 'CONTINUATION', next.id, prev.id, { weight: Math.max(0.1, 1 - gap / limit), evidence: `gap ${Math.round(gap / 1000)}s`, at: ctx.clock.now() });
}

/**
 * The stored embedding of each episode's situation event, by episode id. `cache` keeps the vectors found;
 * an episode without one yet is looked up again next time (the indexer may have caught up).
 */
async function situationVectors(storage: Storage, tenant: string, episodes: readonly Episode[], cache: Map<string, Float32Array>): Promise<Map<string, Float32Array>> {
  const missing = episodes.filter((e) => !cache.has(e.id));
  const eventIds = missing.map((e) => metaString(e.metadata, 'situationEventId')).filter((x): x is string => x !== undefined);
  if (eventIds.length > 0) {
    const events = await storage.getEvents(tenant, eventIds);
    const vectors = await storage.getEmbeddings(events.map((e) => e.contentHash).filter(Boolean));
    const byEvent = new Map(events.map((e) => [e.id, vectors.get(e.contentHash)]));
    for (const ep of missing) {
      const v = byEvent.get(metaString(ep.metadata, 'situationEventId') ?? '');
      if (v) cache.set(ep.id, v);
    }
  }
  return new Map(episodes.flatMap((e) => (cache.has(e.id) ? [[e.id, cache.get(e.id)!] as const] : [])));
}

/**
 * The recently closed episodes of a tenant that automatic links look back at, kept in memory by the learner
 * (storage is asked once, then each closed episode is added), so a link costs no scan of all episodes.
 */
export class RecentEpisodes {
  private items: Episode[] = [];
  readonly vectors = new Map<string, Float32Array>();

  constructor(private readonly capacity: number) {}

  static async load(storage: Storage, tenant: string, capacity: number): Promise<RecentEpisodes> {
    const r = new RecentEpisodes(capacity);
    r.items = (await storage.listEpisodes({ tenant, closed: true, order: 'desc', limit: capacity })).reverse();
    return r;
  }

  /** Adds or replaces an episode (closed ones only; an episode re-described keeps its place by endSeq). */
  put(e: Episode): void {
    this.items = this.items.filter((x) => x.id !== e.id);
    if (!e.closed) return;
    this.items.push(e);
    this.items.sort((a, b) => a.endSeq - b.endSeq);
    if (this.items.length > this.capacity) {
      for (const gone of this.items.splice(0, this.items.length - this.capacity)) this.vectors.delete(gone.id);
    }
  }

  /** Closed episodes that ended before `seq`, newest first. */
  before(seq: number): Episode[] {
    return this.items.filter((e) => e.endSeq < seq).reverse();
  }
}

/**
 * RETRY_OF: earlier FAILED episodes whose situation matches this one's — cosine of the situation events'
 * vectors ≥ `retryCosine`, or (either vector missing) Jaccard of specific terms ≥ `retryJaccard`. When both
 * carry a state label, it must agree. The most similar `maxRetryLinks`, weighted by similarity.
 */
export async function retryLinks(ctx: EngineContext, episode: Episode, recent: RecentEpisodes): Promise<Link[]> {
  const situation = metaString(episode.metadata, 'situation');
  if (!situation) return [];
  const { retryCosine, retryJaccard, maxRetryLinks } = ctx.settings.engine;
  const failed = recent
    .before(episode.startSeq)
    .filter((e) => e.outcome === 'FAILURE' && e.id !== episode.id && !(e.stateLabel && episode.stateLabel && e.stateLabel !== episode.stateLabel));
  if (failed.length === 0) return [];
  const vectors = await situationVectors(ctx.storage, episode.tenant, [episode, ...failed], recent.vectors);
  const mine = vectors.get(episode.id);
  const myTerms = specificStems(situation);
  const scored = failed
    .map((e) => {
      const v = vectors.get(e.id);
      if (mine && v) return { e, sim: cosine(mine, v), by: 'cosine', min: retryCosine };
      return { e, sim: jaccard(myTerms, specificStems(metaString(e.metadata, 'situation') ?? e.summary)), by: 'jaccard', min: retryJaccard };
    })
    .filter((x) => x.sim >= x.min)
    .sort((a, b) => b.sim - a.sim)
    .slice(0, maxRetryLinks);
  const at = ctx.clock.now();
  return scored.map((x) => makeLink(episode.tenant, 'RETRY_OF', episode.id, x.e.id, { weight: x.sim, evidence: `situation ${x.by} ${x.sim.toFixed(2)}`, at }));
}

/**
 * LEARNED_FROM for an episode that holds corrections: to the episode it corrects when it is a late follow-up
 * (it starts with a correction/feedback/outcome and its stream's previous episode is the one corrected), and to
 * earlier episodes whose root cause is what the correction says was mistaken (their lesson is revised).
 */
export async function learnedFromLinks(ctx: EngineContext, episode: Episode, recent: RecentEpisodes, followUpOf?: Episode): Promise<Link[]> {
  if (episode.corrections.length === 0) return [];
  const at = ctx.clock.now();
  const links: Link[] = [];
  if (followUpOf && followUpOf.id !== episode.id) {
    links.push(makeLink(episode.tenant, 'LEARNED_FROM', episode.id, followUpOf.id, { evidence: 'correction of the previous episode', at }));
  }
  const mistaken = mistakenStems(episode.corrections);
  if (mistaken.size === 0) return links;
  const revised = recent
    .before(episode.startSeq)
    .filter((e) => e.id !== episode.id)
    .map((e) => ({ e, overlap: revisesLesson(mistaken, e.rootCause) }))
    .filter((x) => x.overlap >= 0.5)
    .sort((a, b) => b.overlap - a.overlap)
    .slice(0, ctx.settings.engine.maxLearnedFromLinks);
  for (const { e, overlap } of revised) {
    links.push(makeLink(episode.tenant, 'LEARNED_FROM', episode.id, e.id, { weight: overlap, evidence: 'correction revises its root cause', at }));
  }
  return links;
}

/**
 * CAUSED_BY from `metadata.caused_by` (an episode id, or an event id whose episode is meant; a string or a
 * list) on any event of the episode: the caller states the cause, Engram records it.
 */
export async function causedByLinks(ctx: EngineContext, episode: Episode, causes: readonly string[]): Promise<Link[]> {
  const at = ctx.clock.now();
  const links: Link[] = [];
  for (const ref of new Set(causes)) {
    const target = await resolveEpisodeRef(ctx.storage, episode.tenant, ref);
    if (target && target !== episode.id) links.push(makeLink(episode.tenant, 'CAUSED_BY', episode.id, target, { evidence: 'metadata.caused_by', at }));
  }
  return links;
}

/** An episode id as given, or the episode holding an event id. */
export async function resolveEpisodeRef(storage: Storage, tenant: string, ref: string): Promise<string | undefined> {
  const kind = idKind(ref);
  if (kind === 'episode') return (await storage.getEpisodes(tenant, [ref]))[0]?.id;
  if (kind !== 'event') return undefined;
  const [event] = await storage.getEvents(tenant, [ref]);
  if (!event) return undefined;
  const candidates = await storage.listEpisodes({
    tenant,
    scope: { userId: event.userId, agentId: event.agentId, sessionId: event.sessionId, taskId: event.taskId },
  });
  return candidates.find((e) => e.eventIds.includes(ref))?.id;
}

// ---------------------------------------------------------------------------------------------------------
// Explicit links (`memory.learn.link`).
// ---------------------------------------------------------------------------------------------------------

const linkInputSchema = z
  .object({
    type: z.enum(LINK_TYPES),
    fromId: z.string().min(1).max(200),
    toId: z.string().min(1).max(200),
    weight: z.number().min(0).max(1).default(1),
    evidence: z.string().max(2000).optional(),
    tenant: z.string().min(1).max(200).optional(),
  })
  .strict();

export type LinkInput = z.input<typeof linkInputSchema>;

const LINKABLE = new Set(['episode', 'fact', 'event', 'procedure']);

/** Validates an explicit link: known type, Engram ids of linkable kinds, both ends existing (episodes, facts). */
export async function explicitLink(ctx: EngineContext, input: unknown, defaultTenant: string): Promise<Link> {
  const p = parseWith(linkInputSchema, input, { what: 'link' });
  const tenant = p.tenant ?? defaultTenant;
  if (p.fromId === p.toId) {
    throw new EngramError('VALIDATION', 'link.toId must differ from link.fromId', { issues: [{ path: 'toId', message: 'a link joins two different memories' }] });
  }
  for (const field of ['fromId', 'toId'] as const) {
    const id = p[field];
    const kind = idKind(id);
    if (!kind || !LINKABLE.has(kind)) {
      throw new EngramError('VALIDATION', `link.${field} is not an episode, fact, event or procedure id`, { issues: [{ path: field, message: 'expected eps_, fct_, evt_ or prc_ id' }] });
    }
    const exists =
      kind === 'episode'
        ? (await ctx.storage.getEpisodes(tenant, [id])).length > 0
        : kind === 'fact'
          ? (await ctx.storage.getFact(tenant, id)) !== undefined
          : kind === 'event'
            ? (await ctx.storage.getEvents(tenant, [id])).length > 0
            : (await ctx.storage.getProcedures(tenant, [id])).length > 0;
    if (!exists) throw new EngramError('NOT_FOUND', `link.${field}: no ${kind} ${id}`, { issues: [{ path: field, message: `no such ${kind}` }] });
  }
  const link = makeLink(tenant, p.type, p.fromId, p.toId, { weight: p.weight, origin: 'explicit', at: ctx.clock.now(), ...(p.evidence ? { evidence: p.evidence } : {}) });
  const [stored] = await ctx.storage.putLinks([link]);
  return stored!;
}

function round(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}
