/**
 * Text similarity for case-based reasoning: sentence-embedding cosine, rescaled because small sentence
 * encoders put unrelated sentences near 0.4 rather than 0, plus a word-level view (specific content stems and
 * adjacent-word compounds) that catches two phrasings of one cause the encoder scores only moderately.
 */
import { contentTerms, isGenericStem, isNumberLike } from '../../lib/text.js';
import { cosine } from '../../lib/vector.js';

export type EmbedFn = (texts: readonly string[]) => Promise<Float32Array[]>;

/** Embeds each distinct text once per decision; vectors are L2-normalised by the embedder. */
export class VectorMemo {
  private readonly vectors = new Map<string, Float32Array>();
  constructor(private readonly embed: EmbedFn) {}

  async prepare(texts: readonly string[]): Promise<void> {
    const fresh = [...new Set(texts)].filter((t) => !this.vectors.has(t));
    if (fresh.length === 0) return;
    const vs = await this.embed(fresh);
    fresh.forEach((t, i) => this.vectors.set(t, vs[i]!));
  }

  /** Cosine of two prepared texts (0 when either is unknown). */
  cosine(a: string, b: string): number {
    const va = this.vectors.get(a);
    const vb = this.vectors.get(b);
    return va && vb ? cosine(va, vb) : 0;
  }
}

/**
 * Maps a raw cosine onto 0..1 between a floor (what unrelated texts score) and a ceiling (a paraphrase).
 * The floor is the encoder's; callers give a higher floor where only near-paraphrases should count.
 */
export function rescale(cos: number, floor: number, ceiling = 0.95): number {
  return Math.min(1, Math.max(0, (cos - floor) / (ceiling - floor)));
}

/** Specific content stems: no stopwords, no diagnostic meta-words, no numbers or versions. */
export function specificStems(text: string): string[] {
  return contentTerms(text)
    .filter((t) => !isGenericStem(t.stem) && !isNumberLike(t.surface))
    .map((t) => t.stem);
}

/** Pairs of neighbouring specific stems, in sequence: a two-word compound keeps its identity. */
function compounds(stems: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (let i = 1; i < stems.length; i++) out.add(`${stems[i - 1]} ${stems[i]}`);
  return out;
}

/**
 * Word-level likeness of two cause statements in 0..1: the overlap coefficient of their specific stems,
 * raised to at least 0.75 when they share a compound (two specific words in the same sequence).
 */
export function lexicalLikeness(a: string, b: string): number {
  const sa = specificStems(a);
  const sb = specificStems(b);
  const setA = new Set(sa);
  const setB = new Set(sb);
  const min = Math.min(setA.size, setB.size);
  if (min === 0) return 0;
  let shared = 0;
  for (const s of setA) if (setB.has(s)) shared++;
  const overlap = shared / min;
  const cb = compounds(sb);
  const sharesCompound = [...compounds(sa)].some((c) => cb.has(c));
  return sharesCompound ? Math.max(overlap, 0.75) : shared >= 2 ? overlap : overlap * 0.5;
}

/** Every specific stem of `part` occurs in `whole`: "X" is contained in "Y of X under Z". */
export function stemsContained(part: string, whole: string): boolean {
  const p = specificStems(part);
  if (p.length === 0) return false;
  const w = new Set(specificStems(whole));
  return p.every((s) => w.has(s));
}

/** Share of `condition`'s specific stems that occur in `text` (how much of a rule's "when …" a report meets). */
export function coverage(condition: string, text: string): number {
  const c = new Set(specificStems(condition));
  if (c.size === 0) return 0;
  const t = new Set(specificStems(text));
  let hit = 0;
  for (const s of c) if (t.has(s)) hit++;
  return hit / c.size;
}

/**
 * What a cause statement leads with: the words before its first preposition, colon, dash or comma ("Clock
 * skew" of "Clock skew between token nodes: …"). English cause statements name the failing thing first and
 * the particulars after, so two causes that lead with the same thing are one kind of cause.
 */
export function leadingPhrase(cause: string): string {
  return cause.split(/\s+(?:on|in|at|of|to|from|by|for|with|between|during|under|after|before|across|over|because|due|since|when|while|that|which|so)\s+|\s*[:;,(]\s*|\s[—–-]\s/i)[0] ?? cause;
}

/** Overlap coefficient of the specific stems of two causes' leading phrases, 0..1. */
export function leadLikeness(a: string, b: string): number {
  const sa = new Set(specificStems(leadingPhrase(a)));
  const sb = new Set(specificStems(leadingPhrase(b)));
  const min = Math.min(sa.size, sb.size);
  if (min === 0) return 0;
  let shared = 0;
  for (const s of sa) if (sb.has(s)) shared++;
  return shared / min;
}
