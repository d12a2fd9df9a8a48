/**
 * What a memory states, as opposed to what it asks: the read path's measure of how much information a
 * memory can hold for a question (expand.ts).
 *
 *   sentences       runs of text up to a closing . ! ? or … (a regular expression: a few µs a text, where
 *                   Intl.Segmenter took ~20); a sentence that closes with "?" asks
 *   statedWords     words in the sentences that do not ask
 *   questionShare   asking sentences / all sentences (0 for an empty text)
 *
 *   asksQuestion    whether a query asks: one of its sentences ends in "?", or it opens with an interrogative
 *                   word ("what did Caroline research" asks too)
 *
 * "Caroline: What kind of art do you make?" states nothing and is all question; "Melanie: Pottery, mostly. I
 * took a class last month." states nine words (its label included).
 */
import { Lru } from '../core/lru.js';

export interface StatementProfile {
  statedWords: number;
  questionShare: number;
}

/** A sentence: a run up to its closing ., !, ? or … (with any quotes or brackets after it), or the text's end. */
const SENTENCE_RE = /[^.!?…]+(?:[.!?…]+["'”’)\]]*|$)/gu;
const WORD_RE = /\S+/g;

/** Profiles kept per process: the same memories come back across reads. */
const MEMO_ENTRIES = 4_096;
const memo = new Lru<string, StatementProfile>(MEMO_ENTRIES);

function compute(text: string): StatementProfile {
  let sentences = 0;
  let asking = 0;
  let statedWords = 0;
  for (const [segment] of text.matchAll(SENTENCE_RE)) {
    const words = segment.match(WORD_RE)?.length ?? 0;
    if (words === 0) continue;
    sentences += 1;
    if (/\?["'”’)\]]*\s*$/u.test(segment)) asking += 1;
    else statedWords += words;
  }
  return { statedWords, questionShare: sentences === 0 ? 0 : asking / sentences };
}

/** Only the head of a long text is read: past a few hundred words the prior that uses this no longer moves. */
export const PROFILE_CHARS = 2_000;

export function statementProfile(text: string): StatementProfile {
  return memo.getOrSet(text.length > PROFILE_CHARS ? text.slice(0, PROFILE_CHARS) : text, compute);
}

/**
 * How a question written without its question mark opens: a question word, a form of "be" or "have", or a modal
 * or "do" followed by its subject ("did we …", "can you …"). A modal or "do" before anything else opens a request
 * ("do the deploy", "can the old index"), which does not ask.
 */
const INTERROGATIVE_RE =
  /^\s*(?:(?:what|when|where|which|who|whom|whose|why|how|is|are|was|were|has|have|had)\b|(?:do|does|did|can|could|should|would|will)\s+(?:i|you|we|they|he|she|it|anyone|someone)\b)/iu;

export function asksQuestion(text: string): boolean {
  return INTERROGATIVE_RE.test(text) || statementProfile(text).questionShare > 0;
}
