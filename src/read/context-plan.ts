/**
 * What getContext derives once from its request (context.ts): the steps of the read (gather.ts, context.ts) read it,
 * none changes it.
 */
import type { ContextConfig } from '../core/config.js';
import { candidatePoolSize, CONTEXT_POOL_FLOOR } from './pool.js';
import { DropLog } from './explain.js';
import { routeQuery, type RoutePlan } from './router.js';
import { gathersAcrossSessions } from './session-spread.js';
import { queryTimeWindow, type TimeWindow } from './time-window.js';
import { mergeScope, readScopes, type ReadScopes } from './scopes.js';
import type { Candidate, ContextRequest, ReadDeps } from './types.js';

/** Best final score first. */
export const byFinal = (a: Candidate, b: Candidate) => b.scores.final - a.scores.final;

/** Everything derived once from the request: the steps below read it, none changes it. */
export interface Plan {
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

export function plan(deps: ReadDeps, req: ContextRequest): Plan {
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

