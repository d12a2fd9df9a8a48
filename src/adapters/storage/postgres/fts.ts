/**
 * Lexical tokenisation, done here rather than by PostgreSQL's parser so documents and queries split the
 * same way as the SQLite adapter's unicode61 tokenizer: words are runs of letters, numbers, marks and
 * private-use characters; everything else separates them. Diacritics are folded (NFKD, marks dropped)
 * and words lower-cased before PostgreSQL stems them (snowball English, no stop words).
 *
 * A query becomes an OR of quoted lexemes. The words hold no tsquery syntax (no quotes, operators,
 * parentheses or colons can survive the word pattern), so user text is never query syntax.
 */
const WORD_RE = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;
const MARKS_RE = /\p{M}+/gu;

/** Long queries gain nothing from hundreds of OR'ed terms but cost a posting-list scan each. */
export const MAX_QUERY_TERMS = 64;
/** PostgreSQL refuses lexemes longer than 2047 bytes; such "words" are not words anyway. */
const MAX_WORD_CHARS = 500;

export function foldText(text: string): string {
  return text.normalize('NFKC').normalize('NFKD').replace(MARKS_RE, '').normalize('NFC').toLowerCase();
}

function* wordsOf(text: string): Generator<string> {
  for (const m of foldText(text).matchAll(WORD_RE)) if (m[0].length <= MAX_WORD_CHARS) yield m[0];
}

/** What the doc's tsvector is built from: its words, space-separated. */
export function docSearchText(text: string): { text: string; length: number } {
  const words = [...wordsOf(text)];
  return { text: words.join(' '), length: words.length };
}

/** The distinct words of a query (at most `maxTerms`), space-separated; undefined when there are none. */
export function queryWords(raw: string, maxTerms = MAX_QUERY_TERMS): string | undefined {
  const seen = new Set<string>();
  for (const w of wordsOf(raw)) {
    seen.add(w);
    if (seen.size >= maxTerms) break;
  }
  return seen.size === 0 ? undefined : [...seen].join(' ');
}
