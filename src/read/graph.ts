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
 * statement "Carol manages Alice." is read before "Alice manages Bob." (graph-support.ts); the relations render in an
 * "Entities" section (graph-render.ts).
 */
import { SYMMETRIC_TYPES, nameKey, type Entity, type Relation } from '../core/graph.js';
import type { GraphStore, ScopeFilter, TimelineStore } from '../ports/storage.js';
import type { TimeWindow } from './time-window.js';

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
  const hops: Hops = {
    storage,
    req,
    scope,
    cues: cuesOf(req.query),
    past: PAST.test(req.query),
    namedIds: new Set(named.map((e) => e.id)),
    history: { includeExpired: true, ...(req.asOf !== undefined ? { asOf: req.asOf } : {}), ...(req.validAt !== undefined ? { validAt: req.validAt } : {}) },
  };
  const scored = await scoreFirstHop(hops, named, self);
  await scoreSecondHop(hops, scored);
  const ranked = [...scored.values()].sort((a, b) => b.score - a.score || b.r.recordedAt - a.r.recordedAt).slice(0, req.limit ?? 20);
  return withEntities(storage, req.tenant, ranked);
}

/** A relation as graphRetrieve scores it: a GraphHit before its entities are loaded. */
type Scored = Omit<GraphHit, 'relation' | 'source' | 'target'> & { r: Relation };

/** What both hops are scored against: the query (its cues and tense), the entities it names, the scope and history. */
interface Hops {
  storage: GraphStore;
  req: GraphRequest;
  scope: ScopeFilter | undefined;
  cues: Cue[];
  past: boolean;
  namedIds: Set<string>;
  history: { includeExpired: true; asOf?: number; validAt?: number };
}

/** The relations of the named entities, each scored by the cues it answers and the other named entity it joins. */
async function scoreFirstHop({ storage, req, scope, cues, past, namedIds, history }: Hops, named: readonly Entity[], self: { name: string; at: number } | undefined): Promise<Map<string, Scored>> {
  /** Entities the query names as names (properName): only these make a relation strong by joining two of them. */
  const properIds = new Set(named.filter(properName).map((e) => e.id));
  const first = (await storage.queryRelations({ tenant: req.tenant, scope, entityIds: [...namedIds], ...history, limit: 500 })).filter((r) => inScope(r, scope));
  const scored = new Map<string, Scored>();
  const mentions = new Map(named.map((e) => [e.id, self && nameKey(e.name) === nameKey(self.name) ? self.at : mentionAt(req.query, e)]));
  for (const r of first) {
    const from = namedIds.has(r.sourceId) ? r.sourceId : r.targetId;
    const far = from === r.sourceId ? r.targetId : r.sourceId;
    const bonus = cueBonus(r, from, cues, req.query, mentions.get(from) ?? Number.NaN);
    const joins = properIds.has(far);
    const score = 1 + bonus + (joins ? 1 : 0) + 0.5 * r.confidence + timeAdjust(r, req.timeWindow, past, req.validAt);
    scored.set(r.id, { r, hop: 1, score, strong: bonus > 0 || joins, precise: bonus === 2 || joins, directed: bonus === 2 });
  }
  return scored;
}

/** Two hops: from the far ends of the best hop-1 edges, added to `scored`; a chain demotes the named entity's own edge of its type. */
async function scoreSecondHop({ storage, req, scope, cues, past, namedIds, history }: Hops, scored: Map<string, Scored>): Promise<void> {
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
}

/** The ranked relations with both their entities (a relation whose end is gone is left out), scores to 3 decimals. */
async function withEntities(storage: GraphStore, tenant: string, ranked: readonly Scored[]): Promise<GraphHit[]> {
  const entities = new Map((await storage.getEntities(tenant, [...new Set(ranked.flatMap((s) => [s.r.sourceId, s.r.targetId]))])).map((e) => [e.id, e]));
  return ranked.flatMap((s) => {
    const source = entities.get(s.r.sourceId);
    const target = entities.get(s.r.targetId);
    return source && target ? [{ relation: s.r, source, target, hop: s.hop, score: Math.round(s.score * 1000) / 1000, strong: s.strong, precise: s.precise === true, directed: s.directed === true }] : [];
  });
}
