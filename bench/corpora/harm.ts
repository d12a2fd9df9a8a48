/**
 * `npx tsx bench/corpora/harm.ts --cache-dir DIR [--corpora a.json,...] [--locomo locomo10.json --locomo-cache DIR]
 * [--out FILE] [--quiet]`: where hybrid fusion does harm or helps, per question of the tuning material only (each
 * corpus' tune half, LoCoMo's dev conversations). For every evidence memory: its rank under BM25, vector, hybrid
 * without rerank and hybrid `search` as the benches ask it (rerank on), all asked for k 80 (the calibration head, so
 * the top 10 is the benches' own: pool.ts). A *harm* item is evidence a single signal has in its top 10 and hybrid
 * does not; a *help* item is evidence hybrid has in its top 10 and neither signal has. Per harm item, the hybrid
 * scores of the evidence and of the hybrid top 10 that sits above it (rerank on), and a first class:
 *   rerank     hybrid without rerank has it in its top 10, hybrid with rerank does not;
 *   steps      its fused relevance ranks it in the top 10 of the no-rerank list, `final` (recency, importance, the
 *              expansion's neighbours and time factor) does not;
 *   lexical-weighed  a BM25 top-10 item whose lexical evidence in hybrid fell below the vector evidence of the
 *              memories above it (the length reliability or the share of the attainable BM25);
 *   vector-weighed   a vector top-10 item pushed down by memories the lexical signal lifted;
 *   mixed      anything else.
 * Prints per corpus: questions, R@k (k: --top, 10) of each ranking, harm and help items, and the worst margin hybrid − max(BM25,
 * vector) at R@k (the figure fusion is chosen by); `--out` writes one JSON line per question for offline reading.
 * A tuning aid: it never asks an eval question or a held-out conversation.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { createUseLiteEmbedder, type Memory } from '../../src/index.js';
import { cachedEmbedder } from '../locomo/embed-cache.js';
import { openCachedRun } from '../locomo/cached.js';
import { DEV_SPLIT, loadLocomo } from '../locomo/dataset.js';
import { corpusKey, openCorpus } from './run.js';
import type { Corpus } from './src/format.js';

/** Depth every ranking is asked for: the calibration head, so the first 10 are what the benches' k 20 returns. */
const DEPTH = 80;

interface Hit {
  id: string;
  len: number;
  v: number | null;
  l: number | null;
  rr: number | null;
  rel: number | null;
  fin: number;
}

export interface HarmItem {
  evidence: string;
  bm25: number;
  vector: number;
  hybrid0: number;
  hybrid: number;
  relRank: number;
  cls: string;
  scores?: Hit | undefined;
  above: Hit[];
}

export interface QuestionRow {
  corpus: string;
  id: string;
  q: string;
  evidence: string[];
  rk: { bm25: number; vector: number; hybrid0: number; hybrid: number };
  /** Per evidence memory: its rank under BM25, vector, hybrid without rerank, hybrid (null: past DEPTH). */
  ranks: Record<string, (number | null)[]>;
  harm: HarmItem[];
  help: string[];
}

const o = new Command()
  .option('--cache-dir <dir>', 'the corpora cache (bench:corpora)', '.engram-cache/corpora')
  .option('--corpora <files>', 'corpus JSON files, comma-separated (default: every bench/corpora/*.json)')
  .option('--locomo <file>', 'locomo10.json: also ask LoCoMo dev')
  .option('--locomo-cache <dir>', "a full bench:locomo run's cache dir", '.engram-cache/locomo')
  .option('--no-corpora-run', 'skip the corpora (LoCoMo only)')
  .option('--out <file>', 'JSON lines, one per question')
  .option('--quiet', 'totals only, no harm cases', false)
  .option('--top <n>', 'the cut-off harm and help are read at (at most 80)', '10')
  .parse(process.argv)
  .opts<{ cacheDir: string; corpora?: string; locomo?: string; locomoCache: string; corporaRun: boolean; out?: string; quiet: boolean; top: string }>();
const TOP = Math.min(DEPTH, Number(o.top));

const rankOf = (list: readonly Hit[], id: string) => {
  const i = list.findIndex((x) => x.id === id);
  return i < 0 ? Infinity : i + 1;
};
const inTop = (r: number) => r <= TOP;

async function ranking(memory: Memory, tenant: string, query: string, mode: 'lexical' | 'vector' | 'hybrid', rerank: boolean, key: string): Promise<Hit[]> {
  const hits = await memory.search({ query, k: DEPTH, mode, tenant, kinds: ['event'], rerank });
  const seen = new Set<string>();
  const out: Hit[] = [];
  for (const h of hits) {
    const id = h.doc.metadata[key];
    if (typeof id !== 'string' || seen.has(id)) continue;
    seen.add(id);
    const s = h.scores;
    out.push({ id, len: h.doc.text.length, v: s.vector, l: s.lexical, rr: s.rerank, rel: s.relevance, fin: s.final });
  }
  return out;
}

/** The first class of a harm item (see the header). */
export function classify(item: Omit<HarmItem, 'cls'>): string {
  if (inTop(item.hybrid0)) return 'rerank';
  if (inTop(item.relRank)) return 'steps';
  const s = item.scores;
  const aboveV = Math.max(0, ...item.above.map((h) => h.v ?? 0));
  const aboveL = Math.max(0, ...item.above.map((h) => h.l ?? 0));
  if (inTop(item.bm25) && !inTop(item.vector) && (s === undefined || (s.l ?? 0) < aboveV)) return 'lexical-weighed';
  if (inTop(item.vector) && !inTop(item.bm25) && (s === undefined || (s.v ?? 0) < aboveL)) return 'vector-weighed';
  return 'mixed';
}

async function askOne(memory: Memory, tenant: string, key: string, corpus: string, id: string, q: string, evidence: readonly string[]): Promise<QuestionRow> {
  const [lex, vec, hyb0, hyb] = [
    await ranking(memory, tenant, q, 'lexical', false, key),
    await ranking(memory, tenant, q, 'vector', false, key),
    await ranking(memory, tenant, q, 'hybrid', false, key),
    await ranking(memory, tenant, q, 'hybrid', true, key),
  ];
  const rk = (list: Hit[]) => evidence.filter((e) => inTop(rankOf(list, e))).length / evidence.length;
  // Rank by fused relevance alone among the no-rerank list (before recency, importance and the expansion).
  const byRel = [...hyb0].sort((a, b) => (b.rel ?? 0) - (a.rel ?? 0));
  const harm: HarmItem[] = [];
  const help: string[] = [];
  const ranks: QuestionRow['ranks'] = {};
  for (const e of evidence) {
    const [b, v, h0, h] = [rankOf(lex, e), rankOf(vec, e), rankOf(hyb0, e), rankOf(hyb, e)];
    ranks[e] = [b, v, h0, h].map((r) => (r === Infinity ? null : r));
    if ((inTop(b) || inTop(v)) && !inTop(h)) {
      const base = { evidence: e, bm25: b, vector: v, hybrid0: h0, hybrid: h, relRank: rankOf(byRel, e), scores: hyb.find((x) => x.id === e) ?? hyb0.find((x) => x.id === e), above: hyb.slice(0, TOP) };
      harm.push({ ...base, cls: classify(base) });
    }
    if (inTop(h) && !inTop(b) && !inTop(v)) help.push(e);
  }
  return { corpus, id, q, evidence: [...evidence], rk: { bm25: rk(lex), vector: rk(vec), hybrid0: rk(hyb0), hybrid: rk(hyb) }, ranks, harm, help };
}

const rows: QuestionRow[] = [];
const here = import.meta.dirname;
if (o.corporaRun) {
  const files = o.corpora ? o.corpora.split(',') : readdirSync(here).filter((f) => f.endsWith('.json')).sort().map((f) => join(here, f));
  const inner = createUseLiteEmbedder({ provider: 'use-lite', workers: 2, batchSize: 16 });
  await inner.init();
  const cacheDir = resolve(o.cacheDir);
  const embedder = cachedEmbedder(inner, join(cacheDir, `embeddings-${inner.model.replace(/[^A-Za-z0-9._-]+/g, '_')}.db`));
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const corpus = JSON.parse(text) as Corpus;
    const { memory } = await openCorpus(corpus, embedder, cacheDir, corpusKey(text, inner.model), (s) => process.stderr.write(`${s}\n`));
    for (const q of corpus.questions.filter((x) => x.split === 'tune')) rows.push(await askOne(memory, corpus.name, 'doc_id', corpus.name, q.id, q.q, q.evidence));
    await memory.close();
  }
  await embedder.close();
}
if (o.locomo) {
  const conversations = loadLocomo(o.locomo);
  const { engine, clock, close } = await openCachedRun(o.locomo, o.locomoCache, conversations);
  for (const c of conversations.filter((x) => DEV_SPLIT.includes(x.id))) {
    for (const [i, q] of c.questions.entries()) {
      if (q.evidence.length === 0 || q.category === 5) continue;
      clock.at = q.askedAt;
      rows.push(await askOne(engine.memory, c.id, 'dia_id', 'locomo-dev', `${c.id}#${i}`, q.question, q.evidence));
      clock.at = undefined;
    }
  }
  await close();
}
if (o.out) writeFileSync(o.out, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
report(rows);

function report(list: readonly QuestionRow[]): void {
  const f3 = (x: number | null | undefined) => (x === null || x === undefined ? '  -  ' : x.toFixed(3));
  const rk = (r: number) => (r === Infinity ? '-' : String(r));
  if (!o.quiet) {
    for (const r of list.filter((x) => x.harm.length > 0)) {
      console.log(`${r.corpus} ${r.id} [bm25 ${r.rk.bm25.toFixed(2)} vec ${r.rk.vector.toFixed(2)} hyb0 ${r.rk.hybrid0.toFixed(2)} hyb ${r.rk.hybrid.toFixed(2)}] ${r.q}`);
      for (const h of r.harm) {
        const s = h.scores;
        console.log(`   HARM ${h.cls} ${h.evidence} (${s?.len ?? '?'}c) bm25 ${rk(h.bm25)} vec ${rk(h.vector)} hyb0 ${rk(h.hybrid0)} hyb ${rk(h.hybrid)} rel-rank ${rk(h.relRank)}  v ${f3(s?.v)} l ${f3(s?.l)} rel ${f3(s?.rel)} fin ${f3(s?.fin)}`);
        for (const a of h.above) console.log(`        above ${a.id} (${a.len}c) v ${f3(a.v)} l ${f3(a.l)} rel ${f3(a.rel)} fin ${f3(a.fin)}`);
      }
    }
  }
  console.log('\ncorpus (tune / dev)      n   R@k bm25  vector  hybrid0  hybrid  margin  harm items (questions)  help items  harm classes');
  const corpora = [...new Set(list.map((r) => r.corpus))];
  for (const c of corpora) {
    const rs = list.filter((r) => r.corpus === c);
    const mean = (k: keyof QuestionRow['rk']) => rs.reduce((s, r) => s + r.rk[k], 0) / rs.length;
    const classes = new Map<string, number>();
    for (const h of rs.flatMap((r) => r.harm)) classes.set(h.cls, (classes.get(h.cls) ?? 0) + 1);
    const margin = mean('hybrid') - Math.max(mean('bm25'), mean('vector'));
    console.log(
      `${c.padEnd(22)} ${String(rs.length).padStart(4)}   ${mean('bm25').toFixed(3)}  ${mean('vector').toFixed(3)}   ${mean('hybrid0').toFixed(3)}   ${mean('hybrid').toFixed(3)}  ${margin >= 0 ? '+' : ''}${margin.toFixed(3)}   ${String(rs.reduce((s, r) => s + r.harm.length, 0)).padStart(3)} (${rs.filter((r) => r.harm.length > 0).length})   ${String(rs.reduce((s, r) => s + r.help.length, 0)).padStart(4)}   ${[...classes].map(([k, n]) => `${k} ${n}`).join(', ')}`,
    );
  }
}
