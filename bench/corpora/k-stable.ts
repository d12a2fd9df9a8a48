/**
 * `npx tsx bench/corpora/k-stable.ts [--split tune] [--corpora a.json,...] [--cache-dir DIR] [--ks 10,20,50]`: whether
 * search's head depends on the k asked. Per mode (lexical, vector, hybrid, hybrid + rerank) and k: mean evidence R@10
 * and the number of questions whose top 10 differs from the top 10 at the smallest k. A tuning aid: tune split only.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { createUseLiteEmbedder } from '../../src/index.js';
import { cachedEmbedder } from '../locomo/embed-cache.js';
import { corpusKey, openCorpus } from './run.js';
import type { Corpus } from './src/format.js';

const o = new Command()
  .option('--split <s>', 'tune or eval', 'tune')
  .option('--corpora <files>')
  .option('--cache-dir <dir>', '', '.engram-cache/corpora')
  .option('--ks <list>', 'k values asked', '10,20,50')
  .parse(process.argv)
  .opts<{ split: string; corpora?: string; cacheDir: string; ks: string }>();
const here = import.meta.dirname;
const files = o.corpora ? o.corpora.split(',') : readdirSync(here).filter((f) => f.endsWith('.json')).sort().map((f) => join(here, f));
const ks = o.ks.split(',').map(Number);
const inner = createUseLiteEmbedder({ provider: 'use-lite', workers: 2, batchSize: 16 });
await inner.init();
const cacheDir = resolve(o.cacheDir);
const embedder = cachedEmbedder(inner, join(cacheDir, `embeddings-${inner.model.replace(/[^A-Za-z0-9._-]+/g, '_')}.db`));
const modes = [
  ['lexical', false],
  ['vector', false],
  ['hybrid', false],
  ['hybrid', true],
] as const;
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const corpus = JSON.parse(text) as Corpus;
  const { memory } = await openCorpus(corpus, embedder, cacheDir, corpusKey(text, inner.model), () => undefined);
  const qs = corpus.questions.filter((x) => x.split === o.split);
  console.log(`\n## ${corpus.name} (${qs.length} questions)`);
  for (const [mode, rerank] of modes) {
    const row: string[] = [];
    const base = new Map<string, string>();
    for (const k of ks) {
      let recall = 0;
      let changed = 0;
      for (const q of qs) {
        const hits = await memory.search({ query: q.q, k, mode, tenant: corpus.name, kinds: ['event'], rerank });
        const top = hits.slice(0, 10).map((h) => h.doc.metadata.doc_id as string);
        recall += q.evidence.filter((e) => top.includes(e)).length / q.evidence.length;
        const key = top.join(',');
        if (!base.has(q.id)) base.set(q.id, key);
        else if (base.get(q.id) !== key) changed++;
      }
      row.push(`k ${k}: R@10 ${(recall / qs.length).toFixed(3)} top10≠ ${changed}`);
    }
    console.log(`${mode}${rerank ? '+rerank' : ''}`.padEnd(16), row.join(' | '));
  }
  await memory.close();
}
await embedder.close();
