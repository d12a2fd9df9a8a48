/**
 * Timeline expansion of a ranked candidate list: uses of what a memory is besides its words — when it was
 * written (a date the query names doubles the relevance of memories from then: time-window.ts), who said it,
 * and what was said around it.
 *
 *   conversation   the information prior of turns.ts on every event candidate, then its answers and
 *                  same-author context among the top `eventWindow` (50) event candidates, whose events are loaded.
 *   neighbours     The events up to `reach` (2) turns before and after each of the top `seeds` (3) events, in
 *                  the same session, join the candidates with a share of the seed's relevance (a hit's reply or
 *                  its question often holds the answer in other words: "You drew it? What does it mean to
 *                  you?" → "It stands for freedom and being real"):
 *                    relevance(n) = max(own relevance, shareAfter^d · relevance(seed))    n d turns after the seed
 *                                   max(own relevance, shareBefore^d · relevance(seed))   n d turns before it
 *                  (shares 0.7 and 0.6; the best seed wins). Each item stays one event.
 *   author field   Last, when the query names the author (`MemoryEvent.name`: a chat speaker, an agent, a tool) of
 *                  some of the event candidates but not all of them, that author's events gain `authorBonus`
 *                  (0.15) relevance. The name is in the indexed text ("Name: content"), but a name shared by half a
 *                  conversation carries almost no IDF, and a reply that addresses the person ("Wow, Caroline, …")
 *                  matches it as well as what that person said. It comes after the other steps so that it orders
 *                  what they found rather than feeding them: a neighbour or a reply inherits from a turn's
 *                  relevance before the bonus, and the bonus goes only to what the named author said.
 *   asker's author field  Outside a conversation between people (the steps above are off there), where the
 *                  author field has no person's name to read: when the query speaks in the first person singular
 *                  ("How many bikes do I own?") and the event candidates in view come from the asker's role
 *                  ("user", "human") and at least one other author, the asker's events that state something (not
 *                  every sentence a question) gain the same bonus. "I" in a question put to an assistant is the
 *                  user; a long answer that repeats the question's words, or a request of the user's that only
 *                  asks, holds none of what the user said about themselves. Measured in docs/benchmarks.md
 *                  ("The asker's author field").
 *
 * Cost: one `getEvents` for the top `eventWindow` (50) event candidates (authors, sessions and sequence
 * numbers), one `queryEvents` per seed (an index range of at most 2·seqSpan + 1 rows of the seed's session around it), and
 * none when no candidate is an event with a session.
 *
 * Measured (LoCoMo evidence recall@10, categories 1–4, `npm run bench:locomo --`, same tree with and without this
 * step): hybrid `search` dev (conv-26, -30, -41; tuned there) 0.659 → 0.734, held-out seven 0.626 → 0.694;
 * `getContext` 0.658 → 0.735 and 0.622 → 0.691. Paraphrase-dev unchanged (its notes have no author and no
 * session). On dev, the author field alone gives ≈ 0.69, one-turn neighbours alone ≈ 0.72; seeds 3, 5 or 10
 * and shares ±0.1 around the chosen ones move dev R@10 by ≤ 0.008; reach 3 = reach 2; a noisy-OR of own and
 * inherited relevance instead of the max was lower. Cost: session recall@10 falls (0.885 → 0.852: neighbours
 * fill slots from the seeds' sessions) and so does category 3 (0.32 → 0.30); ≈ 1.5–3 ms a query on this
 * machine, independent of the store's size.
 *
 * The author field was a penalty until 2026-11-24 (events by authors the query does not name kept 0.8 of their
 * relevance, before the other steps). As a bonus after them: hybrid R@10 0.782 → 0.797 (dev 0.813 → 0.823,
 * held-out 0.772 → 0.789), paraphrase-dev unchanged; a bonus of 0.10 / 0.12 / 0.15 / 0.20 gives 0.795 / 0.796
 * / 0.797 / 0.796. The same bonus applied before the other steps gives 0.781, and a stronger penalty (0.3,
 * 0.4) 0.781 and 0.780: lifting a turn before the neighbours and the context step lifts the other person's
 * replies around it too.
 */
import { conversationSchema, type ConversationConfig } from '../core/config.js';
import { eventToDoc } from '../core/docs.js';
import type { FilterNode } from '../core/filter.js';
import type { DocKind, MemoryEvent } from '../core/types.js';
import { ANSWERER_ROLES, ASKER_ROLES } from '../core/speakers.js';
import type { ScopeFilter, Storage } from '../ports/storage.js';
import { words } from './text.js';
import { atRelevance, clamp01 } from './score.js';
import { statementProfile } from './statements.js';
import { answerQuestions, informationPrior, sameAuthorContext, timelinePositions } from './turns.js';
import { queryTimeWindow, timeFactor, type TimeWindow } from './time-window.js';
import type { Candidate } from './types.js';

export interface ExpandSettings {
  /** Relevance gained by the events of an author the query names (some, not all, of those in view); 0: off. */
  authorBonus: number;
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
export function conversationSettings(
  c: ConversationConfig,
): Pick<ExpandSettings, 'informationWeight' | 'informationReference' | 'answerShare' | 'contextShare' | 'contextReach' | 'authorBonus'> {
  return {
    authorBonus: c.author_bonus,
    informationWeight: c.information_weight,
    informationReference: c.information_reference,
    answerShare: c.answer_share,
    contextShare: c.context_share,
    contextReach: c.context_reach,
  };
}

export const EXPAND_DEFAULTS: Readonly<ExpandSettings> = {
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
  /** The time the query names, when the caller has read it already (null: it names none); else read here. */
  timeWindow?: TimeWindow | null | undefined;
  /** Recomputes `final` of a candidate at a new relevance (same weights, route and time). */
  rescore: (c: Candidate, relevance: number) => number;
  /** Scores a neighbour that was not a candidate, at the relevance it inherits. */
  scoreNew: (c: Omit<Candidate, 'scores'>, relevance: number) => Candidate['scores'];
  settings?: Partial<ExpandSettings> | undefined;
  /**
   * Whether the candidates read as a conversation between people (conversation.ts). When false, only the time
   * window applies: no information prior, answers, same-author context, session neighbours or author field.
   */
  conversational?: boolean | undefined;
  /** Events the caller loaded already (by id): read from here before storage. */
  loaded?: ReadonlyMap<string, MemoryEvent> | undefined;
}

/** The conversation steps switched off (a store that does not read as people talking). */
export const NOT_CONVERSATIONAL: Readonly<Partial<ExpandSettings>> = { authorBonus: 0, informationWeight: 0, answerShare: 0, contextShare: 0, seeds: 0 };

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
 * The authors the query names among those of the event candidates whose events are loaded, when it names some
 * of them but not all (naming every author, or none, says nothing about whose words are wanted).
 */
export function namedAuthors(query: string, candidates: readonly Candidate[]): Set<string> {
  const present = new Set(candidates.map((c) => c.event?.name).filter((n): n is string => n !== undefined && n !== ''));
  const named = mentionedNames(query, present);
  return named.size < present.size ? named : new Set();
}

/** The author field (see above): events by an author the query names gain `bonus` relevance; re-sorted. */
export function favourNamedAuthors(query: string, out: Candidate[], bonus: number, rescore: ExpandRequest['rescore']): Candidate[] {
  const named = namedAuthors(query, out);
  if (named.size === 0) return out;
  return out
    .map((c) => {
      if (c.scores.relevance === null || !c.event?.name || !named.has(c.event.name)) return c;
      const relevance = Math.min(1, c.scores.relevance + bonus);
      return { ...c, scores: atRelevance(c, relevance, rescore) };
    })
    .sort(byFinal);
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
 * Applies the time window and the conversation steps, adds session neighbours, then the author field (see
 * above); returns the candidates re-sorted by `final`. Candidates that are not events get the time window only.
 */
export async function expandCandidates<C extends Candidate>(storage: Storage, req: ExpandRequest, ranked: readonly C[]): Promise<Candidate[]> {
  const configured = { ...EXPAND_DEFAULTS, ...req.settings };
  const s = req.conversational === false ? { ...configured, ...NOT_CONVERSATIONAL } : configured;
  const head = ranked.filter((c) => c.doc.kind === 'event').slice(0, s.eventWindow);
  const when = req.timeWindow === undefined ? queryTimeWindow(req.query, req.now) : (req.timeWindow ?? undefined);
  if (head.length === 0 && when === undefined) return [...ranked];
  const known = new Map(head.filter((c) => c.event).map((c) => [c.doc.refId, c.event!]));
  for (const c of head) if (!known.has(c.doc.refId) && req.loaded?.has(c.doc.refId)) known.set(c.doc.refId, req.loaded.get(c.doc.refId)!);
  const missing = head.map((c) => c.doc.refId).filter((id) => !known.has(id));
  if (missing.length > 0) for (const e of await storage.getEvents(req.tenant, missing)) known.set(e.id, e);

  const { out, factored } = reweigh(ranked, known, when, s, req.rescore);
  const positions = timelinePositions(out, known);
  if (s.answerShare > 0) answerQuestions(out, positions, factored, s.answerShare, req.rescore);
  if (s.contextShare > 0) sameAuthorContext(out, positions, s.contextShare, s.contextReach, req.rescore);
  out.sort(byFinal);
  const expanded = s.seeds <= 0 || (req.kinds && !req.kinds.includes('event')) ? out : await addNeighbours(storage, req, s, out, known);
  // Outside a conversation between people the author field has no names to read; the query's first person names the asker.
  if (req.conversational === false) return configured.authorBonus > 0 ? favourAsker(req.query, expanded, configured.authorBonus, req.rescore) : expanded;
  return s.authorBonus > 0 ? favourNamedAuthors(req.query, expanded, s.authorBonus, req.rescore) : expanded;
}

const FIRST_PERSON_RE = /\b(?:i|me|my|mine|myself)\b/iu;

/** "you" as the asker's object ("what did I tell you", "have I told you", "to you"): not the one who said something. */
const YOU_AS_OBJECT_RE = /\bi(?:['’](?:ve|d))?\s+(?:\w+\s+){0,2}you\b|\b(?:to|with|for|from|at|about|by|asked|thank)\s+you\b/giu;
/** Verbs of holding in memory: "did you note …", "you remembered …" ask what the asker said, not what "you" said. */
const MEMORY_VERB = String.raw`(?:remember|recall|know|note|save|store|record|hear|learn|keep|kept|knew|heard|learnt)\w*`;
/** A common irregular past tense or participle (the regular ones end in -ed). */
const IRREGULAR_PAST = String.raw`(?:said|told|gave|given|sent|wrote|written|put|came|brought|found|made|chose|chosen|showed|shown|thought|meant|left|set)`;
/**
 * The one addressed said or gave something in the past: "did you <verb>" ("did you recommend"), "you <past>" ("the
 * recipe you gave me", "you'd suggested"), or "your" ("your advice"); not when the verb holds in memory.
 */
const ADDRESSEE_SAID_RE = new RegExp(
  String.raw`\bdid\s+you\s+(?!${MEMORY_VERB}\b)\w+|\byou(?:['’](?:d|ve)|\s+had|\s+have)?\s+(?!${MEMORY_VERB}\b)(?:\w+ed|${IRREGULAR_PAST})\b|\byour\b`,
  'iu',
);

/** Whether a question asks what the one it addresses ("you") said, recommended or gave, rather than what the asker said. */
export function asksWhatYouSaid(query: string): boolean {
  return ADDRESSEE_SAID_RE.test(query.replace(YOU_AS_OBJECT_RE, ' '));
}

/**
 * The asker's author field (see above): outside a conversation between people, when the query speaks in the first
 * person singular and the event candidates in view come from the asker's role ("user") and at least one other author,
 * the asker's events that state something (not every sentence a question) gain `bonus` relevance; re-sorted. When the
 * question asks what "you" said ("what did you recommend for my …"), the field goes to the answerer's role
 * ("assistant") instead: its turns are the evidence, and the asker's own turns only what was asked about.
 */
export function favourAsker(query: string, out: Candidate[], bonus: number, rescore: ExpandRequest['rescore']): Candidate[] {
  if (!FIRST_PERSON_RE.test(query)) return out;
  const role = (c: Candidate) => c.event?.name?.trim().toLowerCase();
  const authors = new Set(out.map(role).filter((n): n is string => n !== undefined && n !== ''));
  if (authors.size < 2 || ![...authors].some((n) => ASKER_ROLES.has(n))) return out;
  const toAnswerer = asksWhatYouSaid(query);
  const favoured = (c: Candidate, r: string) => (toAnswerer ? ANSWERER_ROLES.has(r) : ASKER_ROLES.has(r) && statementProfile(c.doc.text).questionShare < 1);
  return out
    .map((c) => {
      const r = role(c);
      if (c.scores.relevance === null || r === undefined || !favoured(c, r)) return c;
      return { ...c, scores: atRelevance(c, Math.min(1, c.scores.relevance + bonus), rescore) };
    })
    .sort(byFinal);
}

/**
 * The time factor, then the information prior (a shift, events only). Returns the candidates with their loaded
 * events riding along (getContext renders from them instead of loading them again, and the author field reads
 * their names), and each event's relevance after the time factor and before the prior: what its answer inherits.
 */
function reweigh(
  ranked: readonly Candidate[],
  known: ReadonlyMap<string, MemoryEvent>,
  when: ReturnType<typeof queryTimeWindow>,
  s: ExpandSettings,
  rescore: ExpandRequest['rescore'],
): { out: Candidate[]; factored: Map<string, number> } {
  const factored = new Map<string, number>();
  const out = ranked.map((c): Candidate => {
    const withEvent = c.doc.kind === 'event' && !c.event && known.has(c.doc.refId) ? { ...c, event: known.get(c.doc.refId) } : c;
    if (c.scores.relevance === null) return withEvent;
    const isEvent = c.doc.kind === 'event';
    const scaled = Math.min(1, c.scores.relevance * timeFactor(c.doc.ts, when));
    if (isEvent) factored.set(c.doc.refId, scaled);
    const relevance = isEvent ? clamp01(scaled + informationPrior(c.doc.text, s)) : scaled;
    if (relevance === c.scores.relevance) return withEvent;
    return { ...withEvent, scores: atRelevance(c, relevance, rescore) };
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
      if (relevance > (c.scores.relevance ?? 0)) out[at] = { ...c, event: c.event ?? event, scores: atRelevance(c, relevance, req.rescore) };
      continue;
    }
    const base = { doc: eventToDoc(event), origin: 'semantic' as const, event };
    out.push({ ...base, scores: req.scoreNew(base, relevance) });
  }
  return out.sort(byFinal);
}
