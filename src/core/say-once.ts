/**
 * Saying each thing once in an episode's text. The summary, the root cause and the corrections are composed from
 * the same events, so the same words often reach a text by two roads ("Outcome: FAILURE — root cause: X." and
 * "Correction: X, not Y."). These helpers compare sentences by their substance: lower case, labels ("Tried:",
 * "Outcome: FAILURE —", "Root cause:", "Correction:") and punctuation off.
 */
import type { Outcome } from './types.js';

const norm = (s: string) => s.toLowerCase().replace(/\s+/g, ' ');

/** A sentence's substance for comparison ('' when it is only labels). */
export function sentenceCore(sentence: string): string {
  return norm(sentence)
    .replace(/^(?:tried|found|correction|root cause|initial assumption|outcome)\s*:\s*/, '')
    .replace(/^(?:success|failure|partial|unknown)\b\s*(?:—|-|:)?\s*/, '')
    .replace(/^(?:root cause|correction)\s*:\s*/, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** A text's sentences. */
export function splitSentences(text: string): string[] {
  return text
    .replace(/\s*\n\s*/g, ' ')
    .split(/(?<=[.!?…])\s+(?=\S)/)
    .map((x) => x.trim())
    .filter(Boolean);
}

/**
 * The sentences, each said once: a sentence whose substance another one already holds is dropped (the shorter of
 * the two). With `dropBareOutcome`, a sentence that is only the outcome label ("Outcome: FAILURE.") goes too.
 */
export function sayOnce(sentences: readonly string[], opts: { outcome?: Outcome | undefined; dropBareOutcome?: boolean } = {}): string[] {
  const kept: { text: string; core: string }[] = [];
  for (const text of sentences) {
    const c = sentenceCore(text);
    if (!c) {
      // Only labels ("Outcome: FAILURE."): said at most once, or not at all when the caller shows the label.
      if (opts.dropBareOutcome || kept.some((k) => norm(k.text) === norm(text))) continue;
      kept.push({ text, core: '' });
      continue;
    }
    if (opts.outcome && c === opts.outcome.toLowerCase() && opts.dropBareOutcome) continue;
    if (kept.some((k) => k.core.includes(c))) continue;
    for (let i = kept.length - 1; i >= 0; i--) if (kept[i]!.core && c.includes(kept[i]!.core)) kept.splice(i, 1);
    kept.push({ text, core: c });
  }
  return kept.map((k) => k.text);
}

/** Whether the sentences already say `s` (its substance is part of one of them). */
export function alreadySaid(said: readonly string[], s: string): boolean {
  const c = sentenceCore(s);
  return c !== '' && said.some((x) => sentenceCore(x).includes(c));
}
