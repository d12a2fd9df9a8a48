/**
 * Consolidation (seeds 002/004): the periodic job that turns experience into knowledge.
 *
 *  1. catch up: segment what is pending and close episodes idle by the clock (not by timeline time);
 *  2. distil: the extractor (the LLM one when configured) over the tenant's recent closed episodes → heuristic
 *     facts with evidence, confidence and revisions (facts.ts);
 *  3. procedures: successful multi-step episodes closed since the last consolidation → procedures;
 *  4. facts: preference, attribute and relationship facts users stated in conversation (distill.ts);
 *  5. retention (off by default): forget raw events older than `minAgeDays` with importance below
 *     `maxImportance`, only when a closed episode with a summary covers them — the lesson stays, the log goes.
 */
import type { Episode } from '../../core/types.js';
import type { EngineContext } from './context.js';
import { distillFacts, type DistillReport } from './distill.js';
import { extractForTenant } from './extraction.js';
import type { ExtractionApplied } from './facts.js';
import type { Learner, LearnerRun } from './learner.js';
import { learnProcedures, type ProcedureLearning } from './procedures.js';

const DAY_MS = 86_400_000;

export interface ConsolidateOptions {
  tenant?: string;
  /**
   * Episodes that ended at or after this time (epoch ms, event time) feed procedures; default: the tenant's
   * `learn.engine.extractWindow` most recent closed episodes (an episode feeds procedures once either way).
   */
  since?: number;
}

export interface ConsolidationReport {
  tenant: string;
  since: number | null;
  /** What segmentation did while catching up. */
  segmented: Pick<LearnerRun, 'events'> & { closed: number };
  facts: ExtractionApplied;
  procedures: ProcedureLearning;
  /** Facts distilled from what users said about themselves (null when `distill.enabled` is off). */
  distilled: DistillReport | null;
  /** Raw events forgotten by retention (0 when it is off). */
  expired: number;
}

export async function consolidate(ctx: EngineContext, learner: Learner, tenant: string, opts: ConsolidateOptions = {}): Promise<ConsolidationReport> {
  const run = await learner.process(tenant, { idleAt: ctx.clock.now(), skipExtraction: true });
  const since = opts.since;
  return learner.exclusive(tenant, async () => {
    const facts = await extractForTenant(ctx, tenant, ctx.consolidateExtractor);
    const recent = (
      await ctx.storage.listEpisodes({
        tenant,
        closed: true,
        order: 'desc',
        ...(since !== undefined ? { since } : { limit: ctx.settings.engine.extractWindow }),
      })
    ).reverse();
    const procedures = await learnProcedures(ctx, tenant, recent);
    const distilled = ctx.settings.engine.distill.enabled ? await distillFacts(ctx, tenant) : null;
    const expired = ctx.settings.engine.retention.enabled ? await applyRetention(ctx, tenant) : 0;
    return {
      tenant,
      since: since ?? null,
      segmented: { events: run.events, closed: run.closed.length },
      facts,
      procedures,
      distilled,
      expired,
    };
  }).then(async (report) => {
    await learner.markConsolidated(tenant, ctx.clock.now());
    return report;
  });
}

/** Forgets old, unimportant raw events that a closed, summarised episode covers. Returns how many. */
export async function applyRetention(ctx: EngineContext, tenant: string): Promise<number> {
  const { minAgeDays, maxImportance, maxEvents } = ctx.settings.engine.retention;
  const now = ctx.clock.now();
  const cutoff = now - minAgeDays * DAY_MS;
  const covered = new Set<string>();
  const episodes: Episode[] = await ctx.storage.listEpisodes({ tenant, closed: true, order: 'asc' });
  for (const e of episodes) if (e.endTs < cutoff && e.summary.trim()) for (const id of e.eventIds) covered.add(id);
  if (covered.size === 0) return 0;
  const doomed: string[] = [];
  for (let i = 0, ids = [...covered]; i < ids.length && doomed.length < maxEvents; i += 500) {
    const events = await ctx.storage.getEvents(tenant, ids.slice(i, i + 500));
    for (const ev of events) if (ev.ts < cutoff && ev.importance < maxImportance && doomed.length < maxEvents) doomed.push(ev.id);
  }
  if (doomed.length === 0) return 0;
  const report = await ctx.storage.forget({ tenant, ids: doomed }, now);
  return report.events;
}
