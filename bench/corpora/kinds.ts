/**
 * `npx tsx bench/corpora/kinds.ts [--split tune] [--cache-dir DIR] [--k 5,10,20]`: evidence recall@k of BM25, vector,
 * hybrid and getContext on long-chats, by kind of question (single, multi, temporal, update), for one split. A tuning
 * aid: read the tune split only; the eval split is reported in totals by `bench:corpora`.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { createUseLiteEmbedder } from '../../src/index.js';
import { cachedEmbedder } from '../locomo/embed-cache.js';
import { contextRetriever, searchRetriever, type Retriever } from '../locomo/retrievers.js';
import { corpusKey, openCorpus, recallAt, RETRIEVERS, type RetrieverName } from './run.js';
import type { Corpus } from './src/format.js';
import { longChatKinds } from './src/long-chats.js';

const o = new Command()
  .option('--split <s>', 'tune or eval', 'tune')
  .option('--cache-dir <dir>', '', '.engram-cache/corpora')
  .option('--k <list>', 'cut-offs', '5,10,20')
  .parse(process.argv)
  .opts<{ split: string; cacheDir: string; k: string }>();
const ks = o.k.split(',').map(Number);
const file = join(import.meta.dirname, 'long-chats.json');
const text = readFileSync(file, 'utf8');
const corpus = JSON.parse(text) as Corpus;
const inner = createUseLiteEmbedder({ provider: 'use-lite', workers: 2, batchSize: 16 });
await inner.init();
const cacheDir = resolve(o.cacheDir);
const embedder = cachedEmbedder(inner, join(cacheDir, `embeddings-${inner.model.replace(/[^A-Za-z0-9._-]+/g, '_')}.db`));
const { memory, idOf } = await openCorpus(corpus, embedder, cacheDir, corpusKey(text, inner.model), () => undefined);
const retrievers: Record<RetrieverName, Retriever> = {
  bm25: searchRetriever(memory, 'lexical', 'doc_id'),
  vector: searchRetriever(memory, 'vector', 'doc_id'),
  hybrid: searchRetriever(memory, 'hybrid', 'doc_id'),
  getContext: contextRetriever(memory, idOf),
};
const kinds = longChatKinds();
const questions = corpus.questions.filter((q) => q.split === o.split);
const rows: string[] = [];
for (const kind of [...new Set(kinds.values()), 'all']) {
  const qs = questions.filter((q) => kind === 'all' || kinds.get(q.id) === kind);
  const cells: string[] = [];
  for (const name of RETRIEVERS) {
    const sums = ks.map(() => 0);
    for (const q of qs) {
      const ranked = await retrievers[name](q.q, corpus.name, Math.max(...ks));
      ks.forEach((k, i) => (sums[i]! += recallAt(q.evidence, ranked, k)));
    }
    cells.push(`${name} ${sums.map((s) => (s / qs.length).toFixed(3)).join('/')}`);
  }
  rows.push(`${kind} (${qs.length}): ${cells.join('  ')}`);
}
process.stdout.write(`long-chats ${o.split}, R@${ks.join('/')}\n${rows.join('\n')}\n`);
await memory.close();
await embedder.close();
