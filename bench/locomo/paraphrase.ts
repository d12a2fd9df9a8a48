/** The paraphrase dev set (reworded queries over agent memories; gold = one memory id per query). */
import { readFileSync } from 'node:fs';
import { EngramError } from '../../src/index.js';

export interface ParaphraseSet {
  memories: { id: string; text: string }[];
  queries: { q: string; gold: string }[];
}

export function loadParaphrase(path: string): ParaphraseSet {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch (cause) {
    throw new EngramError('NOT_FOUND', `paraphrase set not readable: ${path} (pass --paraphrase FILE)`, { cause });
  }
  const d = data as Partial<ParaphraseSet>;
  if (!Array.isArray(d.memories) || !Array.isArray(d.queries)) {
    throw new EngramError('VALIDATION', `${path}: expected {memories, queries}`, { issues: [{ path: 'memories', message: 'expected a list' }] });
  }
  return { memories: d.memories, queries: d.queries };
}

/** R@1 and R@5 of ranked memory ids against each query's gold id. */
export function paraphraseRecall(ranked: readonly (readonly string[])[], gold: readonly string[]): { r1: number; r5: number; n: number } {
  let r1 = 0;
  let r5 = 0;
  ranked.forEach((ids, i) => {
    const at = ids.indexOf(gold[i]!);
    if (at === 0) r1 += 1;
    if (at >= 0 && at < 5) r5 += 1;
  });
  const n = gold.length;
  const r = (x: number) => Math.round((x / Math.max(1, n)) * 1000) / 1000;
  return { r1: r(r1), r5: r(r5), n };
}
