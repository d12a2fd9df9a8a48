/**
 * Text analysis for the heuristic reranker: case-folded, lightly stemmed terms in order (so that phrases and
 * distances can be measured), stopword marks, and the "exact" tokens (numbers, identifiers, error codes) that
 * must match verbatim.
 */

export interface AnalyzedText {
  /** Stemmed, case-folded terms in text order, stopwords included (phrases need them). */
  terms: string[];
  /** `content[i]` is false when `terms[i]` is a stopword. */
  content: boolean[];
  /** Case-folded identifiers, numbers and codes, e.g. `e0425`, `enoent`, `max_tokens`, `v1.2.3`. */
  exact: Set<string>;
  /** NFKC, case-folded text, for boundary-checked exact-token lookups. */
  folded: string;
}

const STOPWORDS = new Set(
  `a about above after again against all am an and any are as at be because been before being below between both
  but by can could did do does doing down during each few for from further had has have having he her here hers
  herself him himself his how i if in into is it its itself just me more most my myself no nor not now of off on
  once only or other our ours ourselves out over own same she should so some such than that the their theirs them
  themselves then there these they this those through to too under until up very was we were what when where which
  while who whom why will with would you your yours yourself yourselves s t d ll m re ve`.split(/\s+/),
);

const WORD_RE = /[\p{L}\p{M}\p{N}]+/gu;
/** Han, kana: written without spaces, so each character is a term and bigrams recover the words. */
const CJK_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const CJK_SPLIT_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+/gu;
/** Candidate exact tokens: runs of word characters joined by . _ - : / # (paths, versions, codes). */
const EXACT_RE = /[\p{L}\p{N}_](?:[\p{L}\p{N}_.:/#-]*[\p{L}\p{N}_])?/gu;
const WORD_CHAR_RE = /[\p{L}\p{N}_]/u;

function hasVowel(s: string): boolean {
  return /[aeiouy]/.test(s);
}

/** "runn" → "run", "stopp" → "stop"; not l, s or z ("fall", "miss", "buzz" keep theirs). */
function undouble(s: string): string {
  const n = s.length;
  return n >= 3 && s[n - 1] === s[n - 2] && /[bcdfghjkmnpqrtvwx]/.test(s[n - 1]!) ? s.slice(0, -1) : s;
}

/**
 * A light English stemmer: plural -s/-ies, verb -ed/-ing, and a final silent e, so that "configure",
 * "configured", "configures" and "configuring" meet at "configur". Deliberately timid: it never touches
 * words with digits or of three letters or fewer, and it leaves stems without a vowel ("thing", "bring").
 */
export function stem(word: string): string {
  let w = word;
  if (w.length <= 3 || /\d/.test(w) || !/^[a-z]+$/.test(w)) return w;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('s') && !/(?:ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.endsWith('ing') && w.length - 3 >= 3 && hasVowel(w.slice(0, -3))) w = undouble(w.slice(0, -3));
  else if (w.endsWith('ied') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('ed') && w.length - 2 >= 3 && hasVowel(w.slice(0, -2)) && !w.endsWith('eed')) w = undouble(w.slice(0, -2));
  if (w.endsWith('e') && w.length >= 4) w = w.slice(0, -1);
  return w;
}

/** Worth matching verbatim: has a digit, an underscore or an inner separator, inner capitals, or is all caps. */
function isExactToken(raw: string): boolean {
  return (
    /\d/.test(raw) ||
    /[_./:#]/.test(raw) ||
    /\p{Ll}\p{Lu}/u.test(raw) ||
    (raw.length >= 2 && /^[\p{Lu}\p{N}_-]+$/u.test(raw) && /\p{Lu}/u.test(raw))
  );
}

export function analyze(text: string): AnalyzedText {
  const normalized = text.normalize('NFKC');
  const folded = normalized.toLowerCase();
  const terms: string[] = [];
  const content: boolean[] = [];
  for (const [run] of folded.matchAll(WORD_RE)) {
    const words = CJK_RE.test(run) ? run.match(CJK_SPLIT_RE)! : [run];
    for (const word of words) {
      const isStop = STOPWORDS.has(word);
      terms.push(isStop ? word : stem(word));
      content.push(!isStop);
    }
  }
  const exact = new Set<string>();
  for (const m of normalized.matchAll(EXACT_RE)) if (isExactToken(m[0])) exact.add(m[0].toLowerCase());
  return { terms, content, exact, folded };
}

/**
 * Whether `token` occurs in `folded` as a whole token: not inside a longer word, and not a prefix or suffix of a
 * longer dotted/dashed token ("1.2" is not in "1.2.3", "404" is in "HTTP 404.").
 */
export function containsToken(folded: string, token: string): boolean {
  const joined = (sep: string, next: string) => /[._:/#-]/.test(sep) && WORD_CHAR_RE.test(next);
  for (let at = folded.indexOf(token); at >= 0; at = folded.indexOf(token, at + 1)) {
    const end = at + token.length;
    const b1 = folded[at - 1] ?? '';
    const b2 = folded[at - 2] ?? '';
    const a1 = folded[end] ?? '';
    const a2 = folded[end + 1] ?? '';
    if (WORD_CHAR_RE.test(b1) || WORD_CHAR_RE.test(a1)) continue;
    if (joined(b1, b2) || joined(a1, a2)) continue;
    return true;
  }
  return false;
}
