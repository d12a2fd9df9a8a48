/**
 * How a memory's text becomes its one stored vector.
 *
 *   whole       embed(text)
 *   sentences   normalise( embed(speaker(text)) + Σ embed(speaker(label: sentenceᵢ)) )
 *
 * speaker(x) is `speakerForm`: in a labelled text the author's first person is resolved to the label's name
 * ("Melanie: Yeah, I play clarinet!" is embedded as "Melanie: Yeah, Melanie play clarinet!"). A question names
 * the person it asks about; the turn that answers it says "I", and the encoder cannot tell whose "I" it is.
 *
 * A small sentence encoder (USE-lite) gives a turn of several sentences a vector near none of them: "Caroline:
 * Yes! I went to the support group yesterday. It was so powerful." sits between small talk and the one
 * sentence a question is about. The sum of the sentences' vectors keeps each sentence's direction in the
 * mean. A leading label ("Caroline: ", the speaker of an event, see core/docs.ts) is repeated on every
 * sentence: which person said it is most of what the encoder matches a question on, and a sentence without
 * it lost more than the split gained.
 *
 * Measured with USE-lite on LoCoMo (turns as docs, evidence recall@10, categories 1–4): vector search alone
 * 0.374 (whole) → 0.460 (sentences, `npm run bench:locomo --`). Offline, with a simpler sentence split: 0.476;
 * the same sentences without the label on each: 0.346; the best sentence per turn (several vectors per doc)
 * also 0.476, where this needs one. Paraphrase-dev R@5 0.683 either way (its memories are mostly one sentence).
 *
 * The speaker form (2026-11-24, fifth stop), on the same bench: vector search alone 0.502 → 0.574, hybrid
 * `search` 0.798 → 0.805 (dev 0.823 → 0.824, held-out 0.790 → 0.798), `getContext` 0.797 → 0.806;
 * paraphrase-dev unchanged (its memories have no label). Offline, before the question form of fuse.ts: vector
 * alone 0.460 → 0.547, and 0.539 when the text as written is embedded as well. A label that names a role rather
 * than a person ("user", "assistant": core/speakers.ts) is left as written (recipe v2). It costs no embedding: the same
 * texts are embedded, in another form. Known slip: a Roman numeral "I" ("Section I") is
 * read as the speaker too; it moves a vector, never a text anyone sees.
 *
 * Cost: every sentence is a text to embed too: 14,291 sentences besides the 5,882 LoCoMo turns, which USE-lite
 * with 2 workers embeds at 29 turns/s instead of 66.
 */
import { isPersonName } from '../core/speakers.js';
import type { EmbedOptions, Embedder } from '../ports/embedder.js';

export type DocumentVectors = 'sentences' | 'whole';

/** Long texts are cut into at most this many runs of consecutive sentences. */
export const MAX_SENTENCE_SEGMENTS = 12;
/** A sentence of fewer words joins the next one ("Dr." before "Smith said …", "Yes!"). */
const MIN_SEGMENT_WORDS = 3;
/** "Name: …" — a short label without sentence punctuation before the first colon. */
const LABEL_RE = /^([^\s:.!?\n][^:.!?\n]{0,39}):\s+/u;
const MAX_LABEL_WORDS = 4;

const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
const wordCount = (s: string) => s.split(/\s+/).filter((w) => w !== '').length;

/** The key stored vectors are filed under: a recipe change re-embeds, as a model change does. */
export function documentVectorModel(model: string, mode: DocumentVectors): string {
  return mode === 'whole' ? model : `${model}+speaker-sentences-v2`;
}

/** A text's leading "Name: " label and what follows it; no label when there is none (or it is too long to be a name). */
export function splitLabel(text: string): { label?: string; body: string } {
  const m = LABEL_RE.exec(text);
  return m && wordCount(m[1]!) <= MAX_LABEL_WORDS ? { label: m[1]!, body: text.slice(m[0].length) } : { body: text };
}

/** `word` where it starts a word of its own: "I" is not the letter of "I/O", "I.e." or "I-5". */
const standalone = (word: string) => new RegExp(`(?<![\\p{L}\\p{N}_/.-])${word}`, 'gu');

/** The first person, and what each form becomes for a speaker named `n`. */
const FIRST_PERSON: ReadonlyArray<[RegExp, (n: string) => string]> = [
  [standalone("I['’]m\\b"), (n) => `${n} is`],
  [standalone("I['’]ve\\b"), (n) => `${n} has`],
  [standalone("I['’]ll\\b"), (n) => `${n} will`],
  [standalone("I['’]d\\b"), (n) => `${n} would`],
  [standalone("I(?![\\p{L}\\p{N}_/'’-]|\\.[\\p{L}\\p{N}])"), (n) => n],
  [/\b(?:[Mm]y|[Mm]ine)\b/gu, (n) => `${n}'s`],
  [/\b(?:[Mm]e|[Mm]yself)\b/gu, (n) => n],
];

/**
 * What a labelled text says with its author's first person resolved: "Melanie: Yeah, I play clarinet!" →
 * "Melanie: Yeah, Melanie play clarinet!". Only the embedded form changes (the stored and shown text never
 * does); a text without a label is returned as it is. The grammar suffers, the meaning for the encoder gains:
 * "I", "my" and "me" say nothing of whom a sentence is about, the name does.
 */
export function speakerForm(text: string): string {
  const { label, body } = splitLabel(text);
  // A role ("user: I play …") names no one: "user play" would tell the encoder less than "I play".
  if (!label || !isPersonName(label)) return text;
  let out = body;
  for (const [re, to] of FIRST_PERSON) out = out.replace(re, to(label));
  return `${label}: ${out}`;
}

/**
 * Embedding work per memory is bounded whatever its length (a pasted document, a 30,000-character transcript
 * turn): the whole text is embedded from its first WHOLE_TEXT_CHARS characters, and its body as at most
 * MAX_SENTENCE_SEGMENTS runs of consecutive sentences that cover all of it, each cut to RUN_CHARS. So a memory
 * costs at most 1 + MAX_SENTENCE_SEGMENTS texts of at most 2,000 characters each, a label aside (USE-lite reads
 * the first 128 tokens of a text, well inside that). Covering runs were measured against the most informative
 * sentences of a long text (`npm run bench:long-turns`, docs/benchmarks.md): they keep a long memory's vector
 * closer to what each part of it says, at the same number of texts.
 */
export const WHOLE_TEXT_CHARS = 2_000;
export const RUN_CHARS = 2_000;
/** The informative-sentences policy (a `SegmentPolicy` option) cuts each sentence to this length. */
export const SENTENCE_CHARS = 300;

function sentencesOf(body: string): string[] {
  const sentences: string[] = [];
  let carry = '';
  for (const { segment } of segmenter.segment(body)) {
    const s = `${carry}${segment}`.trim();
    if (s === '') continue;
    if (wordCount(s) < MIN_SEGMENT_WORDS) {
      carry = `${s} `;
      continue;
    }
    sentences.push(s);
    carry = '';
  }
  if (carry.trim() !== '') {
    if (sentences.length > 0) sentences[sentences.length - 1] += ` ${carry.trim()}`;
    else sentences.push(carry.trim());
  }
  return sentences;
}

const contentWords = (s: string) => new Set(s.toLowerCase().match(/[\p{L}\p{N}]{4,}/gu) ?? []);

/** The `n` sentences that add most new content words, greedily, in text order. */
export function informativeSentences(sentences: readonly string[], n: number): string[] {
  const words = sentences.map(contentWords);
  const seen = new Set<string>();
  const chosen: number[] = [];
  while (chosen.length < Math.min(n, sentences.length)) {
    let best = -1;
    let gain = -1;
    words.forEach((w, i) => {
      if (chosen.includes(i)) return;
      let g = 0;
      for (const x of w) if (!seen.has(x)) g++;
      if (g > gain) {
        gain = g;
        best = i;
      }
    });
    chosen.push(best);
    for (const x of words[best]!) seen.add(x);
  }
  return chosen.sort((a, b) => a - b).map((i) => sentences[i]!.slice(0, SENTENCE_CHARS));
}

/** How a document's body is cut into the texts embedded beside its whole text (the defaults above). */
export interface SegmentPolicy {
  /** A body longer than this gives its most informative sentences instead of runs covering all of it. */
  longTextChars: number;
  /** At most this many texts besides the whole text; 0 embeds the whole text alone. */
  maxSegments: number;
  /** Each run of sentences is cut to this many characters. */
  runChars: number;
}

export const DEFAULT_SEGMENTS: SegmentPolicy = { longTextChars: Infinity, maxSegments: MAX_SENTENCE_SEGMENTS, runChars: RUN_CHARS };

/** The texts embedded for one document besides itself: its sentences, labelled; none for a single sentence. */
export function sentenceSegments(text: string, policy: SegmentPolicy = DEFAULT_SEGMENTS): string[] {
  if (policy.maxSegments <= 0) return [];
  const { label, body } = splitLabel(text);
  const sentences = sentencesOf(body);
  if (sentences.length < 2) return [];
  const runs: string[] = [];
  if (body.length > policy.longTextChars) {
    runs.push(...informativeSentences(sentences, policy.maxSegments));
  } else {
    const per = Math.max(1, Math.ceil(sentences.length / policy.maxSegments));
    for (let i = 0; i < sentences.length; i += per) runs.push(sentences.slice(i, i + per).join(' ').slice(0, policy.runChars));
  }
  return runs.map((s) => (label ? `${label}: ${s}` : s));
}

/** What is embedded as the whole text: its opening, at most WHOLE_TEXT_CHARS characters. */
export function wholeText(text: string): string {
  return text.length <= WHOLE_TEXT_CHARS ? text : text.slice(0, WHOLE_TEXT_CHARS);
}

/** The texts embedded for one document in `sentences` mode (their vectors' normalised sum is its vector). */
export function documentTexts(text: string, policy: SegmentPolicy = DEFAULT_SEGMENTS): string[] {
  return [speakerForm(wholeText(text)), ...sentenceSegments(text, policy).map(speakerForm)];
}

/** One unit vector per text, in order, computed as `mode` says; the embedder is called once. */
export async function embedDocuments(embedder: Embedder, texts: readonly string[], mode: DocumentVectors, opts?: EmbedOptions, policy: SegmentPolicy = DEFAULT_SEGMENTS): Promise<Float32Array[]> {
  if (mode === 'whole') return embedder.embed(texts, opts);
  const perDoc = texts.map((t) => documentTexts(t, policy));
  const vectors = await embedder.embed(perDoc.flat(), opts);
  const out: Float32Array[] = [];
  let at = 0;
  for (const own of perDoc) {
    const parts = vectors.slice(at, at + own.length);
    at += own.length;
    out.push(parts.length === 1 ? parts[0]! : normalisedSum(parts));
  }
  return out;
}

function normalisedSum(vectors: readonly Float32Array[]): Float32Array {
  const sum = new Float32Array(vectors[0]!.length);
  for (const v of vectors) for (let i = 0; i < v.length; i++) sum[i] = sum[i]! + v[i]!;
  let norm = 0;
  for (let i = 0; i < sum.length; i++) norm += sum[i]! * sum[i]!;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < sum.length; i++) sum[i] = sum[i]! / norm;
  return sum;
}
