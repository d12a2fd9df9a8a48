/**
 * Text → index terms, the same way for documents and queries, close to SQLite FTS5's
 * `porter unicode61 remove_diacritics 2` (which the schema's docs_fts index uses): NFKC, case folded,
 * diacritics removed, split on anything that is not a letter, number, mark or private-use character,
 * then English words reduced by Martin Porter's stemmer (ASCII words only, as FTS5's porter does).
 */
import { stemmer } from 'stemmer';

/** Saved BM25 postings hold analyzed terms: bump this when analysis changes, so saved indexes are rebuilt. */
export const ANALYZER_VERSION = 1;

const WORD_RE = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;
const MARKS_RE = /\p{M}+/gu;
const ASCII_WORD = /^[a-z]+$/;
/** Porter gains nothing on longer tokens (ids, hashes); FTS5 copies them unchanged too. */
const MAX_STEM_LENGTH = 64;
/** Stemming is the costly step and vocabularies are small: remember recent words. */
const STEM_CACHE_LIMIT = 50_000;

const stems = new Map<string, string>();

function stem(word: string): string {
  if (word.length > MAX_STEM_LENGTH || !ASCII_WORD.test(word)) return word;
  let s = stems.get(word);
  if (s === undefined) {
    s = stemmer(word);
    if (stems.size >= STEM_CACHE_LIMIT) stems.clear();
    stems.set(word, s);
  }
  return s;
}

/** Every term of `text`, in order, repeats kept (term frequency counts them). */
export function analyze(text: string): string[] {
  const out: string[] = [];
  for (const m of text.normalize('NFKC').toLowerCase().matchAll(WORD_RE)) {
    const word = m[0].normalize('NFD').replace(MARKS_RE, '');
    if (word.length > 0) out.push(stem(word));
  }
  return out;
}

/** The distinct terms of a query, in first-seen order, at most `max` of them. */
export function queryTerms(text: string, max = 64): string[] {
  return [...new Set(analyze(text))].slice(0, max);
}
