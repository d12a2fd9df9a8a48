/**
 * `npx tsx bench/corpora/probe.ts [--split tune] [--corpora a.json,...] [--cache-dir DIR]`: per question of one split,
 * the rank of each evidence memory under BM25, vector, hybrid without rerank and hybrid `search`, with the hybrid
 * scores of each evidence memory (vector, lexical, rerank, relevance). A tuning aid: read the tune split only.
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
  .option('--k <n>', 'depth', '30')
  .parse(process.argv)
  .opts<{ split: string; corpora?: string; cacheDir: string; k: string }>();
const here = import.meta.dirname;
const files = o.corpora ? o.corpora.split(',') : readdirSync(here).filter((f) => f.endsWith('.json')).sort().map((f) => join(here, f));
const inner = createUseLiteEmbedder({ provider: 'use-lite', workers: 2, batchSize: 16 });
await inner.init();
const cacheDir = resolve(o.cacheDir);
const embedder = cachedEmbedder(inner, join(cacheDir, `embeddings-${inner.model.replace(/[^A-Za-z0-9._-]+/g, '_')}.db`));
const k = Number(o.k);
const f3 = (x: number | null | undefined) => (x === null || x === undefined ? '  -  ' : x.toFixed(3));
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const corpus = JSON.parse(text) as Corpus;
  const { memory } = await openCorpus(corpus, embedder, cacheDir, corpusKey(text, inner.model), () => undefined);
  const byDoc = new Map(corpus.docs.map((d) => [d.id, d]));
  console.log(`\n## ${corpus.name}`);
  for (const q of corpus.questions.filter((x) => x.split === o.split)) {
    const run = async (mode: 'lexical' | 'vector' | 'hybrid', rerank: boolean) =>
      (await memory.search({ query: q.q, k, mode, tenant: corpus.name, kinds: ['event'], rerank })).map((h) => ({ id: h.doc.metadata.doc_id as string, s: h.scores, len: h.doc.text.length }));
    const [lex, vec, hyb0, hyb] = await Promise.all([run('lexical', false), run('vector', false), run('hybrid', false), run('hybrid', true)]);
    const rank = (list: { id: string }[], id: string) => {
      const i = list.findIndex((x) => x.id === id);
      return i < 0 ? '-' : String(i + 1);
    };
    const r10 = (list: { id: string }[]) => q.evidence.filter((e) => list.slice(0, 10).some((x) => x.id === e)).length / q.evidence.length;
    console.log(`${q.id} [bm25 ${r10(lex).toFixed(2)} vec ${r10(vec).toFixed(2)} hyb0 ${r10(hyb0).toFixed(2)} hyb ${r10(hyb).toFixed(2)}] ${q.q}`);
    for (const e of q.evidence) {
      const h = hyb.find((x) => x.id === e);
      const d = byDoc.get(e);
      console.log(`   ${e} (${d?.name ?? d?.type}, ${(d?.content ?? '').length}c) ranks bm25 ${rank(lex, e)} vec ${rank(vec, e)} hyb0 ${rank(hyb0, e)} hyb ${rank(hyb, e)}  v ${f3(h?.s.vector)} l ${f3(h?.s.lexical)} rr ${f3(h?.s.rerank)} rel ${f3(h?.s.relevance)} fin ${f3(h?.s.final)}`);
    }
    if (process.env.PROBE_TOP) for (const x of hyb.slice(0, Number(process.env.PROBE_TOP))) console.log(`      top ${x.id} len ${x.len} v ${f3(x.s.vector)} l ${f3(x.s.lexical)} rr ${f3(x.s.rerank)} rel ${f3(x.s.relevance)} fin ${f3(x.s.final)}`);
  }
  await memory.close();
}
await embedder.close();
