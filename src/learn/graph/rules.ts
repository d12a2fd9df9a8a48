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
  /** A new edge of this type replaces the source's old one (one home, one employer, one spouse). */
  exclusive: boolean;
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
export const EXCLUSIVE_TYPES: ReadonlySet<string> = new Set(['works_at', 'lives_in', 'married_to', 'dating']);

const NAME = String.raw`(?:[A-Z][\p{L}\p{M}'’.-]*(?:\s+(?:of\s+|de\s+|van\s+|von\s+)?[A-Z][\p{L}\p{M}'’.-]*){0,3})`;
const PRONOUN = String.raw`(?:I|we|he|she|they|He|She|They|We)`;
const DETERMINED = String.raw`(?:[Tt]he|[Oo]ur|[Mm]y|[Hh]is|[Hh]er|[Tt]heir|[Tt]his|[Tt]hat)\s+[a-z][\p{L}\p{N}-]*`;
const SUBJECT = String.raw`(${NAME}|${PRONOUN}|${DETERMINED})`;
/** A lower-case object: one to four words, cut at the first stop word below. */
const THING = String.raw`((?:[\p{L}\p{N}][\p{L}\p{N}'’+#.-]*)(?:\s+[\p{L}\p{N}][\p{L}\p{N}'’+#.-]*){0,4})`;
const OBJECT = String.raw`(?:(?:the|a|an|my|his|her|their|our)\s+)?(${NAME}|${THING})`;
const ADV = String.raw`(?:(?:really|also|still|now|just|currently|actually|absolutely|totally|recently|finally|always)\s+)?`;

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
  type: string;
  /** The canonical edge runs object → subject ("Bob reports to Alice": Alice manages Bob). */
  reverse?: boolean;
  /** What the object is when the tagger does not know it. */
  objectType: string;
  subjectType: string;
}

const p = (verbs: string, type: string, objectType: string, reverse = false, subjectType = 'person'): Pattern => ({
  re: new RegExp(String.raw`\b${SUBJECT}\s+${ADV}(?:${verbs})\s+${OBJECT}`, 'gu'),
  type,
  objectType,
  reverse,
  subjectType,
});

const PATTERNS: Pattern[] = [
  p(String.raw`works?\s+(?:at|for)|worked\s+(?:at|for)|is\s+employed\s+(?:at|by)|got\s+a\s+job\s+at|joined|started\s+working\s+at|(?:is|was)\s+hired\s+by`, 'works_at', 'organization'),
  p(String.raw`manages?|managed|supervises?|leads?|is\s+the\s+(?:manager|boss)\s+of|(?:is|was)\s+in\s+charge\s+of`, 'manages', 'person'),
  p(String.raw`reports?\s+to|reported\s+to|works?\s+under|is\s+managed\s+by|was\s+managed\s+by`, 'manages', 'person', true),
  p(String.raw`lives?\s+in|lived\s+in|moved\s+to|relocated\s+to|is\s+living\s+in|settled\s+in|(?:am|is|are)\s+based\s+in`, 'lives_in', 'place'),
  p(String.raw`(?:is|am|are|was|were)\s+from|grew\s+up\s+in|comes\s+from|was\s+born\s+in`, 'from', 'place'),
  p(String.raw`(?:is|am|was|got)\s+married\s+to|married|wed`, 'married_to', 'person'),
  p(String.raw`(?:is|am|was|are)\s+(?:dating|engaged\s+to)`, 'dating', 'person'),
  p(String.raw`(?:is|am|are|was|were)\s+friends\s+with|befriended`, 'friend_of', 'person'),
  p(String.raw`likes?|loves?|enjoys?|liked|loved|enjoyed|(?:am|is|are)\s+(?:a\s+)?(?:big\s+)?fans?\s+of|(?:am|is|are)\s+into|adores?`, 'likes', 'thing'),
  p(String.raw`prefers?|preferred`, 'prefers', 'thing'),
  p(String.raw`(?:hates?|dislikes?|hated|disliked|can't\s+stand)`, 'dislikes', 'thing'),
  p(String.raw`owns?|owned|bought|adopted|(?:has|have)\s+(?:a|an|two|three)\s+(?=\w)`, 'owns', 'thing'),
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
const ROLE_NAMED = new RegExp(String.raw`\b(${POSSESSOR}|${NAME}'s|${NAME}’s)\s+(?:new\s+|old\s+|former\s+)?(${ROLE})s?,?\s+(${NAME})`, 'gu');
/** "Alice's manager is Carol", "my wife is Maria". */
const ROLE_IS = new RegExp(String.raw`\b(${POSSESSOR}|${NAME}'s|${NAME}’s)\s+(?:new\s+)?(${ROLE})\s+(?:is|was)\s+(${NAME})`, 'gu');
/** "Carol is Alice's manager", "Maria is my wife". */
const IS_ROLE = new RegExp(String.raw`\b(${NAME}|${PRONOUN})\s+(?:is|was|became)\s+(${POSSESSOR}|${NAME}'s|${NAME}’s)\s+(?:new\s+)?(${ROLE})\b`, 'gu');

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
const LEADING = new Set([...NOT_NAMES, ...STOP, 'then', 'later', 'finally', 'last', 'after', 'before', 'actually', 'anyway', 'maybe', 'since', 'because', 'although', 'apparently', 'honestly', 'btw', 'lol', 'um', 'also', 'now']);

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

class Resolver {
  constructor(
    private readonly speaker: string | undefined,
    private readonly people: readonly string[],
  ) {}

  /** The entity a subject, possessor or object names; undefined when it cannot be resolved reliably. */
  resolve(raw: string): string | undefined {
    const word = raw.toLowerCase();
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
  const doc = nlp(turn.text);
  const typed = new Map<string, ExtractedEntity>();
  const add = (name: string, entityType: string) => {
    const key = nameKey(name);
    if (key === '' || NOT_NAMES.has(key)) return;
    const known = typed.get(key);
    if (!known || (known.entityType === 'thing' && entityType !== 'thing')) typed.set(key, { name: known?.name ?? name, entityType });
  };
  const tagged = (list: string[]) => list.map(cleanName).filter((n) => n !== '' && isCapitalized(n));
  const people = tagged(doc.people().out('array') as string[]);
  for (const n of people) add(n, 'person');
  for (const n of tagged(doc.places().out('array') as string[])) add(n, 'place');
  for (const n of tagged(doc.organizations().out('array') as string[])) add(n, 'organization');
  if (turn.speaker) add(turn.speaker, 'person');

  const resolver = new Resolver(turn.speaker, [...people, ...previousPeople]);
  const relations: ExtractedRelation[] = [];
  const relate = (source: string | undefined, target: string | undefined, type: string, text: string, reverse: boolean) => {
    if (!source || !target) return;
    const [s, t] = reverse ? [target, source] : [source, target];
    if (nameKey(s) === nameKey(t)) return;
    relations.push({ source: s, target: t, type, text, exclusive: EXCLUSIVE_TYPES.has(type) });
  };
  const typeOf = (name: string, fallback: string) => typed.get(nameKey(name))?.entityType ?? fallback;

  for (const sentence of sentences(turn.text)) {
    for (const pat of PATTERNS) {
      for (const m of sentence.matchAll(pat.re)) {
        const subject = resolver.resolve(m[1]!);
        const rawObject = m[2]!;
        const object = isCapitalized(rawObject) && !FIRST_PERSON.has(rawObject.toLowerCase()) ? resolver.resolve(rawObject) : cleanThing(rawObject);
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
        add(named, 'person');
        relate(owner, named, role.type, sentence, role.reverse);
      }
    }
    for (const m of sentence.matchAll(IS_ROLE)) {
      const named = resolver.resolve(m[1]!);
      const owner = resolver.resolve(m[2]!.replace(/['’]s$/, ''));
      const role = FAMILY[m[3]!.toLowerCase()]!;
      if (!owner || !named) continue;
      add(owner, typeOf(owner, 'person'));
      add(named, 'person');
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
