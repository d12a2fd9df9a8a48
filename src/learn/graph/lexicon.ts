/** The word classes and name shapes the relation phrasings are written with (see rules.ts). */
export const NAME = String.raw`(?:\p{Lu}[\p{L}\p{M}'’.-]*(?:\s+(?:of\s+|de\s+|van\s+|von\s+|&\s+)?\p{Lu}[\p{L}\p{M}'’.-]*){0,3})`;
export const PRONOUN = String.raw`(?:I|we|he|she|they|it|He|She|They|We|It)`;
export const DETERMINED = String.raw`(?:[Tt]he|[Oo]ur|[Mm]y|[Hh]is|[Hh]er|[Tt]heir|[Tt]his|[Tt]hat)\s+[a-z][\p{L}\p{N}-]*`;
/** A word start (`\b` is ASCII-only: it fails before "Élodie"). */
export const START = String.raw`(?<![\p{L}\p{N}_])`;
export const SUBJECT = String.raw`(${NAME}|${PRONOUN}|${DETERMINED})`;
/** A lower-case object: one to four words, cut at the first stop word below. */
export const THING = String.raw`((?:[\p{L}\p{N}][\p{L}\p{N}'’+#.-]*)(?:\s+[\p{L}\p{N}][\p{L}\p{N}'’+#.-]*){0,4})`;
export const OBJECT = String.raw`(?:(?:the|a|an|my|his|her|their|our)\s+)?(${NAME}|${THING})`;
/** Up to two adverbs, modals or aspect verbs between subject and verb ("will now report to", "keep managing"). */
export const ADV = String.raw`(?:(?:really|also|still|now|just|currently|actually|absolutely|totally|recently|finally|always|officially|directly|will|would|to|keep|keeps|kept|continue|continues)\s+){0,2}`;

export const STOP = new Set(
  (
    'and or but because since when while with without in at on for to from by of as so that which who whom where ' +
    'yesterday today tomorrow last next this these those every very too lately recently again now then there here ' +
    'is was are were be been being has have had do does did will would can could should may might must ' +
    'i you he she it we they me him her us them my your his its our their a an the some any all much many more most named called over than instead rather about like into after before during'
  ).split(' '),
);


/** A group named after its name ("the Catalog team owns …"): the name is the subject. */
export const GROUP_NOUN = String.raw`(?:\s+(?:team|group|squad|lab|department|family))?`;

/** A pronoun object ("reports to me"): resolved like a subject when nothing but a preposition or the end follows. */
export const OBJECT_PRONOUNS = new Set(['me', 'us', 'him', 'her', 'them', 'it']);
export const CONTRACTION = /['’](?:ll|ve|m|d|re)$/;

export const FIRST_PERSON = new Set(['i', 'me', 'my', 'we', 'our', 'us']);
export const THIRD_PERSON = new Set(['he', 'she', 'they', 'his', 'her', 'their', 'him', 'them']);
export const NOT_NAMES = new Set([
  'i', 'the', 'a', 'an', 'my', 'his', 'her', 'our', 'their', 'it', 'this', 'that', 'what', 'who', 'when', 'where', 'why', 'how', 'yes', 'no', 'oh',
  'hey', 'hi', 'hello', 'thanks', 'thank', 'wow', 'well', 'so', 'and', 'but', 'also', 'just', 'really', 'yeah', 'ok', 'okay', 'sure', 'great', 'nice',
  'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'today', 'yesterday', 'tomorrow', 'you', 'we', 'they', 'he', 'she',
]);

/** Trailing punctuation and a leading article off a name as it appears in text. */
export function cleanName(raw: string): string {
  const words = raw.replace(/[’]/g, "'").replace(/'s$/i, '').replace(/[.,;:!?'"]+$/g, '').trim().split(/\s+/);
  while (words.length > 1 && LEADING.has(words[0]!.toLowerCase())) words.shift();
  return words.join(' ');
}

/** Capitalised at the start of a sentence, never part of a name. */
export const MONTHS = 'january february march april may june july august september october november december'.split(' ');
export const LEADING = new Set([...NOT_NAMES, ...STOP, ...MONTHS, 'then', 'later', 'finally', 'last', 'after', 'before', 'actually', 'anyway', 'maybe', 'since', 'because', 'although', 'apparently', 'honestly', 'btw', 'lol', 'um', 'also', 'now']);

/** A lower-case object cut at its first stop word; undefined when nothing is left. */
export function cleanThing(raw: string): string | undefined {
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

export const isCapitalized = (s: string) => /^\p{Lu}/u.test(s);
