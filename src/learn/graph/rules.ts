/**
 * Entity and relation extraction without an LLM. Named entities (people, places, organisations) come from
 * compromise's offline English tagger; relations from patterns over the common phrasings ("works at",
 * "manages" / "reports to", "lives in" / "moved to", "married to", "likes" / "prefers", "owns", "uses",
 * "depends on", "caused" …). Entity resolution folds case, possessives and articles (`nameKey`), reads "I" /
 * "my" as the speaker of the turn, "my wife Maria" as Maria, and "he" / "she" / "they" as the one person other
 * than the speaker named in the turn or the turn before (only then: a pronoun with two candidates is skipped).
 *
 * Relations are stored in one canonical direction: "Bob reports to Alice" is `Alice manages Bob`; symmetric
 * types (married_to, friend_of, sibling_of) read both ways at query time.
 */
import { createRequire } from 'node:module';
import type Compromise from 'compromise';
import { exclusivity, nameKey } from '../../core/graph.js';
import { CONTRACTION, FIRST_PERSON, GROUP_NOUN, LEADING, NAME, NOT_NAMES, OBJECT_PRONOUNS, PRONOUN, STOP, THIRD_PERSON, cleanName, cleanThing, isCapitalized } from './lexicon.js';
import { APPOSITIVE, APPOSITIVE_ROLE, FAMILY, IS_ROLE, LOCATED, PAIR_STATE, PAIR_TYPES, ROLE_AT, ROLE_IS, ROLE_NAMED } from './phrasings-roles.js';
import { IS_ON, PATTERNS } from './phrasings-verbs.js';

export interface TurnInput {
  text: string;
  /** Who said or wrote it (a chat speaker's name); "I" and "my" resolve to it. */
  speaker?: string | undefined;
  /** The conversation it belongs to: pronouns look back only within it. */
  stream?: string | undefined;
}

export interface ExtractedEntity {
  name: string;
  entityType: string;
}

export interface ExtractedRelation {
  source: string;
  target: string;
  type: string;
  /** The sentence it was read from. */
  text: string;
  /** A new edge of this type replaces the source's old one (one home, one employer, one spouse), or the target's ('target': one manager). */
  exclusive: boolean | 'target';
}

export interface Extraction {
  entities: ExtractedEntity[];
  relations: ExtractedRelation[];
  /** People named in the turn, for the next turn's pronouns. */
  people: string[];
}


export { EXCLUSIVE_TYPES, SYMMETRIC_TYPES, TARGET_EXCLUSIVE_TYPES, exclusivity } from '../../core/graph.js';

/** Capitalised word runs of a text that could name someone or something (sentence-initial filler dropped). */
function nameCandidates(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(NAME_RUN)) {
    const name = cleanName(m[0]);
    if (name !== '' && isCapitalized(name) && !NOT_NAMES.has(name.toLowerCase()) && !LEADING.has(name.toLowerCase())) out.add(name);
  }
  return [...out];
}

const NAME_RUN = new RegExp(NAME, 'gu');
/**
 * The tagger is loaded on first use, not at import: its lexicon takes a few hundred ms to load, which a process
 * that only reads (or has not extracted yet) should not pay at start-up.
 */
let tagger: typeof Compromise | undefined;
const nlp = (text: string): ReturnType<typeof Compromise> => {
  tagger ??= createRequire(import.meta.url)('compromise') as typeof Compromise;
  return tagger(text);
};
const TYPE_CACHE = new Map<string, string | null>();
const TYPE_CACHE_MAX = 50_000;

/**
 * What the offline tagger (compromise) makes of a name on its own: person, place or organization, or null. Tagging
 * only the candidate names (cached: a conversation names the same people again and again) instead of whole turns
 * keeps extraction well above the learner's pace.
 */
export function taggedType(name: string): string | null {
  const known = TYPE_CACHE.get(name);
  if (known !== undefined) return known;
  const doc = nlp(name);
  const type = doc.people().found ? 'person' : doc.places().found ? 'place' : doc.organizations().found ? 'organization' : null;
  if (TYPE_CACHE.size >= TYPE_CACHE_MAX) TYPE_CACHE.delete(TYPE_CACHE.keys().next().value!);
  TYPE_CACHE.set(name, type);
  return type;
}

class Resolver {
  constructor(
    private readonly speaker: string | undefined,
    private readonly people: readonly string[],
  ) {}

  /** What "it" is in the current sentence as a subject (the thing it opened with) and as an object (the one thing it names). */
  itSubject: string | undefined;
  itObject: string | undefined;

  /** The entity a subject, possessor or object names; undefined when it cannot be resolved reliably. */
  resolve(raw: string): string | undefined {
    // "I'm", "we'll", "she's": the pronoun.
    const word = raw.toLowerCase().replace(CONTRACTION, '').replace(/['’]s$/, (m) => (THIRD_PERSON.has(raw.toLowerCase().slice(0, -2)) ? '' : m));
    if (FIRST_PERSON.has(word)) return this.speaker;
    if (word === 'it') return this.itSubject;
    if (THIRD_PERSON.has(word)) {
      const others = [...new Map(this.people.filter((n) => nameKey(n) !== nameKey(this.speaker ?? '')).map((n) => [nameKey(n), n])).values()];
      return others.length === 1 ? others[0] : undefined;
    }
    const name = cleanName(raw);
    if (name === '' || NOT_NAMES.has(name.toLowerCase())) return undefined;
    return name;
  }
}

const LEADING_SUBJECT = new RegExp(String.raw`^(${NAME}|${PRONOUN})${GROUP_NOUN}\s`, 'u');

/** Who or what a clause opens with ("Rita Gómez left …" → Rita Gómez), if it opens with a name or pronoun. */
function leadingSubject(clause: string, resolver: Resolver): string | undefined {
  const m = LEADING_SUBJECT.exec(clause);
  if (!m || LEADING.has(m[1]!.toLowerCase())) return undefined;
  return resolver.resolve(m[1]!);
}

const ALSO_NAMED = new RegExp(String.raw`^(?:\s+(?:for|as)\s+(?:(?:the|our|my|their)\s+)?[a-z][\p{L}-]*(?:\s+[a-z][\p{L}-]*){0,2}?)?(?:,\s*|\s+and\s+|,\s+and\s+)(${NAME})(?=[.,;:!?]|$|\s+(?:and|on|in|at|for|from|to|as|now|today|directly|since|until)\b)`, 'u');

/**
 * Names listed right after an object ("Bob and Dan on the team": Dan; "Sentry for errors and Grafana for dashboards":
 * Grafana), each followed by a pause or a preposition.
 */
function alsoNamed(tail: string): string[] {
  const out: string[] = [];
  let rest = tail;
  for (let m = ALSO_NAMED.exec(rest); m && out.length < 4; m = ALSO_NAMED.exec(rest)) {
    out.push(m[1]!);
    rest = rest.slice(m[0].length);
  }
  return out;
}

/**
 * A chat sentence that drops its subject opens with a verb of the patterns in the past or -ing form ("Moved to Austin.",
 * "Just started working at …"). A listed word, not any "-ed" / "-ing" word: names end so too ("Fred", "Beijing").
 */
const DROPPED_VERBS =
  'moved relocated started joined got bought adopted married visited went grew switched migrated accepted settled traveled travelled ' +
  'played studied loved liked enjoyed hated preferred moving working living studying using playing visiting dating';
const DROPPED_SUBJECT = new RegExp(String.raw`^(?:(?:Just|Finally|Recently|Also)\s+(?:${DROPPED_VERBS.replace(/ /g, '|')})|(?:${DROPPED_VERBS.split(' ').map((w) => w[0]!.toUpperCase() + w.slice(1)).join('|')}))\s`, 'u');

/**
 * The sentence as the patterns read it: a dropped subject restored as "I" (only with a speaker to resolve it), and
 * appositives cut out ("Orion, our billing service, depends on …" → "Orion depends on …"), each returned with its name.
 */
function normalized(sentence: string, speaker: string | undefined): { text: string; appositives: [string, string][] } {
  let text = speaker !== undefined && DROPPED_SUBJECT.test(sentence) ? `I ${sentence[0]!.toLowerCase()}${sentence.slice(1)}` : sentence;
  const appositives: [string, string][] = [];
  if (text.includes(',')) {
    text = text.replace(APPOSITIVE, (_all, name: string, appositive: string) => {
      appositives.push([name, appositive]);
      return `${name} `;
    });
  }
  return { text, appositives };
}

const IT = /(?<![\p{L}])it(?![\p{L}'’])/iu;
/** The clause opens with a name joined to the subject: "Kim and I …", "My partner Theo and I …". */
const CONJOINED = new RegExp(String.raw`^\s*(?:(?:[Mm]y|[Oo]ur|[Hh]is|[Hh]er|[Tt]heir)\s+[a-z]+\s+)?(${NAME})\s+and\s+$`, 'u');
const GROUP_SUBJECT = /^(?:the|our|my|their|his|her)\s+(team|group|squad|lab|department|family)\s/iu;
const PLACE_AFTER = new RegExp(String.raw`^\s+in\s+(${NAME})`, 'u');

/** Sentences of a turn (short turns are one sentence). */
function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/**
 * Extracts from one turn. `previousPeople`: people named in the turn before in the same conversation (for
 * pronouns).
 */
export function extractFromTurn(turn: TurnInput, previousPeople: readonly string[] = []): Extraction {
  const typed = new Map<string, ExtractedEntity>();
  /** `sure`: the phrasing says what it is (a role names a person), over the tagger's guess. */
  const add = (name: string, entityType: string, sure = false) => {
    const key = nameKey(name);
    if (key === '' || NOT_NAMES.has(key)) return;
    const known = typed.get(key);
    if (!known || sure || (known.entityType === 'thing' && entityType !== 'thing')) typed.set(key, { name: known?.name ?? name, entityType });
  };
  const people: string[] = [];
  for (const name of nameCandidates(turn.text)) {
    const type = taggedType(name);
    if (!type) continue;
    add(name, type);
    if (type === 'person') people.push(name);
  }
  const resolver = new Resolver(turn.speaker, [...people, ...previousPeople]);
  const relations: ExtractedRelation[] = [];
  const relate = (source: string | undefined, target: string | undefined, type: string, text: string, reverse: boolean) => {
    if (!source || !target) return;
    const [s, t] = reverse ? [target, source] : [source, target];
    if (nameKey(s) === nameKey(t)) return;
    relations.push({ source: s, target: t, type, text, exclusive: exclusivity(type) });
  };
  const typeOf = (name: string, fallback: string) => typed.get(nameKey(name))?.entityType ?? fallback;

  /** The object a pattern captured: a name, a pronoun standing alone ("reports to me"), or a lower-case thing. */
  const objectOf = (raw: string): string | undefined => {
    const [first = '', next] = raw.split(/\s+/);
    const bare = first.replace(/[.,;:!?)"]+$/g, '');
    if (OBJECT_PRONOUNS.has(bare.toLowerCase()) && (bare !== first || next === undefined || STOP.has(next.toLowerCase()))) {
      return bare.toLowerCase() === 'it' ? resolver.itObject : resolver.resolve(bare);
    }
    return isCapitalized(raw) && !FIRST_PERSON.has(raw.toLowerCase()) ? resolver.resolve(raw) : cleanThing(raw);
  };
  const isPerson = (raw: string, resolved: string) => FIRST_PERSON.has(raw.toLowerCase().replace(CONTRACTION, '')) || THIRD_PERSON.has(raw.toLowerCase()) || typeOf(resolved, '') === 'person';

  const notPerson = (name: string) => typeOf(name, taggedType(name) ?? '') !== 'person' && !FIRST_PERSON.has(name.toLowerCase().replace(CONTRACTION, ''));

  for (const sentence of sentences(turn.text)) {
    const { text: s, appositives } = normalized(sentence, turn.speaker);
    for (const [rawName, appositive] of appositives) {
      const named = resolver.resolve(rawName);
      const m = APPOSITIVE_ROLE.exec(appositive);
      if (!named || !m) continue;
      const owner = resolver.resolve(m[1]!.replace(/['’]s?$/, ''));
      if (!owner) continue;
      const role = FAMILY[m[2]!];
      if (role) {
        add(owner, typeOf(owner, 'person'));
        add(named, 'person', true);
        relate(owner, named, role.type, sentence, role.reverse);
      } else if (notPerson(owner) && !/^(?:my|his|her|their|our)$/i.test(m[1]!)) {
        // "the Tigers' goalkeeper": a role in a group.
        add(owner, typeOf(owner, 'organization'));
        add(named, typeOf(named, 'person'));
        relate(named, owner, 'member_of', sentence, false);
      }
    }
    resolver.itSubject = resolver.itObject = undefined;
    if (IT.test(s)) {
      const opening = LEADING_SUBJECT.exec(s)?.[1];
      const openingName = opening !== undefined && !LEADING.has(opening.toLowerCase()) ? resolver.resolve(opening) : undefined;
      resolver.itSubject = openingName !== undefined && isCapitalized(openingName) && notPerson(openingName) ? openingName : undefined;
      const things = nameCandidates(s).filter(notPerson);
      resolver.itObject = things.length === 1 ? things[0] : undefined;
    }
    for (const pat of PATTERNS) {
      if (!pat.verb.test(s)) continue;
      for (const m of s.matchAll(pat.re)) {
        // "The team uses …": the name pattern took the determiner and left the group noun.
        const subject = resolver.resolve(m[1]!) ?? GROUP_SUBJECT.exec(m[0])?.[1]?.toLowerCase();
        const object = objectOf(m[2]!);
        if (!subject || !object) continue;
        add(subject, typeOf(subject, pat.subjectType));
        add(object, typeOf(object, pat.objectType));
        relate(subject, object, pat.type, sentence, pat.reverse === true);
        // "Kim and I live in Denver": the name joined to the subject does it too.
        const joined = CONJOINED.exec(s.slice(0, m.index).split(/[;:]\s*/).pop()!);
        const partner = joined ? resolver.resolve(joined[1]!) : undefined;
        if (partner) {
          add(partner, typeOf(partner, pat.subjectType));
          relate(partner, object, pat.type, sentence, pat.reverse === true);
        }
        // "Marco owns Trattoria Sole in Naples": a business owned with its place.
        const place = pat.type === 'owns' && isCapitalized(m[2]!) ? PLACE_AFTER.exec(s.slice(m.index + m[0].length)) : null;
        const where = place ? resolver.resolve(place[1]!) : undefined;
        if (where && taggedType(where) === 'place') {
          add(where, 'place');
          relate(object, where, 'located_in', sentence, false);
        }
        // "I manage Bob and Dan": a named object coordinated with another name.
        if (isCapitalized(m[2]!)) {
          for (const more of alsoNamed(s.slice(m.index + m[0].length))) {
            const other = resolver.resolve(more);
            if (!other) continue;
            add(other, typeOf(other, pat.objectType));
            relate(subject, other, pat.type, sentence, pat.reverse === true);
          }
        }
      }
    }
    for (const m of s.matchAll(LOCATED)) {
      const [what, where] = [resolver.resolve(m[1]!), resolver.resolve(m[2]!)];
      if (!what || !where || typeOf(what, taggedType(what) ?? '') === 'person') continue;
      add(what, typeOf(what, 'organization'));
      add(where, typeOf(where, 'place'));
      relate(what, where, 'located_in', sentence, false);
    }
    for (const m of s.matchAll(ROLE_AT)) {
      const subject = resolver.resolve(m[1]!);
      // A role needs its verb, or a contracted one ("I'm the …"); and a person holding it.
      if (!subject || (m[2] === undefined && !/['’](?:m|s|re)$/i.test(m[1]!)) || !isPerson(m[1]!, subject)) continue;
      const org = resolver.resolve(m[4]!);
      // "the expert on Rome" is no job there.
      if (!org || (m[3] === 'on' && typeOf(org, taggedType(org) ?? '') === 'place')) continue;
      add(subject, typeOf(subject, 'person'));
      add(org, typeOf(org, 'organization'));
      relate(subject, org, 'works_at', sentence, false);
    }
    for (const pat of PATTERNS) {
      if (!pat.verb.test(s)) continue;
      for (const m of s.matchAll(pat.coordinated)) {
        // The subject the clause opened with ("…; Femi is our lead engineer and reports to me": Femi).
        const clause = s.slice(0, m.index).split(/;|:\s/).pop()!.trim();
        const subject = leadingSubject(clause, resolver);
        const object = objectOf(m[1]!);
        if (!subject || !object) continue;
        add(subject, typeOf(subject, pat.subjectType));
        add(object, typeOf(object, pat.objectType));
        relate(subject, object, pat.type, sentence, pat.reverse === true);
      }
    }
    for (const m of s.matchAll(PAIR_STATE)) {
      const [a, b] = [resolver.resolve(m[1]!), resolver.resolve(m[2]!)];
      if (!a || !b) continue;
      add(a, 'person', true);
      add(b, 'person', true);
      // The speaker first ("Ana and I got married": the speaker married_to Ana).
      if (m[2] === 'I') relate(b, a, PAIR_TYPES[m[3]!]!, sentence, false);
      else relate(a, b, PAIR_TYPES[m[3]!]!, sentence, false);
    }
    for (const m of s.matchAll(IS_ON)) {
      const subject = resolver.resolve(m[1]!);
      const platform = resolver.resolve(m[2]!);
      if (!subject || !platform || /['’]s?$/.test(m[2]!) || LEADING.has(platform.toLowerCase()) || ['person', 'place'].includes(typeOf(platform, taggedType(platform) ?? ''))) continue;
      add(subject, typeOf(subject, 'organization'));
      add(platform, typeOf(platform, 'thing'));
      relate(subject, platform, 'uses', sentence, false);
    }
    for (const re of [ROLE_NAMED, ROLE_IS]) {
      for (const m of s.matchAll(re)) {
        const owner = resolver.resolve(m[1]!.replace(/['’]s$/, ''));
        const named = resolver.resolve(m[3]!);
        const role = FAMILY[m[2]!.toLowerCase()]!;
        if (!owner || !named) continue;
        add(owner, typeOf(owner, 'person'));
        add(named, 'person', true);
        relate(owner, named, role.type, sentence, role.reverse);
      }
    }
    for (const m of s.matchAll(IS_ROLE)) {
      const named = resolver.resolve(m[1]!);
      const owner = resolver.resolve(m[2]!.replace(/['’]s$/, ''));
      const role = FAMILY[m[3]!.toLowerCase()]!;
      if (!owner || !named) continue;
      add(owner, typeOf(owner, 'person'));
      add(named, 'person', true);
      relate(owner, named, role.type, sentence, role.reverse);
    }
  }
  const seen = new Set<string>();
  const unique = relations.filter((r) => {
    const k = `${nameKey(r.source)}|${r.type}|${nameKey(r.target)}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  return { entities: [...typed.values()], relations: unique, people: [...new Set([...people, ...unique.flatMap((r) => [r.source, r.target]).filter((n) => typeOf(n, '') === 'person')])] };
}
