/**
 * Runs an extractor over a tenant's most recent closed episodes and stores what it accepts (facts.ts).
 * Episodes written by the learner carry their situation and findings in metadata, so no event is re-read.
 */
import type { Episode } from '../../core/types.js';
import { prepare } from '../extract-clusters.js';
import type { ExtractionEpisode, Extractor } from '../extract.js';
import type { EngineContext } from './context.js';
import { metaString, metaStrings } from './episode-record.js';
import { applyCandidates, type ExtractionApplied } from './facts.js';
import { relearnRule, retireRules, trialData } from './retire.js';

export function extractionView(e: Episode): ExtractionEpisode {
  return {
    id: e.id,
    outcome: e.outcome,
    rootCause: e.rootCause,
    situation: metaString(e.metadata, 'situation') ?? e.summary,
    findings: metaStrings(e.metadata, 'findings'),
    assumptions: e.assumptions,
    corrections: e.corrections,
  };
}

export const NOTHING_EXTRACTED: ExtractionApplied = { created: [], updated: [], revised: [], retired: [], links: [], rejected: 0 };

export async function extractForTenant(ctx: EngineContext, tenant: string, extractor: Extractor): Promise<ExtractionApplied> {
  const recent = await ctx.storage.listEpisodes({ tenant, closed: true, order: 'desc', limit: ctx.settings.engine.extractWindow });
  const episodes = recent.reverse().filter((e) => e.summary || e.rootCause);
  if (episodes.length < 2) return NOTHING_EXTRACTED;
  const views = episodes.map(extractionView);
  const result = await extractor.extract(views);
  // Learned rules are then put on trial against the same cases (engine/retire.ts); a retired one comes back only
  // with another condition that passes.
  const applied = await applyCandidates(ctx, tenant, result.accepted, new Map(episodes.map((e) => [e.id, e])), result.rejected.length, (c, retired) =>
    relearnRule(ctx, tenant, c, retired),
  );
  if (!ctx.settings.confidence.retire) return applied;
  const data = await trialData(ctx, episodes, new Map(views.map((v) => [v.id, prepare(v)])));
  return { ...applied, retired: await retireRules(ctx, tenant, data) };
}
