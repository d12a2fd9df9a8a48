import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createUseLiteEmbedder } from '../../src/index.js';
import { paraphraseCutoffs, paraphraseQueries, paraphraseRecall, paraphraseSplitOf } from './paraphrase.js';
import { renderLocomo } from './report.js';
import { runLocomoBench } from './run.js';

const dir = mkdtempSync(join(tmpdir(), 'paraphrase-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('paraphrase recall at k', () => {
  it('scores each list at the k it was asked for, R@1 from the smallest ask', () => {
    const gold = ['a', 'b', 'c'];
    // Asked for 2: a first, b second, c missing. Asked for 4: the retriever ranked differently (c 4th, b gone).
    const askedAt = new Map([
      [2, [['a', 'x'], ['x', 'b'], ['x', 'y']]],
      [4, [['x', 'a', 'y', 'z'], ['x', 'y', 'z', 'w'], ['x', 'y', 'z', 'c']]],
    ]);
    const s = paraphraseRecall(askedAt, gold, paraphraseCutoffs([4, 2]));
    expect(s.n).toBe(3);
    expect(s.recall).toEqual({ '1': 0.333, '2': 0.667, '4': 0.667 });
  });

  it('reports no cut-off above the largest ask', () => {
    expect(paraphraseRecall(new Map([[5, [['a']]]]), ['a'], [1, 5, 10]).recall).toEqual({ '1': 1, '5': 1 });
  });

  it('lists R@1 with the bench cut-offs, once and in order', () => {
    expect(paraphraseCutoffs([20, 5, 10, 5])).toEqual([1, 5, 10, 20]);
    expect(paraphraseCutoffs([1, 3])).toEqual([1, 3]);
  });
});

describe('the frozen paraphrase split', () => {
  const queries = Array.from({ length: 11 }, (_, i) => ({ q: `query number ${i}`, gold: `m${i}` }));

  it('halves the queries by the hash of their text, whatever their order', () => {
    const of = paraphraseSplitOf(queries);
    const tune = queries.filter((x) => of.get(x.q) === 'tune');
    expect(tune).toHaveLength(6);
    const reversed = paraphraseSplitOf([...queries].reverse());
    for (const x of queries) expect(reversed.get(x.q)).toBe(of.get(x.q));
    // Neither half is simply the first queries of the file.
    expect(tune.map((x) => x.gold)).not.toEqual(queries.slice(0, 6).map((x) => x.gold));
  });

  it('selects one half, or every query without a split', () => {
    const set = { memories: [], queries };
    const tune = paraphraseQueries(set, 'tune');
    const evalHalf = paraphraseQueries(set, 'eval');
    expect(tune.length + evalHalf.length).toBe(queries.length);
    expect(tune.filter((x) => evalHalf.includes(x))).toEqual([]);
    expect(paraphraseQueries(set, undefined)).toBe(queries);
  });
});

describe('runLocomoBench with the paraphrase set only', () => {
  it('reports R@1 and R@k for every retriever including getContext, without LoCoMo data', async () => {
    const para = join(dir, 'para.json');
    const memories = [
      { id: 'm0', text: 'The nightly build broke because the disk was full.' },
      { id: 'm1', text: 'Alice likes short status updates.' },
      { id: 'm2', text: 'The office plants are watered on Mondays.' },
    ];
    writeFileSync(para, JSON.stringify({ memories, queries: [{ q: 'Why did the overnight pipeline fail?', gold: 'm0' }, { q: 'How does Alice want progress reports?', gold: 'm1' }] }));
    const r = await runLocomoBench({ paraphrasePath: para, cacheDir: join(dir, 'cache'), ks: [2, 3], mem0: false, embedder: createUseLiteEmbedder({ provider: 'use-lite', workers: 0, batchSize: 16 }) });
    expect(r.conversations).toBe(0);
    expect(r.data).toBeNull();
    expect(Object.keys(r.retrievers)).toEqual(['bm25', 'vector', 'hybrid', 'getContext']);
    for (const rep of Object.values(r.retrievers)) {
      expect(rep.paraphrase.n).toBe(2);
      expect(Object.keys(rep.paraphrase.recall)).toEqual(['1', '2', '3']);
    }
    // Three memories and k = 3: vector search returns them all, so it finds both golds.
    expect(r.retrievers.vector!.paraphrase.recall['3']).toBe(1);
    expect(r.retrievers.getContext!.paraphrase.recall['3']).toBeGreaterThan(0);
    const text = renderLocomo(r);
    expect(text).toContain('R@3');
    expect(text).not.toContain('LoCoMo');
    const half = await runLocomoBench({ paraphrasePath: para, paraphraseSplit: 'tune', cacheDir: join(dir, 'cache'), ks: [3], mem0: false, embedder: createUseLiteEmbedder({ provider: 'use-lite', workers: 0, batchSize: 16 }) });
    expect(half.paraphraseSplit).toBe('tune');
    expect(half.retrievers.bm25!.paraphrase.n).toBe(1);
  }, 120_000);
});
