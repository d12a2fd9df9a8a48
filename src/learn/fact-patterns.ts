/**
 * Statements of fact in plain sentences, read with deterministic patterns: subject / predicate / value.
 *
 *   first person   "I prefer dark mode"             → (self, prefers, dark mode)         preference
 *                  "I moved to Toronto"             → (self, lives_in, Toronto)          attribute
 *                  "my manager is Sam"              → (self, manager, Sam)               relationship
 *                  "I'm allergic to peanuts"        → (self, allergic_to, peanuts)       attribute
 *   third person   "Erin lives in Berlin."          → (Erin, lives_in, Berlin)
 *                  "Erin's manager is Sam."         → (Erin, manager, Sam)
 *
 * Deliberately narrow: a sentence is read only when one pattern covers it from its start (after an optional
 * "Actually," / "Btw," / "Also,") and the value is short; a question, a negation, a hedge ("I might move to …",
 * "if I lived in …") or a report of someone else's words reads as nothing. A missed statement costs less than a
 * wrong fact. Self-contained but for the sentence splitter (text.ts): the entity/relation extractor may later share its subjects.
 */
import { sentences } from './text.js';

export type StatementKind = 'preference' | 'attribute' | 'relationship';

export interface Statement {
  /** `self` for the speaker (first person); otherwise the named subject as written. */
  subject: string;
  /** Canonical snake_case predicate: lives_in, works_at, prefers, manager, allergic_to … */
  predicate: string;
  value: string;
  kind: StatementKind;
  /** The sentence it was read from. */
  sentence: string;
}

export const SELF = 'self';

/** Who "I" is for a record: its user id, else its speaker's name, else "user". */
export function selfSubject(who: { userId?: string | undefined; name?: string | undefined }): string {
  return who.userId ?? who.name ?? 'user';
}

/** The statement's subject with "I" resolved for the record it was read from. */
export function resolveSubject(st: Pick<Statement, 'subject'>, who: { userId?: string | undefined; name?: string | undefined }): string {
  return st.subject === SELF ? selfSubject(who) : st.subject;
}

const LEAD = String.raw`(?:(?:actually|also|btw|by the way|fyi|just so you know|oh|so|well|and|but|now)\s*,?\s+)*`;
/** A value: up to 8 words, stopping at a clause boundary (a dot inside a word, as in an address, is kept). */
const VALUE = String.raw`((?:[^,.;!?()\n]|\.(?=\S)){1,80}?)`;
const END = String.raw`\s*(?:[,;]\s*(?:and|but|so|because|since|which|though)\b.*|\s+(?:and|but|so|because|since|though|while)\s+(?:i|i'm|we|my|it|he|she|they|you)\b.*|\s+(?:now|these days|nowadays|for now|at the moment|since \w+(?: \d{4})?|last \w+|this \w+|a few \w+ ago|recently)\b.*)?[.!]?\s*$`;
/** A proper name: one to three capitalised words (Erin, Sam Lee, New York's …). */
const NAME = String.raw`([A-Z][\p{L}'-]+(?:\s+[A-Z][\p{L}'-]+){0,2})`;

const RELATIONS = [
  'manager', 'boss', 'wife', 'husband', 'partner', 'girlfriend', 'boyfriend', 'fiance', 'fiancee', 'sister', 'brother',
  'mother', 'mom', 'mum', 'father', 'dad', 'son', 'daughter', 'doctor', 'dentist', 'landlord', 'roommate', 'mentor',
  'teammate', 'cofounder', 'co-founder', 'dog', 'cat', 'best friend',
];
const ATTRIBUTES: Record<string, string> = {
  email: 'email', 'email address': 'email', phone: 'phone', 'phone number': 'phone', birthday: 'birthday',
  'time zone': 'timezone', timezone: 'timezone', name: 'name', 'job title': 'job_title', job: 'job_title',
  title: 'job_title', address: 'address', 'home address': 'address', 'blood type': 'blood_type',
  'shoe size': 'shoe_size', 'favorite color': 'favorite_color', 'favourite color': 'favorite_color',
  'favourite colour': 'favorite_color', 'favorite food': 'favorite_food', 'favourite food': 'favorite_food',
  'preferred language': 'preferred_language', 'native language': 'native_language',
};

interface Pattern {
  re: RegExp;
  predicate: string | ((m: RegExpExecArray) => string);
  kind: StatementKind;
  /** Index of the value group (the subject is group 1 for third-person patterns). */
  value: number;
  person: 'first' | 'third';
}

const rel = RELATIONS.map((r) => r.replace(/ /g, '\\s+')).join('|');
const attr = Object.keys(ATTRIBUTES).sort((a, b) => b.length - a.length).map((a) => a.replace(/ /g, '\\s+')).join('|');
const relKey = (s: string) => s.toLowerCase().replace(/\s+/g, '_').replace(/-/g, '').replace(/^(mom|mum)$/, 'mother').replace(/^dad$/, 'father').replace(/^boss$/, 'manager').replace(/^fiancee$/, 'fiance');
const attrKey = (s: string) => ATTRIBUTES[s.toLowerCase().replace(/\s+/g, ' ')] ?? s.toLowerCase().replace(/\s+/g, '_');

function first(body: string, predicate: Pattern['predicate'], kind: StatementKind): Pattern {
  return { re: new RegExp(`^${LEAD}${body}${END}`, 'iu'), predicate, kind, value: 1, person: 'first' };
}
function third(body: string, predicate: Pattern['predicate'], kind: StatementKind): Pattern {
  // The subject must be capitalised as written: no `i` flag on the name (case-insensitive parts use (?i) emulation).
  return { re: new RegExp(`^${NAME}${body}${END}`, 'u'), predicate, kind, value: 2, person: 'third' };
}

const PATTERNS: Pattern[] = [
  first(String.raw`i\s+(?:really\s+|much\s+|strongly\s+)?prefer\s+${VALUE}(?:\s+(?:over|to|rather than)\s+[^,.;!?]+)?`, 'prefers', 'preference'),
  first(String.raw`i(?:'m|\s+am)\s+(?:now\s+)?(?:living|based)\s+in\s+${VALUE}`, 'lives_in', 'attribute'),
  first(String.raw`i\s+(?:now\s+|currently\s+)?live\s+in\s+${VALUE}`, 'lives_in', 'attribute'),
  first(String.raw`i(?:'ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+)?(?:moved|relocated)\s+to\s+${VALUE}`, 'lives_in', 'attribute'),
  first(String.raw`i(?:'m|\s+am)\s+(?:now\s+)?(?:working|employed)\s+(?:at|for)\s+${VALUE}`, 'works_at', 'attribute'),
  first(String.raw`i\s+(?:now\s+|currently\s+)?work\s+(?:at|for)\s+${VALUE}`, 'works_at', 'attribute'),
  first(String.raw`i(?:'ve|\s+have)?\s+(?:just\s+)?(?:joined|started\s+at|started\s+working\s+at)\s+${VALUE}`, 'works_at', 'attribute'),
  first(String.raw`i(?:'m|\s+am)\s+(?:severely\s+|very\s+|mildly\s+)?allergic\s+to\s+${VALUE}`, 'allergic_to', 'attribute'),
  first(String.raw`i\s+(?:can\s+)?speak\s+${VALUE}`, 'speaks', 'attribute'),
  first(String.raw`i\s+(?:really\s+)?(?:like|love|enjoy|adore)\s+${VALUE}`, 'likes', 'preference'),
  first(String.raw`i\s+(?:really\s+)?(?:dislike|hate|can't\s+stand|cannot\s+stand|detest)\s+${VALUE}`, 'dislikes', 'preference'),
  first(String.raw`i(?:'m|\s+am)\s+(?:a\s+)?(vegetarian|vegan|pescatarian|teetotal|gluten[- ]free|lactose[- ]intolerant|left[- ]handed|right[- ]handed)`, 'diet_or_trait', 'attribute'),
  first(String.raw`my\s+(${rel})(?:'s\s+name)?\s+is\s+(?:called\s+|named\s+)?${VALUE}`, (m) => relKey(m[1]!), 'relationship'),
  first(String.raw`my\s+(${attr})\s+is\s+${VALUE}`, (m) => attrKey(m[1]!), 'attribute'),
  first(String.raw`(?:please\s+)?call\s+me\s+${VALUE}`, 'name', 'attribute'),
  first(String.raw`my\s+name(?:'s|\s+is)\s+${VALUE}`, 'name', 'attribute'),
  third(String.raw`\s+(?:now\s+|currently\s+)?(?:lives|is\s+living|is\s+based)\s+in\s+${VALUE}`, 'lives_in', 'attribute'),
  third(String.raw`\s+(?:has\s+)?(?:just\s+)?(?:moved|relocated)\s+to\s+${VALUE}`, 'lives_in', 'attribute'),
  third(String.raw`\s+(?:now\s+|currently\s+)?(?:works|is\s+working)\s+(?:at|for)\s+${VALUE}`, 'works_at', 'attribute'),
  third(String.raw`\s+(?:speaks)\s+${VALUE}`, 'speaks', 'attribute'),
  third(String.raw`\s+prefers\s+${VALUE}`, 'prefers', 'preference'),
  third(String.raw`\s+is\s+allergic\s+to\s+${VALUE}`, 'allergic_to', 'attribute'),
  third(String.raw`'s\s+(${rel})\s+is\s+${VALUE}`, (m) => relKey(m[2]!), 'relationship'),
  third(String.raw`'s\s+(${attr})\s+is\s+${VALUE}`, (m) => attrKey(m[2]!), 'attribute'),
];

/** Words that make a statement hypothetical, negated or reported: nothing is read from such a sentence. */
const HEDGE = /\b(?:not|never|no longer|don't|doesn't|didn't|won't|wouldn't|isn't|aren't|wasn't|might|may|maybe|perhaps|probably|if|whether|unless|wish|hope|think|thought|guess|suppose|should|could|would|want to|plan to|planning to|going to|thinking about|considering|said|says|told|asked)\b|\?/i;
const PRONOUN_VALUE = /^(?:it|that|this|them|those|these|him|her|there|here|one|some|any|something|anything|everything|nothing|you|me|us)$/i;

function cleanValue(v: string): string | undefined {
  const t = v.trim().replace(/\s+/g, ' ').replace(/^['"“”‘’]+|['"“”‘’]+$/gu, '');
  if (!t || t.split(' ').length > 8 || PRONOUN_VALUE.test(t)) return undefined;
  return t;
}

/** The statement one sentence makes, or undefined. */
export function readSentence(sentence: string): Statement | undefined {
  const s = sentence.trim();
  if (s.length === 0 || s.length > 200 || HEDGE.test(s)) return undefined;
  for (const p of PATTERNS) {
    const m = p.re.exec(s);
    if (!m) continue;
    const raw = m[p.value + (typeof p.predicate === 'function' ? 1 : 0)];
    const value = raw === undefined ? undefined : cleanValue(raw);
    if (!value) continue;
    const predicate = typeof p.predicate === 'function' ? p.predicate(m) : p.predicate;
    const subject = p.person === 'first' ? SELF : m[1]!;
    if (p.person === 'third' && /^(?:I|He|She|They|We|It|This|That|There|The|A|An|My|Our|Your)$/.test(subject)) continue;
    return { subject, predicate, value, kind: p.kind, sentence: s };
  }
  return undefined;
}

/** Every statement a text makes, one per sentence at most. */
export function readStatements(text: string): Statement[] {
  return sentences(text).flatMap((s) => {
    const st = readSentence(s);
    return st ? [st] : [];
  });
}

/** "lives_in" → "lives in": the predicate as words, for fact text. */
export function predicateWords(predicate: string): string {
  return predicate.replace(/_/g, ' ');
}

/**
 * The fact text of a statement about `who` (the speaker's name, or "The user"): "The user lives in Toronto.",
 * "The user's manager is Sam.", "The user prefers dark mode."
 */
export function statementText(st: Pick<Statement, 'predicate' | 'value' | 'kind'>, who: string): string {
  const verb: Record<string, string> = {
    lives_in: 'lives in', works_at: 'works at', prefers: 'prefers', likes: 'likes', dislikes: 'dislikes',
    speaks: 'speaks', allergic_to: 'is allergic to', diet_or_trait: 'is',
  };
  const v = verb[st.predicate];
  if (v) return `${who} ${v} ${st.value}.`;
  return `${who}'s ${predicateWords(st.predicate)} is ${st.value}.`;
}
