/** The paraphrase dev set (reworded queries over agent memories; gold = one memory id per query). */
import { createHash } from 'node:crypto';
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

export interface ParaphraseScore {
  n: number;
  /** Cut-off k → share of queries whose gold memory is among the first k. */
  recall: Record<string, number>;
}

/** The cut-offs the paraphrase set reports: R@1 and the bench's ks. */
export function paraphraseCutoffs(ks: readonly number[]): number[] {
  return [...new Set([1, ...ks])].sort((a, b) => a - b);
}

/**
 * R@k of ranked memory ids against each query's gold id. `askedAt` holds, per k, the lists a retriever returned
 * when asked for k (its top can change with k, as getContext's does); each is scored at its k. A cut-off that was
 * not asked (R@1) reads the lists of the smallest ask above it.
 */
export function paraphraseRecall(askedAt: ReadonlyMap<number, readonly (readonly string[])[]>, gold: readonly string[], cutoffs: readonly number[]): ParaphraseScore {
  const asked = [...askedAt.keys()].sort((a, b) => a - b);
  const n = gold.length;
  const recall: Record<string, number> = {};
  for (const k of cutoffs) {
    const from = asked.find((a) => a >= k);
    if (from === undefined) continue;
    const lists = askedAt.get(from)!;
    const found = gold.filter((g, i) => {
      const at = (lists[i] ?? []).indexOf(g);
      return at >= 0 && at < k;
    }).length;
    recall[String(k)] = Math.round((found / Math.max(1, n)) * 1000) / 1000;
  }
  return { n, recall };
}

export type ParaphraseSplit = 'tune' | 'eval';

/**
 * The frozen tuning/evaluation split: queries ordered by the SHA-256 of their text, the first half `tune`, the
 * rest `eval`. It depends on the query text alone, so reordering or extending the file moves no query's half
 * unless the ordering itself changes.
 */
export function paraphraseSplitOf(queries: readonly { q: string }[]): Map<string, ParaphraseSplit> {
  const byHash = queries.map((x) => ({ q: x.q, h: createHash('sha256').update(x.q).digest('hex') })).sort((a, b) => (a.h < b.h ? -1 : a.h > b.h ? 1 : 0));
  const half = Math.ceil(byHash.length / 2);
  return new Map(byHash.map((x, i) => [x.q, i < half ? 'tune' : 'eval']));
}

/** The queries of one half (all of them when no split is asked). */
export function paraphraseQueries(set: ParaphraseSet, split: ParaphraseSplit | undefined): ParaphraseSet['queries'] {
  if (split === undefined) return set.queries;
  const of = paraphraseSplitOf(set.queries);
  return set.queries.filter((x) => of.get(x.q) === split);
}
