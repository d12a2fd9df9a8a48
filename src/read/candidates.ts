/**
 * The episodic window on the read path: the timeline's last N events or last T minutes of the task/session
 * (`queryEvents`), with the window's own filters and the read-time episodic TTL, and those events scored as
 * candidates. The other candidate sources: the lexical and vector hits (semantic.ts, fused by fusion-inputs.ts and
 * fuse.ts), and the records of the chosen items (records.ts).
 */
import type { ContextConfig } from '../core/config.js';
import { EngramError } from '../core/errors.js';
import { eventToDoc } from '../core/docs.js';
import type { FilterNode } from '../core/filter.js';
import type { MemoryEvent } from '../core/types.js';
import type { EventQuery, ScopeFilter, Storage } from '../ports/storage.js';
import { calibrateVector, vectorEvidence } from './fuse.js';
import { cosine } from '../learn/vector.js';
import { kindBoost, type RoutePlan } from './router.js';
import { scoreCandidate } from './score.js';
import type { SemanticCandidates } from './semantic.js';
import type { Candidate, ReadDeps } from './types.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** A `since_minutes` window returns at most this many (most recent) events. */
export const MAX_WINDOW_EVENTS = 500;

/** Oldest episodic timestamp allowed by `guardrails.episodic_ttl_days` (undefined: no limit). */
export function episodicCutoff(ttlDays: number | null, now: number): number | undefined {
  return ttlDays === null ? undefined : now - ttlDays * DAY_MS;
}

export interface WindowRequest {
  tenant: string;
  scope: ScopeFilter;
  window: ContextConfig['episodic_window'];
  windowFilter?: FilterNode | undefined;
  taskId?: string | null | undefined;
  ttlDays: number | null;
  now: number;
  /** Reading at a time (time-travel.ts): events after `asOf`, or recorded after `knownAt`, stay out. */
  asOf?: number | undefined;
  knownAt?: number | undefined;
}

/** The episodic window, chronological by event time. */
export async function fetchWindow(storage: Storage, req: WindowRequest): Promise<MemoryEvent[]> {
  const { window, now } = req;
  if (window.mode === 'none') return [];
  const scope: ScopeFilter = req.taskId ? { ...req.scope, taskId: req.taskId } : { ...req.scope };
  const q: EventQuery = {
    tenant: req.tenant,
    scope,
    filter: req.windowFilter,
    now,
    ...(req.asOf !== undefined ? { until: req.asOf + 1 } : {}),
    ...(req.knownAt !== undefined ? { knownAt: req.knownAt } : {}),
  };
  const cutoff = episodicCutoff(req.ttlDays, now);
  if (window.mode === 'last_n_events') {
    if (window.n === 0) return [];
    q.lastN = window.n;
    q.since = cutoff;
  } else {
    if (window.since_minutes === null) {
      throw new EngramError('VALIDATION', 'episodic_window.since_minutes is required when mode is "since_minutes"', {
        issues: [{ path: 'episodic_window.since_minutes', message: 'required when mode is "since_minutes"' }],
      });
    }
    const since = (req.asOf ?? now) - window.since_minutes * MINUTE_MS;
    q.since = cutoff === undefined ? since : Math.max(since, cutoff);
    q.lastN = MAX_WINDOW_EVENTS;
  }
  return storage.queryEvents(q);
}

/**
 * Window events as candidates, scored with the same weights. Their vector evidence is calibrated on the
 * semantic pool plus the window itself: a filtered semantic pool can be tiny, and the window's own spread
 * tells which recent events are about the query.
 */
export async function windowCandidates(
  deps: ReadDeps,
  events: readonly MemoryEvent[],
  vector: Float32Array | undefined,
  sem: SemanticCandidates,
  config: ContextConfig,
  plan: RoutePlan,
  now: number,
): Promise<{ candidates: Candidate[]; cosines: Map<string, number> }> {
  const vectors = vector && events.length > 0 ? await deps.storage.getEmbeddings(events.map((e) => e.contentHash)) : new Map<string, Float32Array>();
  const cosines = new Map<string, number>();
  for (const e of events) {
    const v = vectors.get(e.contentHash);
    if (v && vector) cosines.set(e.id, cosine(vector, v));
  }
  const cal = calibrateVector([...sem.vectorPool, ...cosines.values()]);
  const candidates = events.map((e): Candidate => {
    const doc = eventToDoc(e);
    const cos = cosines.get(e.id);
    const evidence = cos !== undefined && cal ? vectorEvidence(cos, cal) : null;
    const fused = evidence === null ? undefined : { vector: evidence, lexical: null, relevance: evidence };
    const scores = scoreCandidate(doc, fused, config.scoring, now, { recencyFactor: plan.recencyFactor, boost: kindBoost(plan, doc.kind) });
    return { doc, origin: 'window', event: e, scores };
  });
  return { candidates, cosines };
}
