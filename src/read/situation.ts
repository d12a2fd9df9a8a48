/**
 * Structure of a situation: did the trouble follow a change? A query at decision time is a report of
 * symptoms; each episode candidate started from a report of its own (its first report-like event). When the
 * query says its trouble followed a change (change-cue.ts: "since we switched …", "right after the 7.0 rollout")
 * and an episode's situation did not, the two are different kinds of incident however alike their words — the
 * same symptom from load, from a defect that was always there, or from yesterday's change — and that episode's
 * relevance is scaled by CHANGE_MISMATCH (0.6: at 0.8 a change-driven lesson whose other words matched less still ranked
 * behind three look-alikes; docs/benchmarks.md). That is what tells a change-driven case from the pattern it imitates.
 * The reverse is no evidence: a report that does not mention a change may simply not know of one — which is why an
 * episode counts as change-driven when its findings or its established cause name a change ("a WHERE clause added
 * in yesterday's dashboard edit"), or its cause says a change was made at a time ("the overnight re-slotting moved
 * stock"), not only when its first report does (change-cue.ts `namesChange`, `causeDatesChange`). The absence of a
 * change the cues read is not taken for a contradiction when the episode's story anchors its trouble to an event
 * they cannot read ("since Monday's config refresh", "after the gradient scaler was dropped": `followsUnreadEvent`):
 * such an episode may have followed a change, and is neither scaled nor left out (unless its report denies one).
 * What changed matters too: "after the agent edited the config" is like "right after the agent's commit", not
 * like "since the build container was switched to the new toolchain image" (change-cue.ts `changedThing`); when
 * some episode changed the thing the query names, the episodes that changed something else are scaled the same way.
 *
 * The reverse of a stated change, narrowly: a case whose established cause was a change ("a bug in the new app
 * release") explains trouble in what changed. When the query names no change at all (no verb of changing, no
 * "new") and none of the specific words of that cause, the case is scaled by CHANGE_MISMATCH too — a red herring
 * of a kind (a release bug among attacks) that another component's report does not share. A query that names
 * any change is left alone: it may be about one the cue words cannot read ("the agent's refactor made …").
 *
 * Tried and not kept (docs/benchmarks.md): lifting episodes by the embedding similarity of the query and their
 * situation — within one environment every report looks alike to the sentence encoder, and the lift pushed
 * the episode that held the lesson down as often as up.
 */
import type { MemoryEvent } from '../core/types.js';
import { causeDatesChange, changedThing, deniesChange, followsUnreadEvent, namesChange, statesChange } from './change-cue.js';
import { intersectionSize, specificStems } from '../learn/text.js';
import { statesPattern, type SymptomPattern } from './pattern-cue.js';
import { atRelevance } from './score.js';
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
  /**
   * The situation follows a dated event the change cues do not read as a change ("since Monday's config refresh"):
   * it may have followed a change, so a query that states one is not contradicted by it (change-cue.ts `followsUnreadEvent`).
   */
  mayHaveChanged?: boolean | undefined;
  pattern?: SymptomPattern | undefined;
  /** What changed, when a change is stated (change-cue.ts `changedThing`): "the agent edited the config" → agent, config. */
  changed?: ReadonlySet<string> | undefined;
  /** The established cause names a change (its specific words, the verb of changing out); undefined when it does not. */
  causeChange?: ReadonlySet<string> | undefined;
}

/** What the query says: the same cues. */
export interface QueryCues {
  change: boolean;
  /** The query's specific words. */
  words?: ReadonlySet<string> | undefined;
  pattern?: SymptomPattern | undefined;
  changed?: ReadonlySet<string> | undefined;
}

export function queryCues(query: string): QueryCues {
  // A query that names any change (a verb of changing, "new") is not one that states none.
  return { change: statesChange(query), pattern: statesPattern(query), changed: changedThing(query), words: causeChangeOf(query) ? undefined : specificStems(query) };
}
/** Event types that describe a situation (as opposed to acting on it): describe-episode's report types. */
const REPORT_TYPES: ReadonlySet<string> = new Set(['message', 'observation', 'error', 'note', 'feedback', 'tool_result']);
/** The situation is among an episode's first few events. */
export const HEAD_EVENTS = 3;
/** Findings that can say a change drove the trouble are read among an episode's first this many events. */
export const STORY_EVENTS = 12;

export function situationEvent(eventIds: readonly string[], events: ReadonlyMap<string, MemoryEvent>): MemoryEvent | undefined {
  const head = eventIds.slice(0, HEAD_EVENTS).flatMap((id) => events.get(id) ?? []);
  return head.find((e) => REPORT_TYPES.has(e.type) && e.content.trim()) ?? head[0];
}

/** What each episode's situation says (situationCues), by episode id (unknown ones missing). */
export async function situationCues(deps: ReadDeps, tenant: string, episodeIds: readonly string[]): Promise<Map<string, SituationCues>> {
  const out = new Map<string, SituationCues>();
  if (episodeIds.length === 0) return out;
  const episodes = await deps.storage.getEpisodes(tenant, episodeIds);
  const ids = [...new Set(episodes.flatMap((e) => e.eventIds.slice(0, STORY_EVENTS)))];
  const events = new Map((await deps.storage.getEvents(tenant, ids)).map((e) => [e.id, e]));
  for (const e of episodes) {
    const ev = situationEvent(e.eventIds, events);
    if (!ev) continue;
    const findings = e.eventIds.slice(0, STORY_EVENTS).flatMap((id) => (events.get(id)?.type === 'observation' ? [events.get(id)!.content] : []));
    // The report may not know what the investigation found: a change in the findings or the cause counts too.
    const change = statesChange(ev.content) || [...findings, e.rootCause ?? ''].some(namesChange) || causeDatesChange(e.rootCause ?? '');
    // A report that denies a change is not overruled by an event the findings or the cause name.
    const mayHaveChanged = !change && !deniesChange(ev.content) && [ev.content, ...findings, e.rootCause ?? ''].some(followsUnreadEvent);
    out.set(e.id, { change, mayHaveChanged, pattern: statesPattern(ev.content), changed: changedThing(ev.content), causeChange: causeChangeOf(e.rootCause) });
  }
  return out;
}

/** Words of changing in a cause (change-cue.ts CHANGE_VERB's kind, read without a temporal clause). */
const CAUSE_CHANGE = /\b(?:deploy\w*|releas\w*|roll(?:ed|ing|s)?[ -]?out\w*|upgrad\w*|updat\w*|migrat\w*|switch\w*|chang\w*|edit\w*|bump\w*|refactor\w*|commit\w*|introduc\w*|install\w*|patch\w*|rotat\w*|launch\w*|new)\b/i;
const CAUSE_DENIED = /\b(?:no|not|nothing|without|never|none)\b/i;

/**
 * A negation in a relative clause about people ("customers who had not updated in a year", "users who never
 * upgraded") says who is affected, by what they did or did not do: it names the change, it does not deny one.
 */
const WHO_DID_NOT = /\bwho(?:se)?\s+(?:[\w'’-]+\s+){0,2}(?:not|never)\s+$/i;

/** A cause that names a change ("a bug in the new app release"): its specific words; undefined otherwise. */
export function causeChangeOf(cause: string | undefined): Set<string> | undefined {
  if (!cause) return undefined;
  const m = CAUSE_CHANGE.exec(cause);
  const before = m ? cause.slice(0, m.index) : '';
  if (!m || (CAUSE_DENIED.test(before) && !WHO_DID_NOT.test(before))) return undefined;
  const words = cause.split(/\s+/).map((w) => w.replace(/^\W+|\W+$/g, '')).filter((w) => w && !CAUSE_CHANGE.test(w));
  return specificStems(words.join(' '));
}

/** The factor an episode's situation gets against the query's (1: nothing said contradicts it). */
export function situationFactor(own: SituationCues | undefined, query: QueryCues): number {
  if (!own) return 1;
  let factor = 1;
  // A change explains trouble in what changed: a query that states no change and names nothing of a change-driven
  // cause is another incident.
  if (!query.change && own.causeChange && own.causeChange.size > 0 && query.words && intersectionSize(own.causeChange, query.words) === 0) factor *= CHANGE_MISMATCH;
  if (query.change && !own.change && !own.mayHaveChanged) factor *= CHANGE_MISMATCH;
  if (query.pattern && own.pattern && own.pattern !== query.pattern) factor *= PATTERN_MISMATCH;
  return factor;
}

/** Both say what changed and name the same thing (a shared word of the changed thing). */
export const sameThingChanged = (own: SituationCues | undefined, query: QueryCues): boolean =>
  own?.changed !== undefined && query.changed !== undefined && intersectionSize(own.changed, query.changed) > 0;

/**
 * Another thing changed: the episode followed a change of something the query's change does not name, while some
 * candidate episode followed a change of what the query names ("after the agent edited the config": the
 * agent's own commit, not the new toolchain image). Without such an episode nothing is known about which change
 * is alike, and nothing is scaled.
 */
function otherThingChanged(own: SituationCues | undefined, query: QueryCues, someAlike: boolean): boolean {
  return someAlike && own !== undefined && own.change && (own.changed?.size ?? 0) > 0 && !sameThingChanged(own, query);
}

/**
 * When the query says its trouble followed a change, episodes whose situation did not are scaled by
 * CHANGE_MISMATCH, and so are episodes that followed a change of another thing when some episode changed what
 * the query's change names; when the query's trouble comes and goes and an episode's happened every time (or the
 * reverse), that episode is scaled by PATTERN_MISMATCH. `rescore` recomputes `final`. Otherwise nothing changes.
 */
export function applySituation(
  candidates: readonly Candidate[],
  cues: ReadonlyMap<string, SituationCues>,
  query: QueryCues,
  rescore: (c: Candidate, relevance: number) => number,
): Candidate[] {
  const someAlike = query.change && candidates.some((c) => c.doc.kind === 'episode' && sameThingChanged(cues.get(c.doc.refId), query));
  return candidates.map((c) => {
    const own = cues.get(c.doc.refId);
    const factor = c.doc.kind === 'episode' ? situationFactor(own, query) * (otherThingChanged(own, query, someAlike) ? CHANGE_MISMATCH : 1) : 1;
    if (factor === 1) return c;
    const relevance = (c.scores.relevance ?? 0) * factor;
    return { ...c, scores: atRelevance(c, relevance, rescore) };
  });
}

/**
 * When the best-scored episode's situation matches what the query states (it followed a change too, its trouble
 * came and went — or happened every time — like the query's), the episodes whose situation contradicts the query
 * are left out rather than shown behind it: they are another kind of incident, and several of them repeating one
 * cause would otherwise outweigh the one case that is like this one. When the best episode also changed the thing
 * the query's change names, the episodes that followed a change of something else go too. When the best episode
 * does not match (or none states anything), nothing is dropped: the scaling orders them, and no contradicted
 * episode stays above the best one that matches (`behindMatching`) — and nothing is dropped either when the
 * query and the best episode both name what changed and the two differ: the best is then a change of another
 * thing, no surer a match than the episodes that state no change.
 */
export function dropContradicted(candidates: readonly Candidate[], cues: ReadonlyMap<string, SituationCues>, query: QueryCues): Candidate[] {
  if (!query.change && !query.pattern) return [...candidates];
  const episodes = candidates.filter((c) => c.doc.kind === 'episode');
  const best = episodes.reduce<Candidate | undefined>((b, c) => (!b || c.scores.final > b.scores.final ? c : b), undefined);
  const own = best ? cues.get(best.doc.refId) : undefined;
  if (!best || !matches(own, query)) return behindMatching(candidates, cues, query);
  const sameThing = sameThingChanged(own, query);
  if (!sameThing && (query.changed?.size ?? 0) > 0 && (own?.changed?.size ?? 0) > 0) return [...candidates];
  return candidates.filter((c) => {
    if (c.doc.kind !== 'episode') return true;
    const cue = cues.get(c.doc.refId);
    return situationFactor(cue, query) === 1 && !otherThingChanged(cue, query, sameThing);
  });
}

/**
 * When the best episode contradicts what the query states but another one states it too, nothing is left out (the
 * best may be the answer in words the cues misread), but no contradicted episode stays above the best matching one:
 * each keeps its order among the contradicted, just below it. A stated circumstance the case contradicts weighs
 * more than closer wording — the same symptom from another kind of incident reads alike to the encoder ("the app
 * quits right after opening" on a beta OS, against "closes on startup" after an update), and the scaling by
 * CHANGE_MISMATCH alone leaves it first when its words are much closer. Episodes that state nothing either way
 * (their factor 1), an episode whose established cause names a change (the cues may have missed it), facts and
 * other kinds keep their scores.
 */
function behindMatching(candidates: readonly Candidate[], cues: ReadonlyMap<string, SituationCues>, query: QueryCues): Candidate[] {
  // Not a sure contradiction: an episode whose established cause names a change ("a bug in the new app release")
  // may have followed one its report and findings do not state in words the cues read.
  const contradicted = (c: Candidate) => {
    const own = cues.get(c.doc.refId);
    return c.doc.kind === 'episode' && situationFactor(own, query) < 1 && !(query.change && (own?.causeChange?.size ?? 0) > 0);
  };
  const lead = candidates
    .filter((c) => c.doc.kind === 'episode' && !contradicted(c) && matches(cues.get(c.doc.refId), query))
    .reduce<Candidate | undefined>((b, c) => (!b || c.scores.final > b.scores.final ? c : b), undefined);
  if (!lead) return [...candidates];
  const above = candidates.filter((c) => contradicted(c) && c.scores.final >= lead.scores.final).sort((a, b) => b.scores.final - a.scores.final);
  if (above.length === 0) return [...candidates];
  const span = lead.scores.final * BEHIND_STEP;
  const capped = new Map(above.map((c, i) => [c, lead.scores.final - span * (i + 1)] as const));
  return candidates.map((c) => {
    const final = capped.get(c);
    // The move is named in the breakdown (`situation`, negative), so that its signals still account for `final`.
    return final === undefined ? c : { ...c, scores: { ...c.scores, situation: (c.scores.situation ?? 0) + (final - c.scores.final), final } };
  });
}

/** How far below the best matching episode each contradicted one is placed (a share of its score, per place). */
const BEHIND_STEP = 1e-3;

/** The episode's situation states what the query states: a change when it does, its pattern when it has one. */
function matches(own: SituationCues | undefined, query: QueryCues): boolean {
  if (!own) return false;
  return (!query.change || own.change) && (!query.pattern || own.pattern === query.pattern);
}
