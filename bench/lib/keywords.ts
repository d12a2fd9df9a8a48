/**
 * Keyword matching for the hand-written evaluation sets (bench/fixtures/conversations, bench/fixtures/relations).
 * An expectation is a list of alternatives, each a list of keywords; text matches an alternative when it contains
 * every keyword as a case-insensitive substring (in the given order when `ordered`, so `["Carol", "manag",
 * "Alice"]` does not match "Alice manages Carol"). Nothing here depends on how Engram renders or reads text.
 */

export type Alternative = readonly string[];

function norm(s: string): string {
  return s.normalize('NFKC').replace(/[\u2018\u2019]/g, "'").toLowerCase();
}

/** Every keyword occurs somewhere in the text. */
export function containsAll(text: string, keywords: Alternative): boolean {
  const t = norm(text);
  return keywords.every((k) => t.includes(norm(k)));
}

/** Every keyword occurs, each after the end of the one before it. */
export function containsInOrder(text: string, keywords: Alternative): boolean {
  const t = norm(text);
  let from = 0;
  for (const k of keywords) {
    const key = norm(k);
    const at = t.indexOf(key, from);
    if (at < 0) return false;
    from = at + key.length;
  }
  return true;
}

/** The first alternative the text matches, or undefined. */
export function matchingAlternative(text: string, alternatives: readonly Alternative[], opts: { ordered?: boolean } = {}): Alternative | undefined {
  const test = opts.ordered ? containsInOrder : containsAll;
  return alternatives.find((a) => test(text, a));
}

/** Any of the words occurs in the text (case-insensitive substrings). */
export function containsAny(text: string, words: readonly string[]): boolean {
  const t = norm(text);
  return words.some((w) => t.includes(norm(w)));
}
