/**
 * The judge's own word helpers (tokens, a light stemmer, generic-English vocabularies). They are kept apart from
 * the product's (src/learn/text.ts) on purpose: tuning how Engram reads text must never move how the bench
 * judges it. Generic English only, no word of any particular domain.
 */

const WORD_RE = /[\p{L}\p{N}]+(?:\.\p{N}+[\p{L}\p{N}]*)*(?:['’][\p{L}]+)?/gu;

function wordSet(list: string): ReadonlySet<string> {
  return new Set(list.split(/\s+/).filter(Boolean));
}

/** Function words and fillers. */
export const STOPWORDS = wordSet(`a about above after again against all also am an and any are aren't as at be because been
  before being below between both but by did didn't do does doesn't doing don't down during each few for from further had
  has have having he her here hers herself him himself his how i if in into is isn't it it's its itself just me more most
  my myself no nor not now of off on once only or other our ours ourselves out over own same she should so some such than
  that the their theirs them themselves then there these they this those through to too under until up very was wasn't we
  were weren't what when where which while who whom why will with won't would you your yours yourself yourselves still
  already yet instead via per within without onto upon get got gets getting went go goes going seen see saw one two three
  new old right exactly`);

/** Hedges: words that make a statement say less. */
export const HEDGES = wordSet(`often sometimes usually generally typically may might could can possibly perhaps probably tend
  tends tended various certain somewhat occasionally frequently commonly potentially arguably maybe`);

/** Words about diagnosing anything at all: they name no component, cause or circumstance. */
export const GENERIC_TERMS = wordSet(`issue issues problem problems thing things something stuff matter root cause causes caused
  causing diagnosis diagnose diagnosing diagnosed symptom symptoms initial initially lead leads leading led result results
  resulting based important common appropriate proper properly correct correctly incorrect incorrectly wrong wrongly
  misidentify misidentifying misidentified identify identifying identified investigate investigating check checking look
  looking seem seems seemed need needs make makes made take takes way ways case cases situation situations approach
  approaches factor factors aspect aspects kind type types fact really actually well good bad better worse likely unlikely
  first always never time times attention careful carefully consider considering understand understanding analysis analyze
  thorough thoroughly overall general specific particular report reports mention mentions mentioned episode episodes
  corrected correction appear appears suspect suspected`);

/** Lower-cased word tokens, first to last. */
export function tokens(text: string): string[] {
  return (text.normalize('NFKC').toLowerCase().match(WORD_RE) ?? []).map((t) => t.replace('’', "'"));
}

const SUFFIXES = ['ments', 'ment', 'ness', 'ings', 'ing', 'ied', 'edly', 'ed', 'ions', 'ion', 'ly'];

/** Light suffix stripping so "rotated/rotation" and "renews/renewal" meet; stems keep ≥ 3 letters. */
export function stem(word: string): string {
  let w = word;
  if (w.length <= 3 || /\d/.test(w)) return w;
  if (w.endsWith("'s")) w = w.slice(0, -2);
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(ss|us|is)$/.test(w) && w.length > 3) w = w.slice(0, -1);
  const suffix = SUFFIXES.find((s) => w.endsWith(s) && w.length - s.length >= 3 && (!s.startsWith('ion') || /[ts]ions?$/.test(w)));
  if (suffix) w = suffix === 'ied' ? `${w.slice(0, -3)}y` : w.slice(0, -suffix.length);
  if (w.endsWith('e') && w.length > 3) w = w.slice(0, -1);
  if (/([bdfgmnprt])\1$/.test(w) && w.length > 3) w = w.slice(0, -1);
  return w;
}

export interface Term {
  stem: string;
  surface: string;
}

/** Tokens that are not stopwords or single characters, with their stems. */
export function contentTerms(text: string): Term[] {
  return tokens(text)
    .filter((t) => t.length >= 2 && !STOPWORDS.has(t))
    .map((t) => ({ stem: stem(t), surface: t }));
}

/** Numbers, versions and measurements ("500", "v7.0.12", "40ms"). */
export function isNumberLike(s: string): boolean {
  return /^v?\d+(?:\.\d+)*[a-z%]{0,3}$/.test(s);
}

const GENERIC_STEMS: ReadonlySet<string> = new Set([...GENERIC_TERMS, ...HEDGES].map(stem));

export function isGenericStem(s: string): boolean {
  return GENERIC_STEMS.has(s);
}

/** Sentences (split after . ! ? followed by space, or at line breaks). */
export function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Without a leading "Label:" / "Label -". */
export function stripLabel(text: string, labels: readonly string[]): string {
  const t = text.trim();
  for (const label of labels) {
    const re = new RegExp(`^${label}\\s*[:\\-–—]\\s*`, 'i');
    if (re.test(t)) return t.replace(re, '').trim();
  }
  return t;
}

/** One line without trailing punctuation. */
export function tidy(text: string): string {
  return text.replace(/\s+/g, ' ').trim().replace(/[\s,;:.]+$/, '');
}
