/**
 * Structure of a situation: did the trouble follow a change? A query at decision time is a report of
 * symptoms; each episode candidate started from a report of its own (its first report-like event). When the
 * query says its trouble followed a change (change-cue.ts: "since we switched …", "right after the 7.0 rollout")
 * and an episode's situation did not, the two are different kinds of incident however alike their words — the
 * same symptom from load, from a defect that was always there, or from yesterday's change — and that episode's
 * relevance is scaled by CHANGE_MISMATCH (0.6: at 0.8 a change-driven lesson whose other words matched less still ranked
 * behind three look-alikes; docs/benchmarks.md). That is what tells a change-driven case from the pattern it imitates.
 * The reverse is no evidence: a report that does not mention a change may simply not know of one.
 *
 * Tried and not kept (docs/benchmarks.md): lifting episodes by the embedding similarity of the query and their
 * situation — within one environment every report looks alike to the sentence encoder, and the lift pushed
 * the episode that held the lesson down as often as up.
 */
import type { MemoryEvent } from '../core/types.js';
import { statesChange } from './change-cue.js';
import { statesPattern, type SymptomPattern } from './pattern-cue.js';
import type { Candidate, ReadDeps } from './types.js';

export const CHANGE_MISMATCH = 0.6;
/**
 * A query whose trouble comes and goes against an episode whose trouble happened every time, or the reverse
 * (pattern-cue.ts): only an explicit contradiction counts — a report that states no pattern may not know it.
 */
export const PATTERN_MISMATCH = 0.6;

/** What an episode's situation says about its trouble: after a change or not; intermittent, consistent or unsaid. */
export interface SituationCues {
  change: boolean;
  pattern?: SymptomPattern | undefined;
}

/** What the query says: the same cues. */
export interface QueryCues {
  change: boolean;
  pattern?: SymptomPattern | undefined;
}

export function queryCues(query: string): QueryCues {
  return { change: statesChange(query), pattern: statesPattern(query) };
}
/** Event types that describe a situation (as opposed to acting on it): describe-episode's report types. */
const REPORT_TYPES: ReadonlySet<string> = new Set(['message', 'observation', 'error', 'note', 'feedback', 'tool_result']);
/** The situation is among an episode's first few events. */
const HEAD_EVENTS = 3;

function situationEvent(eventIds: readonly string[], events: ReadonlyMap<string, MemoryEvent>): MemoryEvent | undefined {
  const head = eventIds.slice(0, HEAD_EVENTS).flatMap((id) => events.get(id) ?? []);
  return head.find((e) => REPORT_TYPES.has(e.type) && e.content.trim()) ?? head[0];
}

/** What each episode's situation says (situationCues), by episode id (unknown ones missing). */
export async function situationCues(deps: ReadDeps, tenant: string, episodeIds: readonly string[]): Promise<Map<string, SituationCues>> {
  const out = new Map<string, SituationCues>();
  if (episodeIds.length === 0) return out;
  const episodes = await deps.storage.getEpisodes(tenant, episodeIds);
  const headIds = [...new Set(episodes.flatMap((e) => e.eventIds.slice(0, HEAD_EVENTS)))];
  const events = new Map((await deps.storage.getEvents(tenant, headIds)).map((e) => [e.id, e]));
  for (const e of episodes) {
    const ev = situationEvent(e.eventIds, events);
    if (ev) out.set(e.id, { change: statesChange(ev.content), pattern: statesPattern(ev.content) });
  }
  return out;
}

/** The factor an episode's situation gets against the query's (1: nothing said contradicts it). */
export function situationFactor(own: SituationCues | undefined, query: QueryCues): number {
  if (!own) return 1;
  let factor = 1;
  if (query.change && !own.change) factor *= CHANGE_MISMATCH;
  if (query.pattern && own.pattern && own.pattern !== query.pattern) factor *= PATTERN_MISMATCH;
  return factor;
}

/**
 * When the query says its trouble followed a change, episodes whose situation did not are scaled by
 * CHANGE_MISMATCH; when the query's trouble comes and goes and an episode's happened every time (or the
 * reverse), that episode is scaled by PATTERN_MISMATCH. `rescore` recomputes `final`. Otherwise nothing changes.
 */
export function applySituation(
  candidates: readonly Candidate[],
  cues: ReadonlyMap<string, SituationCues>,
  query: QueryCues,
  rescore: (c: Candidate, relevance: number) => number,
): Candidate[] {
  if (!query.change && !query.pattern) return [...candidates];
  return candidates.map((c) => {
    const factor = c.doc.kind === 'episode' ? situationFactor(cues.get(c.doc.refId), query) : 1;
    if (factor === 1) return c;
    const relevance = (c.scores.relevance ?? 0) * factor;
    return { ...c, scores: { ...c.scores, relevance, final: rescore(c, relevance) } };
  });
}

/**
 * When the best-scored episode's situation matches what the query states (it followed a change too, its trouble
 * came and went — or happened every time — like the query's), the episodes whose situation contradicts the query
 * are left out rather than shown behind it: they are another kind of incident, and several of them repeating one
 * cause would otherwise outweigh the one case that is like this one. When the best episode does not match (or
 * none states anything), nothing is dropped: the scaling alone orders them.
 */
export function dropContradicted(candidates: readonly Candidate[], cues: ReadonlyMap<string, SituationCues>, query: QueryCues): Candidate[] {
  if (!query.change && !query.pattern) return [...candidates];
  const episodes = candidates.filter((c) => c.doc.kind === 'episode');
  const best = episodes.reduce<Candidate | undefined>((b, c) => (!b || c.scores.final > b.scores.final ? c : b), undefined);
  if (!best || !matches(cues.get(best.doc.refId), query)) return [...candidates];
  return candidates.filter((c) => c.doc.kind !== 'episode' || situationFactor(cues.get(c.doc.refId), query) === 1);
}

/** The episode's situation states what the query states: a change when it does, its pattern when it has one. */
function matches(own: SituationCues | undefined, query: QueryCues): boolean {
  if (!own) return false;
  return (!query.change || own.change) && (!query.pattern || own.pattern === query.pattern);
}
