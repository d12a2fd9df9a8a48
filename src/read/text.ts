/** Small text helpers shared by the read steps (word sets for Jaccard, query terms, subject matching). */

/** The characters FTS5's unicode61 tokenizer keeps in a word, so query terms split as the index does. */
const WORD_RE = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;

/** Lower-cased word tokens (letters and digits), in order, with repeats. */
export function words(text: string): string[] {
  return text.normalize('NFKC').toLowerCase().match(WORD_RE) ?? [];
}

export function wordSet(text: string): Set<string> {
  return new Set(words(text));
}

/** Characters an identifier may carry inside it (ERR_PG_53300, v1.2.3, api-gw:503, s3://bucket/key). */
const RAW_TOKEN_RE = /[\p{L}\p{N}](?:[\p{L}\p{N}_.\-:/]*[\p{L}\p{N}])?/gu;
const ORDINAL_RE = /^\d+(?:st|nd|rd|th)$/i;

/**
 * Code-like tokens of a query: error codes, identifiers, versions, hashes — tokens with an underscore, or
 * mixing digits and letters (at least 4 characters, ordinals excluded), or dotted versions. Names and
 * acronyms (LGBTQ, YouTube) are not codes: BM25 already weighs them as the rare words they are.
 */
export function exactTokens(query: string): string[] {
  const out = new Set<string>();
  for (const [tok] of query.normalize('NFKC').matchAll(RAW_TOKEN_RE)) {
    const hasDigit = /\p{N}/u.test(tok);
    const hasLetter = /\p{L}/u.test(tok);
    const code =
      tok.includes('_') ||
      (hasDigit && hasLetter && tok.length >= 4 && !ORDINAL_RE.test(tok)) ||
      /^\d+(?:\.\d+){2,}$/.test(tok);
    if (code) out.add(tok.toLowerCase());
  }
  return [...out];
}

/** Share of `codes` that occur in `text` as whole tokens (case-insensitive). */
export function exactShare(codes: readonly string[], text: string): number {
  if (codes.length === 0) return 0;
  const have = new Set([...text.normalize('NFKC').matchAll(RAW_TOKEN_RE)].map(([t]) => t.toLowerCase()));
  return codes.filter((c) => have.has(c)).length / codes.length;
}
