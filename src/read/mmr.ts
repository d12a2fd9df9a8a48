/**
 * Maximal Marginal Relevance: picks items one at a time, each maximising
 *
 *   λ · rel(i) − (1 − λ) · max_{j already picked} sim(i, j)
 *
 * where rel is the item's `final` score divided by the pool's best (so it is on the same 0..1 scale as a
 * similarity; dividing rather than min-max keeps a fair chance for the weakest item, which min-max pins at 0) and sim is the cosine of the two documents' vectors, or the token-set Jaccard of their texts
 * when either vector is missing (not embedded yet, embedder down). λ = 1 is plain ranking.
 *
 * Near-duplicates are dropped outright rather than merely discounted: at λ 0.9 the penalty is too small to keep
 * three paraphrases of one fact from filling three slots. Two items are near-duplicates when their vectors are
 * close (cosine ≥ `cosine`) AND they share much of their wording (Jaccard of content stems ≥ `jaccard`); without
 * vectors, when the stems alone overlap strongly (≥ `textOnly`). Both conditions because neither suffices alone
 * with a small sentence encoder: USE-lite puts "Annual plans are refunded in full within 30 days." and "Monthly
 * plans are not refunded." at 0.90 (different facts, stem Jaccard 0.25), and "User likes the dark theme for
 * their editor." next to "The user prefers dark mode in the editor." at 0.63 (one fact, stem Jaccard 0.43).
 * And never when the two state different values: a number or a proper name (a capitalised word that does not
 * open a sentence) that only one of them holds, or a negation only one of them makes — "Erin speaks English."
 * and "Erin speaks French." are two facts however alike they read.
 */
import { stemSet } from '../learn/text.js';
import { wordSet } from './text.js';

export interface NearDuplicate {
  cosine: number;
  jaccard: number;
  /** Stem Jaccard above which two items without vectors are near-duplicates. */
  textOnly: number;
}

export interface MmrItem {
  key: string;
  score: number;
  text: string;
  vector?: Float32Array | undefined;
}


function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let inter = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const t of small) if (large.has(t)) inter++;
  return inter / (a.size + b.size - inter);
}

const TOKEN_RE = /[\p{L}\p{N}][\p{L}\p{N}'’.-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu;
const NEGATION = new Set(['not', 'no', 'never', 'none', 'without', 'cannot']);

/** Lower-cased tokens, the value-like ones (numbers, names not opening a sentence), and negations. */
function valueTokens(text: string): { all: Set<string>; values: Set<string>; negated: boolean } {
  const all = new Set<string>();
  const values = new Set<string>();
  let negated = /n['’]t\b/i.test(text);
  for (const sentence of text.split(/(?<=[.!?])\s+/)) {
    (sentence.match(TOKEN_RE) ?? []).forEach((tok, i) => {
      const low = tok.toLowerCase();
      all.add(low);
      if (NEGATION.has(low)) negated = true;
      if (/\d/.test(tok) || (i > 0 && /^\p{Lu}/u.test(tok))) values.add(low);
    });
  }
  return { all, values, negated };
}

/**
 * The same sentence with one span replaced by another ("… deploys with blue-green." / "… deploys with canary."):
 * a substituted value, not a rewording. Insertions ("likes" / "really likes") are not substitutions.
 */
function substitutesOneSpan(a: string, b: string): boolean {
  const x = a.toLowerCase().match(TOKEN_RE) ?? [];
  const y = b.toLowerCase().match(TOKEN_RE) ?? [];
  let head = 0;
  while (head < x.length && head < y.length && x[head] === y[head]) head++;
  let tail = 0;
  while (tail < x.length - head && tail < y.length - head && x[x.length - 1 - tail] === y[y.length - 1 - tail]) tail++;
  const [restX, restY] = [x.length - head - tail, y.length - head - tail];
  return restX > 0 && restY > 0 && restX <= 3 && restY <= 3 && head + tail >= 2;
}

/** Do two texts state different values (a number or name only one holds, a negation only one makes, a substituted span)? */
export function statesOtherValues(a: string, b: string): boolean {
  const [x, y] = [valueTokens(a), valueTokens(b)];
  if (x.negated !== y.negated) return true;
  if (substitutesOneSpan(a, b)) return true;
  for (const v of x.values) if (!y.all.has(v)) return true;
  for (const v of y.values) if (!x.all.has(v)) return true;
  return false;
}

/** Returns up to `k` items in MMR order, near-duplicates of a picked item left out. Ties keep input order (deterministic). */
export function mmrSelect<T extends MmrItem>(items: readonly T[], k: number, lambda: number, duplicate?: NearDuplicate): T[] {
  if (k <= 0 || items.length === 0) return [];
  if (lambda >= 1 && !duplicate) return [...items].sort((a, b) => b.score - a.score).slice(0, k);
  const max = Math.max(...items.map((i) => i.score));
  const min = Math.min(...items.map((i) => i.score));
  // Scores are non-negative sums; min-max only for the odd negative pool.
  const rel = items.map((i) => (min >= 0 ? (max > 0 ? i.score / max : 1) : (i.score - min) / (max - min || 1)));
  // Each vector's norm once; word sets only for the items compared by Jaccard (one of the pair has no vector).
  const norms = items.map((i) => (i.vector ? Math.sqrt(dot(i.vector, i.vector)) : 0));
  const words: (Set<string> | undefined)[] = [];
  const wordsOf = (x: number) => (words[x] ??= wordSet(items[x]!.text));
  // The cosine of two items' vectors (0 for a zero or mismatched one); undefined when either has none.
  const cosineOf = (x: number, y: number): number | undefined => {
    const vx = items[x]!.vector;
    const vy = items[y]!.vector;
    if (!vx || !vy) return undefined;
    const n = norms[x]! * norms[y]!;
    return n === 0 || vx.length !== vy.length ? 0 : dot(vx, vy) / n;
  };
  const similarity = (x: number, y: number): number => {
    const cos = cosineOf(x, y);
    return cos !== undefined ? Math.max(0, cos) : jaccard(wordsOf(x), wordsOf(y));
  };

  const stems: (Set<string> | undefined)[] = [];
  const stemsOf = (x: number) => (stems[x] ??= stemSet(items[x]!.text));
  const isDuplicate = (x: number, y: number): boolean => {
    if (!duplicate) return false;
    const cos = cosineOf(x, y);
    if (cos !== undefined) return cos >= duplicate.cosine && jaccard(stemsOf(x), stemsOf(y)) >= duplicate.jaccard && !distinct(x, y);
    return jaccard(stemsOf(x), stemsOf(y)) >= duplicate.textOnly && !distinct(x, y);
  };

  const distinct = (x: number, y: number) => statesOtherValues(items[x]!.text, items[y]!.text);

  const picked: number[] = [];
  // maxSim[i]: the highest similarity of i to anything picked so far (updated incrementally: O(n·k)).
  const maxSim = new Array<number>(items.length).fill(0);
  const open = new Set(items.map((_, i) => i));
  while (picked.length < k && open.size > 0) {
    let best = -1;
    let bestValue = -Infinity;
    for (const i of open) {
      const value = lambda * rel[i]! - (1 - lambda) * maxSim[i]!;
      if (value > bestValue) {
        bestValue = value;
        best = i;
      }
    }
    picked.push(best);
    open.delete(best);
    for (const i of open) {
      if (isDuplicate(i, best)) open.delete(i);
      else maxSim[i] = Math.max(maxSim[i]!, lambda >= 1 ? 0 : similarity(i, best));
    }
  }
  return picked.map((i) => items[i]!);
}
