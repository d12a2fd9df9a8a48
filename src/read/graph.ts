/**
 * Graph-aware retrieval. The entities a query names are found by name or alias (every 1–4-word span of the
 * query, resolved like stored names: case, possessives and articles folded); their relations (1 hop) and the
 * relations of their neighbours (2 hops) are ranked by what the query asks:
 *
 *   score = 1 (hop 1) or 0.5 (hop 2)
 *         + 2   the relation type is one the query's words ask for, read in the direction they ask
 *               ("Alice's manager": someone manages Alice, so Carol→Alice, not Alice→Bob); symmetric types
 *               either way; at hop 2, halved unless the hop-1 edge it continues matched too
 *         + 1   the far end is named in the query as well (as a name: a common word made an entity is not)
 *         + 0.5 · confidence
 *         − 1   the edge is closed (history) and the query names no time and no past; with a time named,
 *               an edge valid then gains 1 and one not valid then loses 1.
 *
 * The memories that support the strongest relations (those the query's words asked for, or joining two named
 * entities) join the candidates at the relevance of the best one; where the query said the direction (or the
 * relation chains or joins two named entities) ahead of the others, in the order of their relations, so the
 * statement "Carol manages Alice." is read before "Alice manages Bob."; the relations render in an "Entities" section.
 */
import { eventToDoc } from '../core/docs.js';
import { matchesFilter, type FilterNode } from '../core/filter.js';
import { nameKey, relationSentence, type Entity, type GraphProvenance, type Relation } from '../core/graph.js';
import { SCOPE_KEYS, type Doc, type DocKind } from '../core/types.js';
import type { GraphStore, ScopeFilter, TimelineStore } from '../ports/storage.js';
import { SYMMETRIC_TYPES } from '../learn/graph/rules.js';
import { sectionBlock } from './render.js';
import type { TimeWindow } from './time-window.js';
import type { Candidate, ReadDeps } from './types.js';

export interface GraphHit {
  relation: Relation;
  source: Entity;
  target: Entity;
  hop: 1 | 2;
  score: number;
  /** The query asked for this relation (type and direction) or it joins two entities the query names. */
  strong: boolean;
  /** Strong, and the query said the direction (or it chains, or joins two named entities): what word search misses. */
  precise?: boolean | undefined;
  /** The query said this relation's type and direction (or it continues such a chain): not merely two names joined. */
  directed?: boolean | undefined;
}

/** What a context result carries for each relation shown (JSON-ready). */
export interface GraphHitView {
  relationId: string;
  text: string;
  type: string;
  source: { id: string; name: string; entityType: string };
  target: { id: string; name: string; entityType: string };
  hop: number;
  score: number;
  confidence: number;
  validFrom: string | null;
  validTo: string | null;
  expired: boolean;
  provenance: GraphProvenance;
  /** The statement it was read from, as written. */
  statement: string | null;
}

export interface GraphRequest {
  tenant: string;
  scope?: ScopeFilter | undefined;
  query: string;
  /** Transaction time: relations as Engram held them then. */
  asOf?: number | undefined;
  /** The time the query names, if any (valid time). */
  timeWindow?: TimeWindow | null | undefined;
  /** Valid time: the relations that held in the world at this instant (a later contradiction does not hide them). */
  validAt?: number | undefined;
  limit?: number | undefined;
  /** The read's time (expired events stay out when the speaker is looked up). */
  now?: number | undefined;
}

/** Which relation types a query's words ask for, and which end the named entity is ('source': it is the subject). */
interface Cue {
  re: RegExp;
  types: string[];
  named: 'source' | 'target' | 'either';
  /** A verb ("manages"), whose direction word order tells; a role noun ("manager") says it itself. */
  verb?: boolean;
  /** The verb reads backwards ("reports to X": X is the source of `manages`). */
  passive?: boolean;
}

const CUES: Cue[] = [
  { re: /\b(manager|boss|supervisor)\b/i, types: ['manages'], named: 'target' },
  { re: /\b(reports? to|reported to|reporting to|works? under|managed by|supervised by|run by|led by)\b/i, types: ['manages'], named: 'target', verb: true, passive: true },
  { re: /\b(manages?|managing|managed|supervis(?:es?|ed|ing)|leads?|leading|runs?|running)\b/i, types: ['manages'], named: 'source', verb: true },
  { re: /\b(maintain(?:s|ed|ing|er|ers)?)\b/i, types: ['maintains'], named: 'source', verb: true },
  { re: /\b(coach(?:es|ed|ing)?)\b/i, types: ['coaches'], named: 'source', verb: true },
  { re: /\b(sponsor(?:s|ed|ing)?)\b/i, types: ['sponsors'], named: 'source', verb: true },
  { re: /\b(suppl(?:y|ies|ied|ier|iers|ying))\b/i, types: ['supplies'], named: 'source', verb: true },
  { re: /\b(direct reports?|team|reports)\b/i, types: ['manages'], named: 'source' },
  // "work out" is exercise, not employment.
  { re: /\b(?:(?:work|works|worked|working)(?!\s+out\b)|job|employer|employed|company|firm)\b/i, types: ['works_at'], named: 'either' },
  { re: /\b(live|lives|lived|living|home|moved?|reside|resides|based|city|town)\b/i, types: ['lives_in', 'located_in'], named: 'either' },
  { re: /\b(from|grew up|born|hometown|origin)\b/i, types: ['from'], named: 'either' },
  { re: /\b(married|wife|husband|spouse|partner|girlfriend|boyfriend|dating|engaged)\b/i, types: ['married_to', 'dating'], named: 'either' },
  { re: /\b(friends?|befriend\w*)\b/i, types: ['friend_of'], named: 'either' },
  { re: /\b(sister|brother|sibling)s?\b/i, types: ['sibling_of'], named: 'either' },
  { re: /\b(mother|father|mom|dad|parents?)\b/i, types: ['parent_of'], named: 'target' },
  { re: /\b(uncles?|aunts?|aunties|nephews?|nieces?|cousins?|grand(?:mother|father|ma|pa|son|daughter|parent|child|children|kids?)s?|relatives?|in-laws?)\b/i, types: ['relative_of'], named: 'either' },
  { re: /\b(sons?|daughters?|kids?|children|child)\b/i, types: ['parent_of'], named: 'source' },
  // "like" after a verb of seeming or a form of "be" compares ("look like", "is like"): it asks for no liking.
  { re: /(?<!\b(?:looks?|looked|looking|feels?|felt|feeling|sounds?|sounded|seems?|seemed|is|was|be|are|were)\s+)\b(like|likes|liked|love|loves|enjoy|enjoys|favou?rite|fan|into|hobby|hobbies|interest\w*|passion\w*)\b/i, types: ['likes', 'prefers'], named: 'either' },
  { re: /\b(prefer|prefers|preferred|preference)\b/i, types: ['prefers', 'likes'], named: 'either' },
  { re: /\b(hate|hates|dislike|dislikes)\b/i, types: ['dislikes'], named: 'either' },
  { re: /\b(own|owns|owned|pets?|dog|cat|bought|adopted|car)\b/i, types: ['owns'], named: 'either' },
  { re: /\b(use|uses|used|using|tool|stack|language)\b/i, types: ['uses'], named: 'either' },
  { re: /\b(runs? on|ran on|running on|hosted|machine|cluster|server|infrastructure|migrat\w*)\b/i, types: ['runs_on'], named: 'either' },
  { re: /\b(depend|depends|dependency|dependencies|relies|rely|requires?)\b/i, types: ['depends_on'], named: 'either' },
  { re: /\b(why|cause|caused|causes|because|reason|root cause|led to|result)\b/i, types: ['caused'], named: 'either' },
  { re: /\b(study|studies|studied|major|degree|school|education)\b/i, types: ['studies'], named: 'either' },
  { re: /\b(play|plays|played|instrument|sport)\b/i, types: ['plays'], named: 'either' },
  { re: /\b(visit|visited|travel\w*|trip|went to|been to)\b/i, types: ['visited'], named: 'either' },
  { re: /\b(member|belongs?|group|club)\b/i, types: ['member_of'], named: 'either' },
];

const PAST = /\b(before|previously|used to|formerly|former|earlier|originally|at first|did \w+ (?:live|work)|was|were)\b/i;
/** Words never looked up as names on their own. */
const STOP = new Set(
  'a an the of to in on at for from by with and or but is are was were be been do does did has have had what who whom whose which when where why how i me my you your he him his she her it its we us our they them their this that these those there here not no yes can could would should will about as into than then so if any some all'.split(
    ' ',
  ),
);

/** The 1–4-word spans of the query that could name an entity. */
export function querySpans(query: string): string[] {
  // "&" stands as a word of its own ("Salt & Ember").
  const words = query.match(/[\p{L}\p{N}][\p{L}\p{N}'’&.-]*|&/gu) ?? [];
  const spans = new Set<string>();
  for (let i = 0; i < words.length; i++) {
    for (let n = 1; n <= 4 && i + n <= words.length; n++) {
      const span = words.slice(i, i + n);
      if (span.every((w) => STOP.has(nameKey(w)))) continue;
      if (n === 1 && nameKey(span[0]!).length < 2) continue;
      spans.add(span.join(' '));
    }
  }
  return [...spans].slice(0, 200);
}

function cuesOf(query: string): Cue[] {
  return CUES.filter((c) => c.re.test(query));
}

/**
 * How well `r` answers the cues, read from the end `from` (the entity the walk arrived at). `at`: where the query
 * names that entity (character offset), when it does: a verb cue then reads the direction from word order ("who
 * manages Alice": Alice after the verb, so Alice is the target; "who does Alice manage": the source). A bridge
 * entity (hop 2) is not in the query: the type alone counts.
 */
function cueBonus(r: Relation, from: string, cues: readonly Cue[], query: string, at: number | undefined): number {
  for (const c of cues) {
    if (!c.types.includes(r.type)) continue;
    if (SYMMETRIC_TYPES.has(r.type) || c.named === 'either' || at === undefined) return TOPICAL;
    let named = c.named;
    const verb = c.verb && Number.isFinite(at) ? c.re.exec(query) : null;
    if (verb) named = at > verb.index !== (c.passive === true) ? 'target' : 'source';
    if ((named === 'source' && r.sourceId === from) || (named === 'target' && r.targetId === from)) return 2;
  }
  return 0;
}

/** A type match whose direction the query does not say: as strong, but search finds its words as well. */
const TOPICAL = 1.999;

/** "I", "me", "my" in a query. */
const FIRST_PERSON = /\b(?:I|[Mm]e|[Mm]y|[Mm]ine|[Mm]yself)\b/;
const SPEAKER_WINDOW = 200;

/**
 * Who "I" is in a query: the speaker of the scope's recent user turns when they are all one person's (an
 * assistant's user), as extraction reads "I" in a turn; with two or more speakers, nobody.
 */
async function selfSpeaker(storage: Partial<Pick<TimelineStore, 'queryEvents'>>, req: GraphRequest): Promise<{ name: string; at: number } | undefined> {
  const m = FIRST_PERSON.exec(req.query);
  if (!m || !storage.queryEvents) return undefined;
  const recent = await storage.queryEvents({ tenant: req.tenant, ...(req.scope ? { scope: req.scope } : {}), lastN: SPEAKER_WINDOW, now: req.now ?? Date.now() });
  const names = new Map(recent.filter((e) => e.actor === 'user' && e.name).map((e) => [nameKey(e.name!), e.name!]));
  return names.size === 1 ? { name: [...names.values()][0]!, at: m.index } : undefined;
}

/**
 * An entity the query can be said to name: a person, place, organisation or date, or a thing whose name is written
 * as a name (a capital, a digit, or code-like: "Orbit", "checkout-api"). Extraction also makes entities of common
 * words ("Jon likes running"); a query using the word ("… about running a business") does not name them.
 */
export function properName(e: Pick<Entity, 'entityType' | 'name'>): boolean {
  return e.entityType !== 'thing' || /[\p{Lu}\p{N}_./-]/u.test(e.name);
}

/** Where the query names an entity (its name or an alias), or undefined. */
function mentionAt(query: string, e: Entity): number | undefined {
  const q = query.toLowerCase();
  for (const n of [e.name, ...e.aliases]) {
    const i = q.indexOf(n.toLowerCase());
    if (i >= 0) return i;
  }
  return undefined;
}

function timeAdjust(r: Relation, window: TimeWindow | null | undefined, past: boolean, validAt: number | undefined): number {
  if (validAt !== undefined) return 0;
  if (window) {
    const from = r.validFrom ?? r.recordedAt;
    const to = r.validTo ?? Number.POSITIVE_INFINITY;
    return from < window.end && to > window.start ? 1 : -1;
  }
  return r.expiredAt !== undefined && !past ? -1 : 0;
}

const inScope = (r: { userId?: string | undefined; agentId?: string | undefined }, scope: ScopeFilter | undefined) =>
  !scope || ((scope.userId === undefined || r.userId === scope.userId) && (scope.agentId === undefined || r.agentId === scope.agentId));

/** Graph scope: entities and relations are kept per user and agent, never per session or task. */
const graphScope = (scope: ScopeFilter | undefined): ScopeFilter | undefined =>
  scope && (scope.userId !== undefined || scope.agentId !== undefined) ? { ...(scope.userId !== undefined ? { userId: scope.userId } : {}), ...(scope.agentId !== undefined ? { agentId: scope.agentId } : {}) } : undefined;

/** Relations around the entities the query names, best first. */
export async function graphRetrieve(storage: GraphStore & Partial<Pick<TimelineStore, 'queryEvents'>>, req: GraphRequest): Promise<GraphHit[]> {
  const self = await selfSpeaker(storage, req);
  const spans = [...querySpans(req.query), ...(self ? [self.name] : [])];
  if (spans.length === 0) return [];
  const scope = graphScope(req.scope);
  const named = await storage.findEntities({ tenant: req.tenant, scope, names: spans, limit: 20 });
  if (named.length === 0) return [];
  const cues = cuesOf(req.query);
  const past = PAST.test(req.query);
  const namedIds = new Set(named.map((e) => e.id));
  /** Entities the query names as names (properName): only these make a relation strong by joining two of them. */
  const properIds = new Set(named.filter(properName).map((e) => e.id));
  const history = { includeExpired: true, ...(req.asOf !== undefined ? { asOf: req.asOf } : {}), ...(req.validAt !== undefined ? { validAt: req.validAt } : {}) };
  const first = (await storage.queryRelations({ tenant: req.tenant, scope, entityIds: [...namedIds], ...history, limit: 500 })).filter((r) => inScope(r, scope));
  const scored = new Map<string, { r: Relation; hop: 1 | 2; score: number; strong: boolean; precise?: boolean | undefined; directed?: boolean | undefined }>();
  const mentions = new Map(named.map((e) => [e.id, self && nameKey(e.name) === nameKey(self.name) ? self.at : mentionAt(req.query, e)]));
  for (const r of first) {
    const from = namedIds.has(r.sourceId) ? r.sourceId : r.targetId;
    const far = from === r.sourceId ? r.targetId : r.sourceId;
    const bonus = cueBonus(r, from, cues, req.query, mentions.get(from) ?? Number.NaN);
    const joins = properIds.has(far);
    const score = 1 + bonus + (joins ? 1 : 0) + 0.5 * r.confidence + timeAdjust(r, req.timeWindow, past, req.validAt);
    scored.set(r.id, { r, hop: 1, score, strong: bonus > 0 || joins, precise: bonus === 2 || joins, directed: bonus === 2 });
  }
  // Two hops: from the far ends of the best hop-1 edges.
  const chained = new Set<string>();
  /** The hop-1 edges a chain continues. */
  const chainHeads = new Set<unknown>();
  const seeds = [...scored.values()].sort((a, b) => b.score - a.score).slice(0, 5);
  const farIds = [...new Set(seeds.map((s) => (namedIds.has(s.r.sourceId) ? s.r.targetId : s.r.sourceId)).filter((id) => !namedIds.has(id)))];
  if (farIds.length > 0 && cues.length > 0) {
    const parent = new Map(seeds.map((s) => [namedIds.has(s.r.sourceId) ? s.r.targetId : s.r.sourceId, s]));
    const second = (await storage.queryRelations({ tenant: req.tenant, scope, entityIds: farIds, ...history, limit: 500 })).filter((r) => inScope(r, scope));
    for (const r of second) {
      if (scored.has(r.id)) continue;
      const from = parent.has(r.sourceId) ? r.sourceId : r.targetId;
      const via = parent.get(from);
      if (!via) continue;
      const bonus = cueBonus(r, from, cues, req.query, undefined) * (via.strong ? 1 : 0.5);
      const when = timeAdjust(r, req.timeWindow, past, req.validAt);
      const chain = bonus >= TOPICAL && via.strong && r.type !== via.r.type && when >= 0;
      // A chain (the question's first relation, then another it asks about from there) answers right after its first hop.
      const score = chain ? via.score - 0.05 : 0.5 + bonus + 0.5 * r.confidence + when;
      scored.set(r.id, { r, hop: 2, score, strong: bonus >= TOPICAL && via.strong && when >= 0, precise: chain && via.precise === true, directed: chain && via.directed === true });
      // A chain answers its cue's types: "my brother's wife" is not my own partner, married or dating.
      if (chain) chainHeads.add(via);
      if (chain) for (const c of cues) if (c.types.includes(r.type)) for (const t of c.types) chained.add(t);
    }
    // The named entity's own relation of a type a chain answers is about the wrong one ("Alice's manager's home", not Alice's).
    for (const s of scored.values()) {
      if (s.hop === 1 && chained.has(s.r.type) && !(namedIds.has(s.r.sourceId) && namedIds.has(s.r.targetId)) && !chainHeads.has(s)) {
        s.score -= 1.5;
        s.strong = false;
      }
    }
  }
  const ranked = [...scored.values()].sort((a, b) => b.score - a.score || b.r.recordedAt - a.r.recordedAt).slice(0, req.limit ?? 20);
  const entities = new Map((await storage.getEntities(req.tenant, [...new Set(ranked.flatMap((s) => [s.r.sourceId, s.r.targetId]))])).map((e) => [e.id, e]));
  return ranked.flatMap((s) => {
    const source = entities.get(s.r.sourceId);
    const target = entities.get(s.r.targetId);
    return source && target ? [{ relation: s.r, source, target, hop: s.hop, score: Math.round(s.score * 1000) / 1000, strong: s.strong, precise: s.precise === true, directed: s.directed === true }] : [];
  });
}

const iso = (t: number | undefined) => (t === undefined ? null : new Date(t).toISOString());

export function hitView(h: GraphHit): GraphHitView {
  const end = (e: Entity) => ({ id: e.id, name: e.name, entityType: e.entityType });
  return {
    relationId: h.relation.id,
    text: relationSentence(h.relation, h.source.name, h.target.name),
    type: h.relation.type,
    source: end(h.source),
    target: end(h.target),
    hop: h.hop,
    score: h.score,
    confidence: h.relation.confidence,
    validFrom: iso(h.relation.validFrom),
    validTo: iso(h.relation.validTo),
    expired: h.relation.expiredAt !== undefined,
    provenance: { origin: h.relation.provenance.origin, eventIds: [...h.relation.provenance.eventIds], factIds: [...h.relation.provenance.factIds] },
    statement: h.relation.text ?? null,
  };
}

/** One line of the Entities section: the relation, its time, and where it was read. */
export function entityLine(h: GraphHit, provenanceInline: boolean): string {
  const r = h.relation;
  const when = [r.validFrom !== undefined ? `since ${iso(r.validFrom)!.slice(0, 10)}` : '', r.validTo !== undefined ? `until ${iso(r.validTo)!.slice(0, 10)}` : ''].filter(Boolean).join(' ');
  const from = provenanceInline ? [...r.provenance.eventIds, ...r.provenance.factIds].slice(0, 3).join(', ') : '';
  const tail = [when, from ? `from ${from}` : ''].filter(Boolean).join('; ');
  return `- ${relationSentence(r, h.source.name, h.target.name)}${tail ? ` (${tail})` : ''}`;
}

export interface SupportRequest {
  tenant: string;
  scope: ScopeFilter;
  filter?: FilterNode | undefined;
  kinds?: readonly DocKind[] | undefined;
  /** Events before this (the episodic TTL) stay out. */
  cutoff?: number | undefined;
  /** Scores a new candidate at a relevance (the caller's weights, route and time). */
  scoreNew: (c: Pick<Candidate, 'doc'>, relevance: number) => Candidate['scores'];
  /** Recomputes `final` at a new relevance. */
  rescore: (c: Candidate, relevance: number) => number;
  /** At most this many supporting memories join. */
  max?: number | undefined;
}

const docInScope = (doc: Pick<Doc, 'userId' | 'agentId' | 'sessionId' | 'taskId'>, scope: ScopeFilter) => SCOPE_KEYS.every((k) => scope[k] === undefined || doc[k] === scope[k]);

/**
 * The events supporting the strong hits, at the relevance of the best candidate (in the order of the hits): those
 * already ranked are lifted to it, the others are loaded and join. Returns the ranked list with them.
 */
export async function withGraphSupport(deps: ReadDeps, req: SupportRequest, ranked: readonly Candidate[], hits: readonly GraphHit[]): Promise<Candidate[]> {
  if (req.kinds && !req.kinds.includes('event')) return [...ranked];
  const top = Math.max(0, ...ranked.map((c) => c.scores.relevance ?? 0)) || 1;
  const wanted = new Map<string, number>();
  const precise = new Set<string>();
  for (const h of hits.filter((x) => x.strong)) {
    for (const id of h.relation.provenance.eventIds) {
      if (wanted.size >= (req.max ?? 5)) break;
      // Earlier (stronger) hits sit a hair above later ones.
      if (!wanted.has(id)) wanted.set(id, top * (1 - 0.01 * wanted.size));
      if (h.precise) precise.add(id);
    }
  }
  if (wanted.size === 0) return [...ranked];
  // Ahead of every other candidate, in the order of the hits: the graph read what the query asks.
  const bestFinal = Math.max(0, ...ranked.map((c) => c.scores.final));
  const order = [...wanted.keys()];
  const ahead = (id: string, final: number) => (precise.has(id) ? Math.max(final, bestFinal + 0.001 * (order.length - order.indexOf(id))) : final);
  const out = ranked.map((c) => {
    const lift = c.doc.kind === 'event' ? wanted.get(c.doc.refId) : undefined;
    if (lift === undefined) return c;
    const relevance = Math.max(c.scores.relevance ?? 0, lift);
    return { ...c, scores: { ...c.scores, relevance, final: ahead(c.doc.refId, req.rescore(c, relevance)) } };
  });
  const present = new Set(ranked.filter((c) => c.doc.kind === 'event').map((c) => c.doc.refId));
  const missing = [...wanted.keys()].filter((id) => !present.has(id));
  if (missing.length > 0) {
    for (const e of await deps.storage.getEvents(req.tenant, missing)) {
      const doc = eventToDoc(e);
      if (!docInScope(doc, req.scope) || (req.cutoff !== undefined && doc.ts < req.cutoff) || !matchesFilter({ ...doc, docId: -1 } as Doc, req.filter)) continue;
      const scores = req.scoreNew({ doc }, wanted.get(e.id)!);
      out.push({ doc, origin: 'semantic', event: e, scores: { ...scores, final: ahead(e.id, scores.final) } });
    }
  }
  return out.sort((a, b) => b.scores.final - a.scores.final);
}

/**
 * The hits whose supporting memories getContext lifts: those read in the direction the query says (and their
 * chains), and a strong relation matched by type alone (or joining two named entities) when it is the only strong
 * one of its type among the hits. One relation of the type asked about is the graph's answer ("Which company
 * employs Jonah?": his one `works_at`); several ("What does John love?" over a chatty person's five `likes`) leave
 * the choice to the query's other words, which search weighs. Every strong hit still shows in the Entities section.
 */
export function liftingHits(hits: readonly GraphHit[]): GraphHit[] {
  const undirected = new Map<string, number>();
  for (const h of hits) if (h.strong && !h.directed) undirected.set(h.relation.type, (undirected.get(h.relation.type) ?? 0) + 1);
  return hits.filter((h) => h.directed === true || (h.strong && undirected.get(h.relation.type) === 1));
}

/**
 * `search`'s graph step: the memories supporting the relations the query asks for by type and direction ("Alice's
 * manager", "who reports to Carol", and the chains they start) join the ranked list ahead of the rest, as
 * `withGraphSupport` does for getContext. Narrower than getContext's step: a relation that only matches a topic
 * word or joins two named people is left to word and vector search. The list comes back as it was when the query
 * names no stored entity or asks for no directed relation.
 */
export async function withGraphCandidates(
  deps: ReadDeps,
  req: SupportRequest & { query: string; timeWindow?: TimeWindow | null | undefined; validAt?: number | undefined },
  ranked: readonly Candidate[],
  /** The same request's `graphRetrieve`, when the caller started it earlier (it reads only the query). */
  retrieved?: Promise<GraphHit[]>,
): Promise<Candidate[]> {
  const hits = await (retrieved ?? graphRetrieve(deps.storage, { tenant: req.tenant, scope: req.scope, query: req.query, timeWindow: req.timeWindow, validAt: req.validAt }));
  const directed = hits.filter((h) => h.directed);
  if (directed.length === 0) return [...ranked];
  return withGraphSupport(deps, req, ranked, directed);
}

/** At most this share of the token budget goes to the Entities section; the memories keep the rest. */
export const ENTITIES_BUDGET_SHARE = 0.25;
export const MAX_ENTITY_LINES = 8;

/**
 * The "Entities" section: the best relations, each with its time and provenance, while it fits its share of the
 * budget. Empty (no text) when there are no hits or none fits.
 */
export function entitiesSection(
  hits: readonly GraphHit[],
  opts: { budget: number; tokens: { count(text: string): number }; provenanceInline: boolean; scrub?: ((t: string) => string) | undefined },
): { text: string; tokens: number; shown: GraphHit[] } {
  const cap = Math.floor(opts.budget * ENTITIES_BUDGET_SHARE);
  const shown: GraphHit[] = [];
  let text = '';
  for (const h of hits.slice(0, MAX_ENTITY_LINES)) {
    const line = entityLine(h, opts.provenanceInline);
    const lines = [...shown.map((x) => entityLine(x, opts.provenanceInline)), opts.scrub ? opts.scrub(line) : line];
    const next = sectionBlock('Entities', lines);
    if (opts.tokens.count(next) > cap) break;
    shown.push(h);
    text = next;
  }
  return { text, tokens: text ? opts.tokens.count(text) + 2 : 0, shown };
}
