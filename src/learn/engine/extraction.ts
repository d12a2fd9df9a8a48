/**
 * Runs an extractor over a tenant's most recent closed episodes and stores what it accepts (facts.ts).
 * Episodes written by the learner carry their situation and findings in metadata, so no event is re-read.
 */
import type { Episode } from '../../core/types.js';
import type { ExtractionEpisode, Extractor } from '../extract.js';
import type { EngineContext } from './context.js';
import { metaString, metaStrings } from './episode-record.js';
import { applyCandidates, type ExtractionApplied } from './facts.js';

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

export const NOTHING_EXTRACTED: ExtractionApplied = { created: [], updated: [], revised: [], links: [], rejected: 0 };

export async function extractForTenant(ctx: EngineContext, tenant: string, extractor: Extractor): Promise<ExtractionApplied> {
  const recent = await ctx.storage.listEpisodes({ tenant, closed: true, order: 'desc', limit: ctx.settings.engine.extractWindow });
  const episodes = recent.reverse().filter((e) => e.summary || e.rootCause);
  if (episodes.length < 2) return NOTHING_EXTRACTED;
  const result = await extractor.extract(episodes.map(extractionView));
  return applyCandidates(ctx, tenant, result.accepted, new Map(episodes.map((e) => [e.id, e])), result.rejected.length);
}
