/**
 * Word-level helpers for the learn path: content terms (stopwords out, light stemming so "exhausted" and
 * "exhaustion" meet), sentence splitting and clipping at word boundaries. The vocabularies here are generic
 * English (function words, hedges, meta-words about diagnosis), never words of any particular domain.
 */

/** Words; apostrophes inside words and dots between digits ("v2.14.3", "4.2") stay inside the token. */
const WORD_RE = /[\p{L}\p{N}]+(?:\.\p{N}+[\p{L}\p{N}]*)*(?:['’][\p{L}]+)?/gu;

/** English function words and fillers: they never carry the content of a heuristic. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  `a about above after again against all also am an and any are aren't as at be because been before being below
  between both but by did didn't do does doesn't doing don't down during each few for from further had has have
  having he her here hers herself him himself his how i if in into is isn't it it's its itself just me more most
  my myself no nor not now of off on once only or other our ours ourselves out over own same she should so some
  such than that the their theirs them themselves then there these they this those through to too under until up
  very was wasn't we were weren't what when where which while who whom why will with won't would you your yours
  yourself yourselves still already yet again instead via per within without onto upon get got gets getting
  went go goes going seen see saw one two three new old right just exactly`.split(/\s+/),
);

/** Hedges make a statement unfalsifiable; a heuristic full of them says nothing. */
export const HEDGES: ReadonlySet<string> = new Set(
  `often sometimes usually generally typically may might could can possibly perhaps probably tend tends tended
  various certain somewhat occasionally frequently commonly potentially arguably maybe`.split(/\s+/),
);

/**
 * Meta-vocabulary about diagnosing anything at all. A fact made only of these words ("initial symptom-based
 * diagnosis often leads to misidentifying the root cause") applies everywhere and therefore helps nowhere.
 * Also the words of the extractor's own templates ("report", "mentions", "episodes"), which carry no content.
 */
export const GENERIC_TERMS: ReadonlySet<string> = new Set(
  `issue issues problem problems thing things something stuff matter root cause causes caused causing cause's
  diagnosis diagnose diagnosing diagnosed symptom symptoms initial initially lead leads leading led result results
  resulting based important common appropriate proper properly correct correctly incorrect incorrectly wrong
  wrongly misidentify misidentifying misidentified identify identifying identified investigate investigating check
  checking look looking seem seems seemed need needs make makes made take takes way ways case cases situation
  situations approach approaches factor factors aspect aspects kind type types fact really actually well good bad
  better worse likely unlikely first always never time times attention careful carefully consider considering
  understand understanding analysis analyze thorough thoroughly overall general specific particular report reports
  mention mentions mentioned episode episodes corrected correction appear appears suspect suspected`.split(/\s+/),
);

/** Lower-cased word tokens in order (letters/digits; apostrophes inside words kept). */
export function tokens(text: string): string[] {
  return (text.normalize('NFKC').toLowerCase().match(WORD_RE) ?? []).map((t) => t.replace('’', "'"));
}

/** Word tokens as written (case kept), aligned index for index with `tokens`. */
export function surfaceTokens(text: string): string[] {
  return text.normalize('NFKC').match(WORD_RE) ?? [];
}

/**
 * A light suffix stripper (not Porter): plural, then one derivational/inflectional suffix, then a final "e".
 * Enough for "exhaustion/exhausted/exhausting → exhaust" and "deploys/deployment → deploy"; stems keep ≥ 3
 * letters so short words survive intact.
 */
export function stem(word: string): string {
  let w = word;
  if (w.length <= 3 || /\d/.test(w)) return w;
  if (w.endsWith("'s")) w = w.slice(0, -2);
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(ss|us|is)$/.test(w) && w.length > 3) w = w.slice(0, -1);
  for (const suffix of ['ments', 'ment', 'ness', 'ings', 'ing', 'ied', 'edly', 'ed', 'ions', 'ion', 'ly']) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
      if ((suffix === 'ion' || suffix === 'ions') && !/[ts]ions?$/.test(w)) continue;
      w = suffix === 'ied' ? `${w.slice(0, -3)}y` : w.slice(0, -suffix.length);
      break;
    }
  }
  if (w.endsWith('e') && w.length > 3) w = w.slice(0, -1);
  // "stopped" → "stopp" → "stop": undo the consonant doubling inflection adds.
  if (/([bdfgmnprt])\1$/.test(w) && w.length > 3) w = w.slice(0, -1);
  return w;
}

export interface Term {
  /** Stemmed form: the identity used for matching. */
  stem: string;
  /** The word as written. */
  surface: string;
  /** Position among all tokens of the text. */
  index: number;
}

/** Content terms: tokens that are not stopwords and not single characters, with their stems and positions. */
export function contentTerms(text: string): Term[] {
  const out: Term[] = [];
  tokens(text).forEach((t, index) => {
    if (t.length < 2 || STOPWORDS.has(t)) return;
    out.push({ stem: stem(t), surface: t, index });
  });
  return out;
}

/** The set of content stems of a text. */
export function stemSet(text: string): Set<string> {
  return new Set(contentTerms(text).map((t) => t.stem));
}

/**
 * Numbers, versions and measurements ("500", "4.2", "v2.14.3", "200ms", "15x"): they belong to one episode
 * and never make a shared pattern.
 */
export function isNumberLike(s: string): boolean {
  return /^v?\d+(?:\.\d+)*[a-z%]{0,3}$/.test(s);
}

/** Whether a stem is generic/hedge vocabulary (compared by stem so inflections count too). */
const GENERIC_STEMS: ReadonlySet<string> = new Set([...GENERIC_TERMS, ...HEDGES].map(stem));
export function isGenericStem(s: string): boolean {
  return GENERIC_STEMS.has(s);
}

/** Specific content stems (no stopwords, generic diagnosis words or numbers): what two texts must share. */
export function specificStems(text: string): Set<string> {
  return new Set(
    contentTerms(text)
      .map((t) => t.stem)
      .filter((s) => !isGenericStem(s) && !isNumberLike(s)),
  );
}

/** |A ∩ B| */
export function intersectionSize(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let n = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const x of small) if (large.has(x)) n++;
  return n;
}

/** |A ∩ B| / |A ∪ B|; 0 for two empty sets. */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  const inter = intersectionSize(a, b);
  const union = a.size + b.size - inter;
  return union === 0 ? 0 : inter / union;
}

/** |A ∩ B| / min(|A|, |B|): lets a short cause match a longer description of the same cause. */
export function overlapCoefficient(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  const min = Math.min(a.size, b.size);
  return min === 0 ? 0 : intersectionSize(a, b) / min;
}

/** Splits prose into sentences (., !, ? or line breaks followed by space/end). */
export function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** Cuts `text` to at most `max` characters at a word boundary, marking the cut with "…". */
export function clip(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  if (t.length <= max) return t;
  const room = Math.max(1, max - 1);
  const cut = t.slice(0, room);
  const space = cut.lastIndexOf(' ');
  const base = space > room * 0.5 ? cut.slice(0, space) : cut;
  return `${base.replace(/[\s,;:.—–-]+$/, '')}…`;
}

/** Removes a leading label such as "Correction:" or "Outcome -" from a line. */
export function stripLabel(text: string, labels: readonly string[]): string {
  const t = text.trim();
  for (const label of labels) {
    const re = new RegExp(`^${label}\\s*[:\\-–—]\\s*`, 'i');
    if (re.test(t)) return t.replace(re, '').trim();
  }
  return t;
}

/** Trims trailing punctuation and surrounding whitespace. */
export function tidy(text: string): string {
  return text.replace(/\s+/g, ' ').trim().replace(/[\s,;:.]+$/, '');
}
