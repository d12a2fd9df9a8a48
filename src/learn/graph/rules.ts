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
import nlp from 'compromise';
import { nameKey } from '../../core/graph.js';

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

/** Types whose edge reads the same both ways. */
export const SYMMETRIC_TYPES: ReadonlySet<string> = new Set(['married_to', 'friend_of', 'sibling_of', 'colleague_of', 'dating']);
/** Types where a new edge from the same source closes the old one. */
export const EXCLUSIVE_TYPES: ReadonlySet<string> = new Set(['works_at', 'lives_in', 'married_to', 'dating', 'runs_on']);
/** Types where a new edge into the same target closes the old one (a person has one manager at a time). */
export const TARGET_EXCLUSIVE_TYPES: ReadonlySet<string> = new Set(['manages']);

/** How a relation of this type is written (see `RelationWrite.exclusive`). */
export const exclusivity = (type: string): boolean | 'target' => (EXCLUSIVE_TYPES.has(type) ? true : TARGET_EXCLUSIVE_TYPES.has(type) ? 'target' : false);

const NAME = String.raw`(?:\p{Lu}[\p{L}\p{M}'’.-]*(?:\s+(?:of\s+|de\s+|van\s+|von\s+|&\s+)?\p{Lu}[\p{L}\p{M}'’.-]*){0,3})`;
const PRONOUN = String.raw`(?:I|we|he|she|they|He|She|They|We)`;
const DETERMINED = String.raw`(?:[Tt]he|[Oo]ur|[Mm]y|[Hh]is|[Hh]er|[Tt]heir|[Tt]his|[Tt]hat)\s+[a-z][\p{L}\p{N}-]*`;
/** A word start (`\b` is ASCII-only: it fails before "Élodie"). */
const START = String.raw`(?<![\p{L}\p{N}_])`;
const SUBJECT = String.raw`(${NAME}|${PRONOUN}|${DETERMINED})`;
/** A lower-case object: one to four words, cut at the first stop word below. */
const THING = String.raw`((?:[\p{L}\p{N}][\p{L}\p{N}'’+#.-]*)(?:\s+[\p{L}\p{N}][\p{L}\p{N}'’+#.-]*){0,4})`;
const OBJECT = String.raw`(?:(?:the|a|an|my|his|her|their|our)\s+)?(${NAME}|${THING})`;
/** Up to two adverbs, modals or aspect verbs between subject and verb ("will now report to", "keep managing"). */
const ADV = String.raw`(?:(?:really|also|still|now|just|currently|actually|absolutely|totally|recently|finally|always|officially|directly|will|would|to|keep|keeps|kept|continue|continues)\s+){0,2}`;

const STOP = new Set(
  (
    'and or but because since when while with without in at on for to from by of as so that which who whom where ' +
    'yesterday today tomorrow last next this these those every very too lately recently again now then there here ' +
    'is was are were be been being has have had do does did will would can could should may might must ' +
    'i you he she it we they me him her us them my your his its our their a an the some any all much many more most named called over than instead rather about like into after before during'
  ).split(' '),
);

const FAMILY: Record<string, { type: string; reverse: boolean }> = {
  wife: { type: 'married_to', reverse: false },
  husband: { type: 'married_to', reverse: false },
  spouse: { type: 'married_to', reverse: false },
  partner: { type: 'dating', reverse: false },
  girlfriend: { type: 'dating', reverse: false },
  boyfriend: { type: 'dating', reverse: false },
  boss: { type: 'manages', reverse: true },
  manager: { type: 'manages', reverse: true },
  supervisor: { type: 'manages', reverse: true },
  friend: { type: 'friend_of', reverse: false },
  colleague: { type: 'colleague_of', reverse: false },
  coworker: { type: 'colleague_of', reverse: false },
  sister: { type: 'sibling_of', reverse: false },
  brother: { type: 'sibling_of', reverse: false },
  mother: { type: 'parent_of', reverse: true },
  mom: { type: 'parent_of', reverse: true },
  father: { type: 'parent_of', reverse: true },
  dad: { type: 'parent_of', reverse: true },
  son: { type: 'parent_of', reverse: false },
  daughter: { type: 'parent_of', reverse: false },
  kid: { type: 'parent_of', reverse: false },
  child: { type: 'parent_of', reverse: false },
  report: { type: 'manages', reverse: false },
};
const ROLE = Object.keys(FAMILY).join('|');

interface Pattern {
  re: RegExp;
  /** The verb phrase coordinated after another clause, its subject left out ("… and reports to Rita"). */
  coordinated: RegExp;
  /** The verb alone: a cheap test before the full pattern runs. */
  verb: RegExp;
  type: string;
  /** The canonical edge runs object → subject ("Bob reports to Alice": Alice manages Bob). */
  reverse?: boolean;
  /** What the object is when the tagger does not know it. */
  objectType: string;
  subjectType: string;
}

/** A group named after its name ("the Catalog team owns …"): the name is the subject. */
const GROUP_NOUN = String.raw`(?:\s+(?:team|group|squad|lab|department|family))?`;

const p = (verbs: string, type: string, objectType: string, reverse = false, subjectType = 'person'): Pattern => ({
  // "Élodie, who runs …": the relative clause's verb is the name's.
  re: new RegExp(String.raw`${START}${SUBJECT}${GROUP_NOUN}(?:,\s+who)?\s+${ADV}(?:${verbs})\s+${OBJECT}`, 'gu'),
  coordinated: new RegExp(String.raw`\b(?:and|but|then)\s+${ADV}(?:${verbs})\s+${OBJECT}`, 'gu'),
  verb: new RegExp(String.raw`\b(?:${verbs})\s`, 'u'),
  type,
  objectType,
  reverse,
  subjectType,
});

const PATTERNS: Pattern[] = [
  p(
    String.raw`works?\s+(?:remotely\s+)?(?:at|for)|worked\s+(?:remotely\s+)?(?:at|for)|(?:(?:am|is|are)\s+)?working\s+(?:remotely\s+)?(?:at|for)|is\s+employed\s+(?:at|by)|got\s+a\s+job\s+at|joined|started\s+working\s+at|(?:is|was)\s+hired\s+by|runs\s+(?:the\s+)?(?:[a-z-]+\s+){1,2}at|accepted\s+an?\s+(?:[a-z-]+\s+){0,2}(?:position|job|role|offer)\s+at`,
    'works_at',
    'organization',
  ),
  p(String.raw`manages?|managed|managing|supervises?|supervising|leads?|is\s+the\s+(?:manager|boss)\s+of|(?:is|was)\s+in\s+charge\s+of`, 'manages', 'person'),
  p(String.raw`reports?\s+to|reported\s+to|reporting\s+to|works?\s+under|(?:is|was|are|were|be)\s+(?:managed|supervised|led)\s+by`, 'manages', 'person', true),
  p(String.raw`maintains?|maintained|(?:is|am|are)\s+maintaining`, 'maintains', 'thing'),
  p(String.raw`(?:is|was|be)\s+maintained\s+by`, 'maintains', 'person', true, 'thing'),
  p(String.raw`coach(?:es)?|coached|(?:is|am|are)\s+coaching`, 'coaches', 'organization'),
  p(String.raw`(?:is|are|was|were|be)\s+coached\s+by`, 'coaches', 'person', true, 'organization'),
  p(String.raw`sponsors|sponsored|(?:is|are)\s+sponsoring`, 'sponsors', 'organization', false, 'organization'),
  p(String.raw`supplies|supplied|(?:is|are)\s+supplying`, 'supplies', 'organization', false, 'organization'),
  p(String.raw`lives?\s+in|lived\s+in|moved\s+to|relocated\s+to|is\s+living\s+in|settled\s+in|(?:(?:am|is|are)\s+)?based\s+in`, 'lives_in', 'place'),
  p(String.raw`(?:is|am|are|was|were)\s+from|grew\s+up\s+in|comes\s+from|was\s+born\s+in`, 'from', 'place'),
  p(String.raw`(?:(?:is|am|was|got)\s+)?married\s+to|married|wed`, 'married_to', 'person'),
  p(String.raw`runs\s+on|ran\s+on|(?:is|are|was)\s+running\s+on|(?:is|are|was)\s+hosted\s+on|(?:is|are)\s+migrating\s+(?:from\s+\S+\s+)?to|migrated\s+(?:from\s+\S+\s+)?to`, 'runs_on', 'thing', false, 'thing'),
  p(String.raw`(?:is|am|was|are)\s+(?:dating|engaged\s+to)`, 'dating', 'person'),
  p(String.raw`(?:is|am|are|was|were)\s+friends\s+with|befriended`, 'friend_of', 'person'),
  p(String.raw`likes?|loves?|enjoys?|liked|loved|enjoyed|(?:am|is|are)\s+(?:a\s+)?(?:big\s+)?fans?\s+of|(?:am|is|are)\s+into|adores?`, 'likes', 'thing'),
  p(String.raw`prefers?|preferred`, 'prefers', 'thing'),
  p(String.raw`(?:hates?|dislikes?|hated|disliked|can't\s+stand)`, 'dislikes', 'thing'),
  p(String.raw`owns?|owned|bought|adopted|(?:has|have)\s+(?:a|an|two|three)\s+(?=\w)`, 'owns', 'thing'),
  p(String.raw`(?:is|are|was|were)\s+owned\s+by`, 'owns', 'person', true, 'thing'),
  p(String.raw`uses|use|used|(?:is|am|are)\s+using|switched\s+to`, 'uses', 'thing'),
  p(String.raw`depends?\s+on|relies\s+on|rely\s+on|requires?`, 'depends_on', 'thing', false, 'thing'),
  p(String.raw`caused|causes|led\s+to|resulted\s+in|triggered|broke`, 'caused', 'thing', false, 'thing'),
  p(String.raw`(?:was|were|is)\s+caused\s+by|(?:was|were)\s+triggered\s+by`, 'caused', 'thing', true, 'thing'),
  p(String.raw`(?:study|studies|studied|(?:is|am|are)\s+studying|majored\s+in)`, 'studies', 'thing'),
  p(String.raw`(?:play|plays|played)`, 'plays', 'thing'),
  p(String.raw`(?:visited|traveled\s+to|travelled\s+to|went\s+to)`, 'visited', 'place'),
  p(String.raw`(?:is|am|was)\s+(?:a|an)\s+member\s+of|belongs\s+to`, 'member_of', 'organization'),
];

/** "my wife Maria", "her boss, Carol" → the named person in that role to the possessor. */
const POSSESSOR = String.raw`[Mm]y|[Hh]is|[Hh]er|[Tt]heir|[Oo]ur`;
const ROLE_NAMED = new RegExp(String.raw`${START}(${POSSESSOR}|${NAME}'s|${NAME}’s)\s+(?:new\s+|old\s+|former\s+)?(${ROLE})s?,?\s+(${NAME})`, 'gu');
/** "Alice's manager is Carol", "my wife is Maria". */
const ROLE_IS = new RegExp(String.raw`${START}(${POSSESSOR}|${NAME}'s|${NAME}’s)\s+(?:new\s+)?(${ROLE})\s+(?:is|was)\s+(${NAME})`, 'gu');
/** "Carol is Alice's manager", "Maria is my wife". */
const IS_ROLE = new RegExp(String.raw`${START}(${NAME}|${PRONOUN})\s+(?:is|was|became)\s+(${POSSESSOR}|${NAME}'s|${NAME}’s)\s+(?:new\s+)?(${ROLE})\b`, 'gu');

/** "X is the CTO at Globex", "I'm the sous-chef at Le Petit Four": a role at a named organisation (works_at). */
const ROLE_AT = new RegExp(
  String.raw`${START}${SUBJECT}\s+(?:((?:is|am|are|was|were))\s+)?(?:now\s+)?(?:the|a|an|our|their|its)\s+(?:new\s+)?(?:[\p{L}-]+\s+){1,3}?(?:at|for|of)\s+(?:the\s+)?(${NAME})`,
  'gu',
);
/** "Salt & Ember is in Bordeaux": where a named place, organisation or thing (not a person) is. */
const LOCATED = new RegExp(String.raw`${START}(${NAME})\s+(?:is|are)\s+(?:located\s+|based\s+|headquartered\s+)?in\s+(?:the\s+)?(${NAME})`, 'gu');
/** A pronoun object ("reports to me"): resolved like a subject when nothing but a preposition or the end follows. */
const OBJECT_PRONOUNS = new Set(['me', 'us', 'him', 'her', 'them']);
const CONTRACTION = /['’](?:ll|ve|m|d|re)$/;

const FIRST_PERSON = new Set(['i', 'me', 'my', 'we', 'our', 'us']);
const THIRD_PERSON = new Set(['he', 'she', 'they', 'his', 'her', 'their', 'him', 'them']);
const NOT_NAMES = new Set([
  'i', 'the', 'a', 'an', 'my', 'his', 'her', 'our', 'their', 'it', 'this', 'that', 'what', 'who', 'when', 'where', 'why', 'how', 'yes', 'no', 'oh',
  'hey', 'hi', 'hello', 'thanks', 'thank', 'wow', 'well', 'so', 'and', 'but', 'also', 'just', 'really', 'yeah', 'ok', 'okay', 'sure', 'great', 'nice',
  'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'today', 'yesterday', 'tomorrow', 'you', 'we', 'they', 'he', 'she',
]);

/** Trailing punctuation and a leading article off a name as it appears in text. */
function cleanName(raw: string): string {
  const words = raw.replace(/[’]/g, "'").replace(/'s$/i, '').replace(/[.,;:!?'"]+$/g, '').trim().split(/\s+/);
  while (words.length > 1 && LEADING.has(words[0]!.toLowerCase())) words.shift();
  return words.join(' ');
}

/** Capitalised at the start of a sentence, never part of a name. */
const MONTHS = 'january february march april may june july august september october november december'.split(' ');
const LEADING = new Set([...NOT_NAMES, ...STOP, ...MONTHS, 'then', 'later', 'finally', 'last', 'after', 'before', 'actually', 'anyway', 'maybe', 'since', 'because', 'although', 'apparently', 'honestly', 'btw', 'lol', 'um', 'also', 'now']);

/** A lower-case object cut at its first stop word; undefined when nothing is left. */
function cleanThing(raw: string): string | undefined {
  const words: string[] = [];
  for (const w of raw.split(/\s+/)) {
    const bare = w.replace(/[.,;:!?)"]+$/g, '');
    if (STOP.has(bare.toLowerCase())) break;
    words.push(bare);
    if (bare !== w) break;
  }
  const out = words.join(' ').replace(/'s$/i, '').trim();
  return out === '' || out.length < 2 ? undefined : out;
}

const isCapitalized = (s: string) => /^\p{Lu}/u.test(s);

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

  /** The entity a subject, possessor or object names; undefined when it cannot be resolved reliably. */
  resolve(raw: string): string | undefined {
    // "I'm", "we'll", "she's": the pronoun.
    const word = raw.toLowerCase().replace(CONTRACTION, '').replace(/['’]s$/, (m) => (THIRD_PERSON.has(raw.toLowerCase().slice(0, -2)) ? '' : m));
    if (FIRST_PERSON.has(word)) return this.speaker;
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

const ALSO_NAMED = new RegExp(String.raw`^(?:,\s*|\s+and\s+|,\s+and\s+)(${NAME})(?=[.,;:!?]|$|\s+(?:and|on|in|at|for|from|to|as|now|today|directly|since|until)\b)`, 'u');

/** Names listed right after an object ("Bob and Dan on the team": Dan), each followed by a pause or a preposition. */
function alsoNamed(tail: string): string[] {
  const out: string[] = [];
  let rest = tail;
  for (let m = ALSO_NAMED.exec(rest); m && out.length < 4; m = ALSO_NAMED.exec(rest)) {
    out.push(m[1]!);
    rest = rest.slice(m[0].length);
  }
  return out;
}

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
    if (OBJECT_PRONOUNS.has(bare.toLowerCase()) && (bare !== first || next === undefined || STOP.has(next.toLowerCase()))) return resolver.resolve(bare);
    return isCapitalized(raw) && !FIRST_PERSON.has(raw.toLowerCase()) ? resolver.resolve(raw) : cleanThing(raw);
  };
  const isPerson = (raw: string, resolved: string) => FIRST_PERSON.has(raw.toLowerCase().replace(CONTRACTION, '')) || THIRD_PERSON.has(raw.toLowerCase()) || typeOf(resolved, '') === 'person';

  for (const sentence of sentences(turn.text)) {
    for (const pat of PATTERNS) {
      if (!pat.verb.test(sentence)) continue;
      for (const m of sentence.matchAll(pat.re)) {
        const subject = resolver.resolve(m[1]!);
        const object = objectOf(m[2]!);
        if (!subject || !object) continue;
        add(subject, typeOf(subject, pat.subjectType));
        add(object, typeOf(object, pat.objectType));
        relate(subject, object, pat.type, sentence, pat.reverse === true);
        // "I manage Bob and Dan": a named object coordinated with another name.
        if (isCapitalized(m[2]!)) {
          for (const more of alsoNamed(sentence.slice(m.index + m[0].length))) {
            const other = resolver.resolve(more);
            if (!other) continue;
            add(other, typeOf(other, pat.objectType));
            relate(subject, other, pat.type, sentence, pat.reverse === true);
          }
        }
      }
    }
    for (const m of sentence.matchAll(LOCATED)) {
      const [what, where] = [resolver.resolve(m[1]!), resolver.resolve(m[2]!)];
      if (!what || !where || typeOf(what, taggedType(what) ?? '') === 'person') continue;
      add(what, typeOf(what, 'organization'));
      add(where, typeOf(where, 'place'));
      relate(what, where, 'located_in', sentence, false);
    }
    for (const m of sentence.matchAll(ROLE_AT)) {
      const subject = resolver.resolve(m[1]!);
      // A role needs its verb, or a contracted one ("I'm the …"); and a person holding it.
      if (!subject || (m[2] === undefined && !/['’](?:m|s|re)$/i.test(m[1]!)) || !isPerson(m[1]!, subject)) continue;
      const org = resolver.resolve(m[3]!);
      if (!org) continue;
      add(subject, typeOf(subject, 'person'));
      add(org, typeOf(org, 'organization'));
      relate(subject, org, 'works_at', sentence, false);
    }
    for (const pat of PATTERNS) {
      if (!pat.verb.test(sentence)) continue;
      for (const m of sentence.matchAll(pat.coordinated)) {
        // The subject the clause opened with ("…; Femi is our lead engineer and reports to me": Femi).
        const clause = sentence.slice(0, m.index).split(/;|:\s/).pop()!.trim();
        const subject = leadingSubject(clause, resolver);
        const object = objectOf(m[1]!);
        if (!subject || !object) continue;
        add(subject, typeOf(subject, pat.subjectType));
        add(object, typeOf(object, pat.objectType));
        relate(subject, object, pat.type, sentence, pat.reverse === true);
      }
    }
    for (const re of [ROLE_NAMED, ROLE_IS]) {
      for (const m of sentence.matchAll(re)) {
        const owner = resolver.resolve(m[1]!.replace(/['’]s$/, ''));
        const named = resolver.resolve(m[3]!);
        const role = FAMILY[m[2]!.toLowerCase()]!;
        if (!owner || !named) continue;
        add(owner, typeOf(owner, 'person'));
        add(named, 'person', true);
        relate(owner, named, role.type, sentence, role.reverse);
      }
    }
    for (const m of sentence.matchAll(IS_ROLE)) {
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
