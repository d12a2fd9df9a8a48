/**
 * `npx tsx bench/corpora/gap.ts [--split tune] [--k 10] [--cache-dir DIR] [--off-topic]`: per question, where getContext
 * ranks the evidence against hybrid search, and, with `explain`, the step that dropped the evidence getContext lost.
 * With `--off-topic`: what the written off-topic queries (bench/corpora/src/off-topic.json) get from each corpus.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { createUseLiteEmbedder } from '../../src/index.js';
import { cachedEmbedder } from '../locomo/embed-cache.js';
import { distinct } from '../locomo/retrievers.js';
import { corpusKey, openCorpus } from './run.js';
import type { Corpus } from './src/format.js';

const o = new Command()
  .option('--split <s>', 'tune | eval | all', 'tune')
  .option('--k <n>', 'cut-off', '10')
  .option('--cache-dir <dir>', 'cache', '.engram-cache/corpora')
  .option('--off-topic', 'run the off-topic queries instead', false)
  .option('--all', 'print every question, not only the gaps', false)
  .option('--floor <json>', 'relevance_floor settings to try, as JSON', '{}')
  .parse(process.argv)
  .opts<{ split: string; k: string; cacheDir: string; offTopic: boolean; all: boolean; floor: string }>();
const k = Number(o.k);
const here = import.meta.dirname;
const files = readdirSync(here).filter((f) => f.endsWith('.json')).sort().map((f) => join(here, f));
const offTopic = (JSON.parse(readFileSync(join(here, 'src', 'off-topic.json'), 'utf8')) as { queries: { q: string; split: string }[] }).queries;
const inner = createUseLiteEmbedder({ provider: 'use-lite', workers: 2, batchSize: 16 });
await inner.init();
const embedder = cachedEmbedder(inner, join(resolve(o.cacheDir), `embeddings-${inner.model.replace(/[^A-Za-z0-9._-]+/g, '_')}.db`));
const log = (s: string) => process.stderr.write(`${s}\n`);
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const corpus = JSON.parse(text) as Corpus;
  const { memory, idOf } = await openCorpus(corpus, embedder, resolve(o.cacheDir), corpusKey(text, inner.model), log);
  const docOf = new Map(corpus.docs.map((d) => [d.id, d]));
  const ctxOf = (q: string, topK: number) =>
    memory.getContext(q, { tenant: corpus.name, episodic_window: { mode: 'none' }, semantic_retrieval: { top_k: topK, kinds: ['event'], relevance_floor: JSON.parse(o.floor) as Record<string, number> }, merge_policy: { token_budget: 200 * topK }, explain: true });
  if (o.offTopic) {
    for (const { q, split } of offTopic.filter((x) => o.split === 'all' || x.split === o.split)) {
      const ctx = await ctxOf(q, 10);
      const items = ctx.items.filter((i) => i.kind === 'event');
      const weak = items.filter((i) => (i.scores as { weak?: boolean }).weak === true).length;
      const ok = items.length === 0 || (items.length <= 3 && weak === items.length);
      console.log(`${ok ? 'ok  ' : 'FAIL'} ${corpus.name}\t${split}\t${items.length} items (${weak} weak)\t${q}\t${items.slice(0, 2).map((i) => i.text.slice(0, 50)).join(' | ')}`);
    }
    await memory.close();
    continue;
  }
  let gapSum = 0;
  for (const q of corpus.questions) {
    if (o.split !== 'all' && q.split !== o.split) continue;
    const hits = await memory.search({ query: q.q, k: 20, mode: 'hybrid', tenant: corpus.name, kinds: ['event'], rerank: true });
    const hybrid = distinct(hits.map((h) => (typeof h.doc.metadata.doc_id === 'string' ? h.doc.metadata.doc_id : undefined)));
    const ctx = await ctxOf(q.q, 20);
    const context = distinct(ctx.items.filter((i) => i.kind === 'event').map((i) => idOf.get(i.id)));
    const rank = (list: string[], e: string) => (list.indexOf(e) < 0 ? '-' : String(list.indexOf(e) + 1));
    const rh = q.evidence.filter((e) => hybrid.slice(0, k).includes(e)).length / q.evidence.length;
    const rc = q.evidence.filter((e) => context.slice(0, k).includes(e)).length / q.evidence.length;
    gapSum += rh - rc;
    if (!o.all && rh === rc && q.evidence.every((e) => rank(hybrid, e) === rank(context, e))) continue;
    const why = q.evidence.map((e) => {
      const eventId = [...idOf].find(([, d]) => d === e)?.[0];
      const d = ctx.droppedItems?.find((x) => x.id === eventId);
      return `${e}: hybrid ${rank(hybrid, e)} ctx ${rank(context, e)}${d ? ` (${d.reason})` : ''}`;
    });
    console.log(`${corpus.name} ${q.id} R@${k} ${rh.toFixed(2)}/${rc.toFixed(2)} items ${context.length} "${q.q}"\n   ${why.join('; ')}`);
    void docOf;
  }
  console.log(`${corpus.name}: sum of (hybrid − getContext) R@${k} over ${o.split}: ${gapSum.toFixed(3)}`);
  await memory.close();
}
await embedder.close();
