import { describe, expect, it } from 'vitest';
import { renderCorpora } from './report.js';
import type { CorpusReport } from './run.js';

const recallAt = (x: number) => ({ '5': x, '10': x, '20': x });
const corpus = (questions: CorpusReport['questions']): CorpusReport => ({
  name: 'c',
  shape: 'a shape',
  memories: 10,
  questions,
  recall: { bm25: { tune: recallAt(0.5), eval: recallAt(0), all: recallAt(0.5) } },
  msPerQuery: { bm25: 1 },
  budgeted: { items: 10, recall: 0.5, minItems: 10 },
  reused: false,
});
const rowsOf = (text: string) => text.split('\n').filter((l) => l.startsWith('bm25'));

describe('renderCorpora', () => {
  it('shows a row per split that has questions', () => {
    const text = renderCorpora({ ks: [5, 10, 20], corpora: [corpus({ tune: 2, eval: 2, all: 4 })], embeddingCache: { hits: 0, misses: 0 } });
    expect(rowsOf(text).map((l) => l.split(/\s+/)[1])).toEqual(['tune', 'eval', 'all']);
  });

  it('leaves out a split without questions instead of printing its recall as 0', () => {
    const text = renderCorpora({ ks: [5, 10, 20], corpora: [corpus({ tune: 4, eval: 0, all: 4 })], embeddingCache: { hits: 0, misses: 0 } });
    expect(rowsOf(text).map((l) => l.split(/\s+/)[1])).toEqual(['tune', 'all']);
    expect(text).toContain('(tune 4, eval 0)');
  });
});
