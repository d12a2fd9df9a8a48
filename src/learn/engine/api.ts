/**
 * The learn engine as the facade exposes it: `memory.learn.*`, `memory.procedures.*` and
 * `memory.recordOutcome(retrievalId, outcome, …)`.
 *
 * recordOutcome closes the loop for one retrieval: it logs an `outcome` event (and a `correction` event) in the
 * retrieval's stream (its task/session scope), lets the learner segment them — the outcome closes the running
 * episode of that stream, or forms one of its own when nothing ran — and then reinforces from exactly what the
 * retrieval handed out (reinforce.ts). Log the task's own events (report, findings, decision) before calling
 * it, so the outcome episode tells the whole story.
 */
import { EngramError } from '../../core/errors.js';
import { assertId } from '../../core/ids.js';
import { OUTCOMES, type Episode, type Link, type Outcome } from '../../core/types.js';
import type { EpisodeQuery } from '../../ports/storage.js';
import { causalChain } from '../../read/causal.js';
import type { CausalChain } from '../../read/types.js';
import { defaultStreamKey } from '../segment.js';
import { consolidate, type ConsolidateOptions, type ConsolidationReport } from './consolidate.js';
import type { EngineContext } from './context.js';
import type { Learner, LearnerRun } from './learner.js';
import { explicitLink, type LinkInput } from './links.js';
import { reinforceFromRetrieval, retrievalScope, type ReinforceReport } from './reinforce.js';

export interface OutcomeOptions {
  correction?: string;
  details?: string;
  rootCause?: string;
  tenant?: string;
  /**
   * The retrieved items (ids from the context) the answer actually used: only these are credited or blamed.
   * Without it, every retrieved item relevant to the query (the relevance floor) is; bystanders never are.
   */
  usedItemIds?: string[];
}

export interface OutcomeReport extends ReinforceReport {
  /** The outcome (and correction) events logged. */
  eventIds: string[];
  /** The outcome episode as stored. */
  episode: Episode;
}

export interface LearnApi {
  /** An explicit typed link between two memories (episodes, facts, events, procedures). */
  link(input: LinkInput): Promise<Link>;
  /** The causal narrative through an episode (NOT_FOUND when the episode does not exist). */
  causalChain(episodeId: string, opts?: { tenant?: string; maxDepth?: number; maxSteps?: number }): Promise<CausalChain>;
  /** Catch up, distil heuristics and procedures, apply retention (consolidate.ts). */
  consolidate(opts?: ConsolidateOptions): Promise<ConsolidationReport>;
  /** Segments what is pending for a tenant now (the background learner does this on its own). */
  process(tenant?: string): Promise<LearnerRun>;
  episodes(q?: Omit<EpisodeQuery, 'tenant'> & { tenant?: string }): Promise<Episode[]>;
  getEpisode(id: string, tenant?: string): Promise<Episode>;
  /** Links touching a memory. */
  links(id: string, opts?: { tenant?: string; direction?: 'out' | 'in' | 'both' }): Promise<Link[]>;
}

export type AppendEvents = (inputs: readonly Record<string, unknown>[]) => Promise<{ id: string; seq: number; tenant: string; sessionId?: string | undefined; taskId?: string | undefined }[]>;

export function learnApi(ctx: EngineContext, learner: Learner, defaultTenant: string): LearnApi {
  const tenantOf = (t?: string) => t ?? defaultTenant;
  return {
    link: (input) => explicitLink(ctx, input, defaultTenant),
    async causalChain(episodeId, opts = {}) {
      assertId('episode', episodeId, 'episodeId');
      const tenant = tenantOf(opts.tenant);
      const [episode] = await ctx.storage.getEpisodes(tenant, [episodeId]);
      if (!episode) throw new EngramError('NOT_FOUND', `no episode ${episodeId}`);
      const chain = await causalChain(ctx.storage, tenant, episodeId, opts);
      return chain ?? { episodeIds: [episodeId], steps: [{ episodeId, label: episode.summary, outcome: episode.outcome, via: null }], narrative: episode.summary };
    },
    consolidate: (opts = {}) => consolidate(ctx, learner, tenantOf(opts.tenant), opts),
    process: (tenant) => learner.process(tenantOf(tenant)),
    async episodes(q = {}) {
      const { tenant, ...rest } = q;
      return ctx.storage.listEpisodes({ ...rest, tenant: tenantOf(tenant) });
    },
    async getEpisode(id, tenant) {
      assertId('episode', id);
      const [episode] = await ctx.storage.getEpisodes(tenantOf(tenant), [id]);
      if (!episode) throw new EngramError('NOT_FOUND', `no episode ${id}`);
      return episode;
    },
    async links(id, opts = {}) {
      return ctx.storage.getLinks({ tenant: tenantOf(opts.tenant), ids: [id], direction: opts.direction ?? 'both' });
    },
  };
}

export function parseOutcome(value: unknown): Outcome {
  const up = typeof value === 'string' ? value.trim().toUpperCase() : '';
  if ((OUTCOMES as readonly string[]).includes(up)) return up as Outcome;
  throw new EngramError('VALIDATION', `outcome must be one of ${OUTCOMES.join(', ')}`, { issues: [{ path: 'outcome', message: `expected ${OUTCOMES.join(' | ')}` }] });
}

/** Every used id must be one the retrieval handed out (a typo must not silently credit nothing). */
function parseUsedItemIds(v: unknown, handedOut: readonly string[], retrievalId: string): string[] | undefined {
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || v.length > 1000) {
    throw new EngramError('VALIDATION', 'usedItemIds must be an array of at most 1000 ids', { issues: [{ path: 'usedItemIds', message: 'expected an array of ids' }] });
  }
  const known = new Set(handedOut);
  const issues = v.flatMap((id, i) => (typeof id === 'string' && known.has(id) ? [] : [{ path: `usedItemIds.${i}`, message: `not an item of retrieval ${retrievalId}` }]));
  if (issues.length > 0) throw new EngramError('VALIDATION', `usedItemIds: ${issues.length} id(s) were not handed out by retrieval ${retrievalId}`, { issues });
  return v as string[];
}

function optionalText(v: unknown, path: string): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v.trim() === '' || v.length > 10_000) {
    throw new EngramError('VALIDATION', `${path} must be a non-empty string of at most 10000 characters`, { issues: [{ path, message: 'expected text' }] });
  }
  return v.trim();
}

export async function recordOutcome(
  ctx: EngineContext,
  learner: Learner,
  append: AppendEvents,
  defaultTenant: string,
  retrievalId: string,
  outcomeInput: Outcome | Lowercase<Outcome>,
  opts: OutcomeOptions = {},
): Promise<OutcomeReport> {
  assertId('retrieval', retrievalId, 'retrievalId');
  const outcome = parseOutcome(outcomeInput);
  const correction = optionalText(opts.correction, 'correction');
  const details = optionalText(opts.details, 'details');
  const rootCause = optionalText(opts.rootCause, 'rootCause');
  const tenant = opts.tenant ?? defaultTenant;
  const record = await ctx.storage.getRetrieval(tenant, retrievalId);
  if (!record) throw new EngramError('NOT_FOUND', `no retrieval ${retrievalId}`);
  const usedItemIds = parseUsedItemIds(opts.usedItemIds, record.itemIds, retrievalId);
  const scope = retrievalScope(record);
  const meta = { retrieval_id: retrievalId, recorded_by: 'recordOutcome' };
  const content = [`Outcome: ${outcome}.`, details, rootCause ? `Root cause: ${rootCause}.` : undefined].filter(Boolean).join(' ');
  const inputs: Record<string, unknown>[] = [
    { ...scope, tenant, type: 'outcome', content, metadata: { ...meta, outcome, query: record.query.slice(0, 500), ...(rootCause ? { root_cause: rootCause } : {}) } },
    ...(correction ? [{ ...scope, tenant, type: 'correction', content: `Correction: ${correction}`, metadata: meta }] : []),
  ];
  const logged = await append(inputs);
  const outcomeEvent = logged[0]!;
  const run = await learner.process(tenant);
  const episode =
    [...run.closed].reverse().find((e) => e.eventIds.includes(outcomeEvent.id)) ??
    (await ctx.storage.listEpisodes({ tenant, streamKey: defaultStreamKey(outcomeEvent), order: 'desc', limit: 8 })).find((e) => e.eventIds.includes(outcomeEvent.id));
  if (!episode) {
    throw new EngramError('CONFLICT', `the outcome event ${outcomeEvent.id} did not land in an episode`, { details: { retrievalId } });
  }
  const report = await learner.exclusive(tenant, () => reinforceFromRetrieval(ctx, tenant, episode, record, outcome, { correction, rootCause, usedItemIds }));
  return { ...report, eventIds: logged.map((e) => e.id), episode };
}
