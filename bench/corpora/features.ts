/**
 * `npx tsx bench/corpora/features.ts [--cache-dir DIR] [--split tune]`: per query, the signals a relevance floor could
 * read — the candidates' best raw cosines, their best share of the query's words, and where the best cosine stands in
 * the cosines of the whole store — for each corpus' questions of the split and for the written off-topic queries of
 * the split (bench/corpora/src/off-topic.json). Read by hand to choose the floor; prints TSV.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { createUseLiteEmbedder } from '../../src/index.js';
import { coverage, queryStems } from '../../src/read/floor.js';
import { cosine } from '../../src/learn/vector.js';
import { cachedEmbedder } from '../locomo/embed-cache.js';
import { corpusKey, openCorpus } from './run.js';
import type { Corpus } from './src/format.js';

const o = new Command().option('--split <s>', 'tune | eval', 'tune').option('--cache-dir <dir>', 'cache', '.engram-cache/corpora').parse(process.argv).opts<{ split: string; cacheDir: string }>();
const here = import.meta.dirname;
const files = readdirSync(here).filter((f) => f.endsWith('.json')).sort().map((f) => join(here, f));
const offTopic = (JSON.parse(readFileSync(join(here, 'src', 'off-topic.json'), 'utf8')) as { queries: { q: string; split: string }[] }).queries.filter((q) => q.split === o.split);
const inner = createUseLiteEmbedder({ provider: 'use-lite', workers: 2, batchSize: 16 });
await inner.init();
const embedder = cachedEmbedder(inner, join(resolve(o.cacheDir), `embeddings-${inner.model.replace(/[^A-Za-z0-9._-]+/g, '_')}.db`));
const r2 = (x: number) => x.toFixed(2);
console.log(['corpus', 'kind', 'id', 'c1', 'c2', 'c3', 'c10', 'covMax', 'nCov', 'mean', 'sd', 'z1', 'centroid', 'lexTopCos', 'covCos', 'query'].join('\t'));
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const corpus = JSON.parse(text) as Corpus;
  const { memory } = await openCorpus(corpus, embedder, resolve(o.cacheDir), corpusKey(text, inner.model), () => undefined);
  const all = await memory.search({ query: 'anything', k: 1000, mode: 'lexical', tenant: corpus.name, kinds: ['event'] }).catch(() => []);
  void all;
  const every = await memory.search({ query: 'the', k: 1000, mode: 'vector', tenant: corpus.name, kinds: ['event'], rerank: false });
  const vecs = await memory.storage.getEmbeddings([...new Set(every.map((h) => h.doc.contentHash))]);
  const storeVecs = [...vecs.values()];
  const dim = storeVecs[0]!.length;
  const centroid = new Float32Array(dim);
  for (const v of storeVecs) for (let i = 0; i < dim; i++) centroid[i]! += v[i]! / storeVecs.length;
  const asked = [
    ...corpus.questions.filter((q) => q.split === o.split).map((q) => ({ kind: 'question', id: q.id, q: q.q })),
    ...offTopic.map((q, i) => ({ kind: 'off-topic', id: `o${i + 1}`, q: q.q })),
  ];
  for (const a of asked) {
    const [qv] = await embedder.embed([a.q]);
    const stems = queryStems(a.q);
    const [vec, lex] = await Promise.all([
      memory.search({ query: a.q, k: 50, mode: 'vector', tenant: corpus.name, kinds: ['event'], rerank: false }),
      memory.search({ query: a.q, k: 50, mode: 'lexical', tenant: corpus.name, kinds: ['event'], rerank: false }),
    ]);
    const pool = [...new Map([...vec, ...lex].map((h) => [h.doc.refId, h.doc])).values()];
    const pv = await memory.storage.getEmbeddings([...new Set(pool.map((d) => d.contentHash))]);
    const raw = pool.map((d) => (pv.get(d.contentHash) ? cosine(qv!, pv.get(d.contentHash)!) : 0));
    const covs = pool.map((d) => coverage(stems, d.text));
    const covCos = Math.max(-1, ...raw.filter((_, i) => covs[i]! > 0));
    const cos = [...raw].sort((x, y) => y - x);
    const storeCos = storeVecs.map((v) => cosine(qv!, v));
    const mean = storeCos.reduce((s, x) => s + x, 0) / storeCos.length;
    const sd = Math.sqrt(storeCos.reduce((s, x) => s + (x - mean) ** 2, 0) / storeCos.length);
    const lexTop = lex[0] ? cosine(qv!, pv.get(lex[0].doc.contentHash) ?? new Float32Array(dim)) : 0;
    console.log([corpus.name, a.kind, a.id, r2(cos[0]!), r2(cos[1]!), r2(cos[2]!), r2(cos[9]!), r2(Math.max(0, ...covs)), covs.filter((c) => c > 0).length, r2(mean), r2(sd), r2((cos[0]! - mean) / sd), r2(cosine(qv!, centroid)), r2(lexTop), r2(covCos), a.q].join('\t'));
  }
  await memory.close();
}
await embedder.close();
