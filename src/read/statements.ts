/**
 * What a memory states, as opposed to what it asks: the read path's measure of how much information a
 * memory can hold for a question (expand.ts).
 *
 *   sentences       Intl.Segmenter's sentences of the text; a sentence whose last character is "?" asks
 *   statedWords     words in the sentences that do not ask
 *   questionShare   asking sentences / all sentences (0 for an empty text)
 *
 * "Caroline: What kind of art do you make?" states one word (its label) and is all question; "Melanie:
 * Pottery, mostly. I took a class last month." states seven.
 */
import { Lru } from '../core/lru.js';

export interface StatementProfile {
  statedWords: number;
  questionShare: number;
}

const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
const wordCount = (s: string) => s.split(/\s+/).filter((w) => w !== '').length;

/** Profiles kept per process: the same memories come back across reads. */
const MEMO_ENTRIES = 4_096;
const memo = new Lru<string, StatementProfile>(MEMO_ENTRIES);

function compute(text: string): StatementProfile {
  let sentences = 0;
  let asking = 0;
  let statedWords = 0;
  for (const { segment } of segmenter.segment(text)) {
    const s = segment.trim();
    if (s === '') continue;
    sentences += 1;
    if (s.endsWith('?')) asking += 1;
    else statedWords += wordCount(s);
  }
  return { statedWords, questionShare: sentences === 0 ? 0 : asking / sentences };
}

/** Only the head of a long text is read: past a few hundred words the prior that uses this no longer moves. */
export const PROFILE_CHARS = 2_000;

export function statementProfile(text: string): StatementProfile {
  return memo.getOrSet(text.length > PROFILE_CHARS ? text.slice(0, PROFILE_CHARS) : text, compute);
}
