/**
 * The evidence-labelled corpora of `npm run bench:corpora`: memories as events, questions with the ids of the
 * memories that answer them, and a frozen split per question (`tune` may be used to choose settings; `eval`
 * never is). Written by `bench/corpora/generate.ts` into `bench/corpora/<name>.json`.
 */
export interface CorpusDoc {
  id: string;
  type: 'message' | 'tool_call' | 'observation' | 'decision' | 'outcome' | 'error' | 'note';
  /** Chat speaker, agent or tool: becomes the event's `name`. */
  name?: string | undefined;
  session?: string | undefined;
  /** ISO 8601. */
  ts: string;
  content?: string | undefined;
  tool?: string | undefined;
  args?: Record<string, string | number | boolean> | undefined;
  result?: Record<string, string | number | boolean> | undefined;
  source?: string | undefined;
  section?: string | undefined;
}

export interface CorpusQuestion {
  id: string;
  q: string;
  evidence: string[];
  split: 'tune' | 'eval';
}

export interface Corpus {
  name: string;
  shape: string;
  docs: CorpusDoc[];
  questions: CorpusQuestion[];
}

export { rng } from '../../lib/rng.js';

export const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

/** `n` distinct items of `xs` in random order (all of them when n ≥ length). */
export function sample<T>(r: () => number, xs: readonly T[], n: number): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a.slice(0, n);
}

/** Questions alternate between the splits in the order written (the first goes to `tune`). */
export function alternate<T>(items: readonly T[]): (T & { split: 'tune' | 'eval' })[] {
  return items.map((x, i) => ({ ...x, split: i % 2 === 0 ? 'tune' : 'eval' }));
}
