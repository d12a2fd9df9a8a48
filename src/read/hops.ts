/**
 * Graph hops: the 1-hop neighbours of the top retrieved episodes join the candidates, at a discount. An
 * episode linked to one that matches the query (its retry, its correction, what it led to) is often the one
 * worth reading, even when its own words do not match.
 *
 *   relevance(neighbour) = HOP_DISCOUNT · relevance(seed) · min(1, link weight)     (the best seed wins)
 *
 * and it is then scored like any candidate (recency, importance, outcome bonus). Neighbours respect the
 * request: closed episodes only, the request's scope, the semantic filter and kinds.
 */
import { visibleTo } from '../core/layers.js';
import { episodeToDoc } from '../core/docs-learn.js';
import type { FilterNode } from '../core/filter.js';
import { matchesFilter } from '../core/filter.js';
import { idKind } from '../core/ids.js';
import { SCOPE_KEYS, type Doc, type DocKind } from '../core/types.js';
import type { ScopeFilter } from '../ports/storage.js';
import { kindBoost, type RoutePlan } from './router.js';
import { scoreCandidate, type ScoringConfig } from './score.js';
import type { Candidate, ReadDeps } from './types.js';

export const HOP_DISCOUNT = 0.8;

export interface HopRequest {
  tenant: string;
  scope: ScopeFilter;
  filter?: FilterNode | undefined;
  kinds?: readonly DocKind[] | undefined;
  /** How many of the top episodes seed the hop. */
  seeds: number;
  scoring: ScoringConfig;
  route: RoutePlan;
  now: number;
}

/** Neighbour candidates (not already in `ranked`), and their stored vectors by content hash for MMR. */
export async function hopCandidates(deps: ReadDeps, req: HopRequest, ranked: readonly Candidate[]): Promise<{ candidates: Candidate[]; vectors: Map<string, Float32Array> }> {
  const none = { candidates: [], vectors: new Map<string, Float32Array>() };
  if (req.kinds && !req.kinds.includes('episode')) return none;
  const seeds = ranked.filter((c) => c.doc.kind === 'episode').slice(0, req.seeds);
  if (seeds.length === 0) return none;
  const present = new Set(ranked.map((c) => c.doc.refId));
  const seedRelevance = new Map(seeds.map((c) => [c.doc.refId, c.scores.relevance ?? 0]));
  const links = await deps.storage.getLinks({ tenant: req.tenant, ids: [...seedRelevance.keys()], direction: 'both' });
  const best = new Map<string, number>();
  for (const l of links) {
    const [seed, other] = seedRelevance.has(l.fromId) ? [l.fromId, l.toId] : [l.toId, l.fromId];
    if (present.has(other) || idKind(other) !== 'episode') continue;
    const rel = HOP_DISCOUNT * (seedRelevance.get(seed) ?? 0) * Math.min(1, l.weight);
    if (rel > (best.get(other) ?? -1)) best.set(other, rel);
  }
  if (best.size === 0) return none;
  const episodes = await deps.storage.getEpisodes(req.tenant, [...best.keys()]);
  const candidates: Candidate[] = [];
  for (const e of episodes) {
    const doc = episodeToDoc(e);
    if (!doc || !inScope(doc, req.scope) || !matchesFilter({ ...doc, docId: -1 } as Doc, req.filter)) continue;
    const relevance = best.get(e.id)!;
    const scores = scoreCandidate(doc, { vector: null, lexical: null, relevance }, req.scoring, req.now, {
      recencyFactor: req.route.recencyFactor,
      boost: kindBoost(req.route, 'episode'),
    });
    candidates.push({ doc, origin: 'semantic', episode: e, role: 'hop', scores });
  }
  const vectors = candidates.length ? await deps.storage.getEmbeddings(candidates.map((c) => c.doc.contentHash)) : new Map<string, Float32Array>();
  return { candidates, vectors };
}

function inScope(doc: { userId?: string | undefined; agentId?: string | undefined; sessionId?: string | undefined; taskId?: string | undefined }, scope: ScopeFilter): boolean {
  return SCOPE_KEYS.every((k) => scope[k] === undefined || doc[k] === scope[k]) && (!scope.layers || visibleTo(doc, scope.layers));
}
