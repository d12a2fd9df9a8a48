/** Turning term sets back into readable phrases, always in the words the source texts used. */
import { contentTerms, surfaceTokens, tidy } from './text.js';

/**
 * The shortest span of `text` that holds all of `stems` that occur in it, in its own words; when that span
 * is long (more than twice the terms plus three), the terms alone in text order, each in the form the text first
 * used for it. Capped at `maxWords`.
 */
export function phraseFor(text: string, stems: Set<string>, maxWords: number): string {
  const surface = surfaceTokens(text);
  const hits = contentTerms(text).filter((t) => stems.has(t.stem));
  if (hits.length === 0) return lowerFirst(tidy(text).split(/\s+/).slice(0, maxWords).join(' '));
  const lo = hits[0]!.index;
  const hi = hits.at(-1)!.index;
  const span = surface.slice(lo, hi + 1);
  const distinct = new Set(hits.map((h) => h.stem)).size;
  // Each term as the text first wrote it: a later form of the same stem ("short-shipped" after "shipping notice")
  // would otherwise stand in for it beside words it never stood with.
  const first = new Map<string, string>();
  for (const h of hits) if (!first.has(h.stem)) first.set(h.stem, surface[h.index]!);
  const words = span.length <= distinct * 2 + 3 ? span : [...first.values()];
  return lowerFirst(words.slice(0, maxWords).join(' '));
}

/** How the texts wrote each stem (the first occurrence found), in the order of the stems given. */
export function surfacesOf(stems: readonly string[], texts: readonly string[]): string[] {
  return stems.map((s) => {
    for (const text of texts) {
      const hit = contentTerms(text).find((t) => t.stem === s);
      if (hit) return surfaceTokens(text)[hit.index]!;
    }
    return s;
  });
}

/** "Staging volume …" → "staging volume …" mid-sentence; acronyms ("HTTP", "ETL") keep their case. */
export function lowerFirst(phrase: string): string {
  return /^[A-Z][a-z]/.test(phrase) ? phrase[0]!.toLowerCase() + phrase.slice(1) : phrase;
}

export function listPhrase(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

export function articled(phrase: string): string {
  return /^(the|a|an)\s/i.test(phrase) ? phrase : `the ${phrase}`;
}
