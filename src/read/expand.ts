/**
 * Timeline expansion of a ranked candidate list: uses of what a memory is besides its words — when it was
 * written (a date the query names doubles the relevance of memories from then: time-window.ts), who said it,
 * and what was said around it.
 *
 *   author field   When the query names the author (`MemoryEvent.name`: a chat speaker, an agent, a tool) of
 *                  some of the top candidates, events by an author the query does not name lose part of their
 *                  relevance:  relevance' = (1 − authorPenalty) · relevance, authorPenalty = 0.2. The name is
 *                  in the indexed text ("Name: content"), but a name shared by half a conversation carries almost no IDF and a
 *                  reply that addresses the person ("Wow, Caroline, …") matches it as well as what that person
 *                  said. Only applies when the query names some of the authors in view but not all of them.
 *   conversation   the information prior of turns.ts on every event candidate, then its answers and
 *                  same-author context among the top `eventWindow` (50) event candidates, whose events are loaded.
 *   neighbours     The events up to `reach` (2) turns before and after each of the top `seeds` (3) events, in
 *                  the same session, join the candidates with a share of the seed's relevance (a hit's reply or
 *                  its question often holds the answer in other words: "You drew it? What does it mean to
 *                  you?" → "It stands for freedom and being real"):
 *                    relevance(n) = max(own relevance, shareAfter^d · relevance(seed))    n d turns after the seed
 *                                   max(own relevance, shareBefore^d · relevance(seed))   n d turns before it
 *                  (shares 0.7 and 0.6; the best seed wins). Each item stays one event.
 *
 * Cost: one `getEvents` for the top `eventWindow` (50) event candidates (authors, sessions and sequence
 * numbers), one `queryEvents` per seed (an index range of at most 2·seqSpan + 1 rows of the seed's session around it), and
 * none when no candidate is an event with a session.
 *
 * Measured (LoCoMo evidence recall@10, categories 1–4, `engram bench locomo`, same tree with and without this
 * step): hybrid `search` dev (conv-26, -30, -41; tuned there) 0.659 → 0.734, held-out seven 0.626 → 0.694;
 * `getContext` 0.658 → 0.735 and 0.622 → 0.691. Paraphrase-dev unchanged (its notes have no author and no
 * session). On dev, the author field alone gives ≈ 0.69, one-turn neighbours alone ≈ 0.72; seeds 3, 5 or 10
 * and shares ±0.1 around the chosen ones move dev R@10 by ≤ 0.008; reach 3 = reach 2; a noisy-OR of own and
 * inherited relevance instead of the max was lower. Cost: session recall@10 falls (0.885 → 0.852: neighbours
 * fill slots from the seeds' sessions) and so does category 3 (0.32 → 0.30); ≈ 1.5–3 ms a query on this
 * machine, independent of the store's size.
 */
import { conversationSchema, type ConversationConfig } from '../core/config.js';
import { eventToDoc } from '../core/docs.js';
import type { FilterNode } from '../core/filter.js';
import type { DocKind, MemoryEvent } from '../core/types.js';
import type { ScopeFilter, Storage } from '../ports/storage.js';
import { words } from './text.js';
import { clamp01 } from './score.js';
import { answerQuestions, informationPrior, sameAuthorContext, timelinePositions } from './turns.js';
import { queryTimeWindow, timeFactor } from './time-window.js';
import type { Candidate } from './types.js';

export interface ExpandSettings {
  /** How many top event candidates the author field looks at. */
  authorWindow: number;
  authorPenalty: number;
  /** Weight of the information prior (per unit of ln(1 + stated words)); 0 turns it off. */
  informationWeight: number;
  /** Stated words from which on the information prior is 0 (memories stating fewer lose relevance). */
  informationReference: number;
  /** How many top event candidates have their events loaded (answers, context, neighbour seeds). */
  eventWindow: number;
  /** Share of a question's relevance its answer (the next event of the session) gains; 0 turns it off. */
  answerShare: number;
  /** Share of the relevance of the same author's events nearby (same session) an event gains; 0: off. */
  contextShare: number;
  /** How many timeline positions away such events may be. */
  contextReach: number;
  /** How many top events have their session neighbours fetched. */
  seeds: number;
  shareBefore: number;
  shareAfter: number;
  /** How many events away on each side of a seed neighbours are taken (share compounds: share^distance). */
  reach: number;
  /** Neighbours are looked for among the session's events within this many timeline positions. */
  seqSpan: number;
}

/** The conversation steps' settings from a context config's `semantic_retrieval.conversation`. */
export function conversationSettings(c: ConversationConfig): Pick<ExpandSettings, 'informationWeight' | 'informationReference' | 'answerShare' | 'contextShare' | 'contextReach'> {
  return {
    informationWeight: c.information_weight,
    informationReference: c.information_reference,
    answerShare: c.answer_share,
    contextShare: c.context_share,
    contextReach: c.context_reach,
  };
}

export const EXPAND_DEFAULTS: Readonly<ExpandSettings> = {
  authorWindow: 20,
  authorPenalty: 0.2,
  ...conversationSettings(conversationSchema.parse({})),
  eventWindow: 50,
  seeds: 3,
  shareBefore: 0.6,
  shareAfter: 0.7,
  reach: 2,
  seqSpan: 4,
};

export interface ExpandRequest {
  tenant: string;
  query: string;
  scope?: ScopeFilter | undefined;
  filter?: FilterNode | undefined;
  kinds?: readonly DocKind[] | undefined;
  now: number;
  /** Recomputes `final` of a candidate at a new relevance (same weights, route and time). */
  rescore: (c: Candidate, relevance: number) => number;
  /** Scores a neighbour that was not a candidate, at the relevance it inherits. */
  scoreNew: (c: Omit<Candidate, 'scores'>, relevance: number) => Candidate['scores'];
  settings?: Partial<ExpandSettings> | undefined;
}

/** Names (case-folded word sequences) the query mentions among `names`. */
export function mentionedNames(query: string, names: Iterable<string>): Set<string> {
  const q = ` ${words(query).join(' ')} `;
  const out = new Set<string>();
  for (const name of names) {
    const w = words(name);
    if (w.length > 0 && q.includes(` ${w.join(' ')} `)) out.add(name);
  }
  return out;
}

/**
 * The author factor of each event: 1 − penalty for events whose author the query does not name, when it
 * names some (not all) of the authors present; 1 otherwise. Events without an author are not penalised.
 */
export function authorFactors(query: string, authors: ReadonlyMap<string, string | undefined>, penalty: number): Map<string, number> {
  const present = new Set([...authors.values()].filter((a): a is string => a !== undefined && a !== ''));
  const named = mentionedNames(query, present);
  const out = new Map<string, number>();
  const applies = named.size > 0 && named.size < present.size;
  for (const [id, author] of authors) out.set(id, applies && author && !named.has(author) ? 1 - penalty : 1);
  return out;
}

/** The session's events nearest before and after `seq` (by timeline position), from a list of that session. */
export function adjacent(events: readonly MemoryEvent[], seq: number): { before?: MemoryEvent | undefined; after?: MemoryEvent | undefined } {
  let before: MemoryEvent | undefined;
  let after: MemoryEvent | undefined;
  for (const e of events) {
    if (e.seq < seq && (!before || e.seq > before.seq)) before = e;
    if (e.seq > seq && (!after || e.seq < after.seq)) after = e;
  }
  return { before, after };
}

const byFinal = (a: Candidate, b: Candidate) => b.scores.final - a.scores.final;

/**
 * Applies the author field, the time window and the conversation steps, and adds session neighbours (see
 * above); returns the candidates re-sorted by `final`. Candidates that are not events get the time window only.
 */
export async function expandCandidates<C extends Candidate>(storage: Storage, req: ExpandRequest, ranked: readonly C[]): Promise<Candidate[]> {
  const s = { ...EXPAND_DEFAULTS, ...req.settings };
  const head = ranked.filter((c) => c.doc.kind === 'event').slice(0, Math.max(s.authorWindow, s.eventWindow));
  const when = queryTimeWindow(req.query, req.now);
  if (head.length === 0 && when === undefined) return [...ranked];
  const known = new Map(head.filter((c) => c.event).map((c) => [c.doc.refId, c.event!]));
  const missing = head.map((c) => c.doc.refId).filter((id) => !known.has(id));
  if (missing.length > 0) for (const e of await storage.getEvents(req.tenant, missing)) known.set(e.id, e);

  const authored = head.slice(0, s.authorWindow);
  const factors = s.authorPenalty > 0 ? authorFactors(req.query, new Map(authored.map((c) => [c.doc.refId, known.get(c.doc.refId)?.name])), s.authorPenalty) : new Map<string, number>();
  const { out, factored } = reweigh(ranked, known, factors, when, s, req.rescore);
  const positions = timelinePositions(out, known);
  if (s.answerShare > 0) answerQuestions(out, positions, factored, s.answerShare, req.rescore);
  if (s.contextShare > 0) sameAuthorContext(out, positions, s.contextShare, s.contextReach, req.rescore);
  out.sort(byFinal);
  if (s.seeds <= 0 || (req.kinds && !req.kinds.includes('event'))) return out;
  return addNeighbours(storage, req, s, out, known);
}

/**
 * The author and time factors, then the information prior (a shift, events only). Returns the candidates with
 * their loaded events riding along (getContext renders from them instead of loading them again), and each
 * event's relevance after the factors and before the prior: what its answer inherits.
 */
function reweigh(
  ranked: readonly Candidate[],
  known: ReadonlyMap<string, MemoryEvent>,
  factors: ReadonlyMap<string, number>,
  when: ReturnType<typeof queryTimeWindow>,
  s: ExpandSettings,
  rescore: ExpandRequest['rescore'],
): { out: Candidate[]; factored: Map<string, number> } {
  const factored = new Map<string, number>();
  const out = ranked.map((c): Candidate => {
    const withEvent = c.doc.kind === 'event' && !c.event && known.has(c.doc.refId) ? { ...c, event: known.get(c.doc.refId) } : c;
    if (c.scores.relevance === null) return withEvent;
    const isEvent = c.doc.kind === 'event';
    const f = (isEvent ? (factors.get(c.doc.refId) ?? 1) : 1) * timeFactor(c.doc.ts, when);
    const scaled = Math.min(1, c.scores.relevance * f);
    if (isEvent) factored.set(c.doc.refId, scaled);
    const relevance = isEvent ? clamp01(scaled + informationPrior(c.doc.text, s)) : scaled;
    if (relevance === c.scores.relevance) return withEvent;
    return { ...withEvent, scores: { ...c.scores, relevance, final: rescore(c, relevance) } };
  });
  return { out, factored };
}

/** Session neighbours of the top `seeds` events (see above), merged into `out`; re-sorted by `final`. */
async function addNeighbours(storage: Storage, req: ExpandRequest, s: ExpandSettings, out: Candidate[], known: ReadonlyMap<string, MemoryEvent>): Promise<Candidate[]> {
  const seeds = out
    .filter((c) => c.doc.kind === 'event' && c.doc.sessionId && known.has(c.doc.refId))
    .slice(0, s.seeds);
  const lists = await Promise.all(
    seeds.map((c) => {
      const e = known.get(c.doc.refId)!;
      return storage.queryEvents({
        tenant: req.tenant,
        scope: { ...req.scope, sessionId: e.sessionId },
        filter: req.filter,
        afterSeq: e.seq - s.seqSpan - 1,
        limit: 2 * s.seqSpan + 1,
        now: req.now,
      });
    }),
  );
  const inherited = new Map<string, { event: MemoryEvent; relevance: number }>();
  seeds.forEach((c, i) => {
    const rel = c.scores.relevance ?? 0;
    // A redacted event stays on the timeline as a tombstone with no doc: it is not a neighbour.
    const live = lists[i]!.filter((e) => e.metadata.redacted === undefined && e.content !== '');
    let { before, after } = adjacent(live, known.get(c.doc.refId)!.seq);
    for (let d = 1; d <= s.reach && (before || after); d++) {
      for (const [e, share] of [[before, s.shareBefore], [after, s.shareAfter]] as const) {
        if (!e) continue;
        const r = share ** d * rel;
        if (r > (inherited.get(e.id)?.relevance ?? 0)) inherited.set(e.id, { event: e, relevance: r });
      }
      before = before && adjacent(live, before.seq).before;
      after = after && adjacent(live, after.seq).after;
    }
  });
  if (inherited.size === 0) return out;
  const present = new Map(out.map((c, i) => [c.doc.kind === 'event' ? c.doc.refId : `\0${i}`, i]));
  for (const [id, { event, relevance }] of inherited) {
    const at = present.get(id);
    if (at !== undefined) {
      const c = out[at]!;
      if (relevance > (c.scores.relevance ?? 0)) out[at] = { ...c, event: c.event ?? event, scores: { ...c.scores, relevance, final: req.rescore(c, relevance) } };
      continue;
    }
    const base = { doc: eventToDoc(event), origin: 'semantic' as const, event };
    out.push({ ...base, scores: req.scoreNew(base, relevance) });
  }
  return out.sort(byFinal);
}
