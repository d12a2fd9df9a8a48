/**
 * `npx tsx bench/corpora/sentence-max.ts --locomo PATH/locomo10.json --locomo-cache DIR --corpora-cache DIR`: would
 * keeping a memory's sentence vectors apart raise evidence recall? A memory stores one vector, the normalised sum of
 * its texts' vectors (src/write/document-vectors.ts); this looks up the same texts' vectors in the embedding cache
 * (keyed by content, so nothing is re-embedded for a built database) and ranks by the best single text instead.
 *
 * Read on tuning data only: LoCoMo dev conversations and the `tune` half of each corpus. Rows, R@5/10/20:
 *   vector rows, a full scan of the tenant's event memories: the stored sum (as written), the max over its texts'
 *     cosines, and blends (1 − w)·sum + w·max;
 *   hybrid rows: `search` (hybrid, rerank) as it ranks today; its top POOL re-ranked by (1 − w)·final + w·max, both
 *     min–max scaled within the pool; and reciprocal-rank fusion of the hybrid ranking with the full max ranking
 *     (which can bring in memories hybrid never saw), 1/(60 + rank_h) + w/(60 + rank_max); and the pool by
 *     final + w·(max − sum), only what the best text says beyond the stored vector (0 for a one-text memory).
 * Controls: the pool re-ranked by the stored vector's cosine at the same weights. `--pool` is the k search is asked
 * for (default 20, as bench:locomo and bench:corpora ask): hybrid's own top 10 depends on it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { Command } from 'commander';
import { createUseLiteEmbedder, type Memory } from '../../src/index.js';
import { documentTexts } from '../../src/write/document-vectors.js';
import { openCachedRun } from '../locomo/cached.js';
import { DEV_SPLIT, loadLocomo } from '../locomo/dataset.js';
import { cachedEmbedder, type CachedEmbedder } from '../locomo/embed-cache.js';
import { distinct } from '../locomo/retrievers.js';
import { corpusKey, openCorpus, recallAt } from './run.js';
import type { Corpus } from './src/format.js';

const o = new Command()
  .option('--locomo <file>', 'locomo10.json (dev conversations only)')
  .option('--locomo-cache <dir>', 'cache dir of a full bench:locomo run')
  .option('--corpora-cache <dir>', 'cache dir of bench:corpora')
  .option('--corpora <files>', 'corpus files (default: all of bench/corpora)')
  .option('--pool <n>', 'how many of search\'s hits are re-ranked (search is asked for this k; 20 is what the benches ask)', '20')
  .parse(process.argv)
  .opts<{ locomo?: string; locomoCache?: string; corporaCache?: string; corpora?: string; pool: string }>();

const KS = [5, 10, 20];
const POOL = Number(o.pool);
const BLEND = [0.25, 0.5, 0.75, 1];
const POOL_W = [0.1, 0.2, 0.3, 0.5];
const RRF_W = [0.25, 0.5, 1];
const DELTA_W = [0.5, 0.75, 1, 1.5, 2];

interface Mem {
  docId: number;
  id: string;
  texts: number;
  sum: Float32Array;
  parts: Float32Array[];
}
interface Question {
  q: string;
  evidence: string[];
  askedAt?: number | undefined;
}

const dot = (a: Float32Array, b: Float32Array) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
};
function normalisedSum(vs: readonly Float32Array[]): Float32Array {
  const out = new Float32Array(vs[0]!.length);
  for (const v of vs) for (let i = 0; i < v.length; i++) out[i] = out[i]! + v[i]!;
  const n = Math.sqrt(dot(out, out));
  return n > 0 ? out.map((x) => x / n) : out;
}

/** Every event memory of a tenant with its texts' vectors (from the cache; misses are embedded and counted). */
async function memoriesOf(dbPath: string, tenant: string, key: string, embedder: CachedEmbedder): Promise<Mem[]> {
  const db = new Database(dbPath, { readonly: true });
  const rows = db.prepare<[string], { doc_id: number; text: string; metadata: string }>("SELECT doc_id, text, metadata FROM docs WHERE tenant = ? AND kind = 'event'").all(tenant);
  db.close();
  const out: Mem[] = [];
  for (const r of rows) {
    const id = (JSON.parse(r.metadata) as Record<string, unknown>)[key];
    if (typeof id !== 'string') continue;
    const parts = await embedder.embed(documentTexts(r.text));
    out.push({ docId: r.doc_id, id, texts: parts.length, sum: parts.length === 1 ? parts[0]! : normalisedSum(parts), parts });
  }
  return out;
}

interface Hit {
  docId: number;
  final: number;
}
/** What search gave for one question: hybrid (rerank on) and vector alone, each its top POOL. */
interface Searched {
  hybrid: Hit[];
  vector: Hit[];
}
const headOf = (n: string) => (n.startsWith('vector') ? 'vector: stored sum (full scan)' : 'hybrid: search today');
type Ranker = (q: Question, qv: Float32Array, searched: Searched, mems: Mem[]) => string[];

const byScore = (mems: Mem[], score: (m: Mem) => number) =>
  distinct(
    mems
      .map((m) => ({ id: m.id, s: score(m) }))
      .sort((a, b) => b.s - a.s)
      .map((x) => x.id),
  );
const maxCos = (m: Mem, qv: Float32Array) => Math.max(...m.parts.map((p) => dot(p, qv)));
const minmax = (xs: number[]) => {
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  return xs.map((x) => (hi > lo ? (x - lo) / (hi - lo) : 0));
};

function rankers(): [string, Ranker][] {
  const out: [string, Ranker][] = [];
  const byDoc = (mems: Mem[]) => new Map(mems.map((m) => [m.docId, m]));
  out.push(['vector: search today', (_q, _qv, h, mems) => distinct(h.vector.map((x) => byDoc(mems).get(x.docId)?.id))]);
  out.push(['vector: stored sum (full scan)', (_q, qv, _h, mems) => byScore(mems, (m) => dot(m.sum, qv))]);
  for (const w of BLEND) out.push([`vector: ${w === 1 ? 'max over texts' : `(1-${w})·sum + ${w}·max`}`, (_q, qv, _h, mems) => byScore(mems, (m) => (1 - w) * dot(m.sum, qv) + w * maxCos(m, qv))]);
  out.push(['hybrid: search today', (_q, _qv, h, mems) => distinct(h.hybrid.map((x) => byDoc(mems).get(x.docId)?.id))]);
  /** The hybrid pool re-ranked by (1 − w)·final + w·signal, both min–max scaled within the pool. */
  const pooled =
    (w: number, signal: (m: Mem, qv: Float32Array) => number): Ranker =>
    (_q, qv, h, mems) => {
      const docs = byDoc(mems);
      const pool = h.hybrid.filter((x) => docs.has(x.docId));
      const f = minmax(pool.map((x) => x.final));
      const s = minmax(pool.map((x) => signal(docs.get(x.docId)!, qv)));
      return distinct(
        pool
          .map((x, i) => ({ id: docs.get(x.docId)!.id, s: (1 - w) * f[i]! + w * s[i]! }))
          .sort((a, b) => b.s - a.s)
          .map((x) => x.id),
      );
    };
  for (const w of POOL_W) out.push([`hybrid: pool ${POOL} re-ranked, +${w}·max`, pooled(w, maxCos)]);
  // Control: the same re-ranking by the stored vector's cosine; what max adds beyond more weight on the vector.
  for (const w of POOL_W) out.push([`hybrid: pool ${POOL} re-ranked, +${w}·sum (control)`, pooled(w, (m, qv) => dot(m.sum, qv))]);
  // Only what the best text says beyond the stored vector: final (min–max) + w·(max − sum), in cosine units.
  for (const w of DELTA_W)
    out.push([
      `hybrid: pool ${POOL}, final + ${w}·(max − sum)`,
      (_q, qv, h, mems) => {
        const docs = byDoc(mems);
        const pool = h.hybrid.filter((x) => docs.has(x.docId));
        const f = minmax(pool.map((x) => x.final));
        return distinct(
          pool
            .map((x, i) => {
              const m = docs.get(x.docId)!;
              return { id: m.id, s: f[i]! + w * (maxCos(m, qv) - dot(m.sum, qv)) };
            })
            .sort((a, b) => b.s - a.s)
            .map((x) => x.id),
        );
      },
    ]);
  for (const w of RRF_W)
    out.push([
      `hybrid: RRF with full max ranking, w ${w}`,
      (_q, qv, h, mems) => {
        const docs = byDoc(mems);
        const score = new Map<string, number>();
        const add = (id: string, s: number) => score.set(id, (score.get(id) ?? 0) + s);
        distinct(h.hybrid.map((x) => docs.get(x.docId)?.id)).forEach((id, i) => add(id, 1 / (60 + i + 1)));
        byScore(mems, (m) => maxCos(m, qv))
          .slice(0, POOL)
          .forEach((id, i) => add(id, w / (60 + i + 1)));
        return [...score].sort((a, b) => b[1] - a[1]).map(([id]) => id);
      },
    ]);
  return out;
}

interface Measured {
  name: string;
  questions: number;
  recall: Map<string, number[]>;
  /** Per ranking, questions whose R@10 rose / fell against its head (vector rows: the stored sum; hybrid rows: search). */
  moves: Map<string, { up: number; down: number }>;
  /** Evidence hybrid misses at 10 that the max ranking has in its top 10 / that the stored sum has there. */
  rescued: { missed: number; byMax: number; bySum: number };
  texts: { memories: number; texts: number };
}

async function measure(name: string, memory: Memory, mems: Mem[], tenant: string, qs: Question[], embedder: CachedEmbedder, setClock: (at?: number) => void): Promise<Measured> {
  const rs = rankers();
  const recall = new Map(rs.map(([n]) => [n, KS.map(() => 0)]));
  const rescued = { missed: 0, byMax: 0, bySum: 0 };
  const moves = new Map(rs.map(([n]) => [n, { up: 0, down: 0 }]));
  for (const q of qs) {
    setClock(q.askedAt);
    const search = async (mode: 'hybrid' | 'vector') =>
      (await memory.search({ query: q.q, k: POOL, mode, tenant, kinds: ['event'], rerank: mode === 'hybrid' })).map((x) => ({ docId: x.doc.docId ?? -1, final: x.scores.final }));
    const searched = { hybrid: await search('hybrid'), vector: await search('vector') };
    setClock(undefined);
    const [qv] = await embedder.embed([q.q]);
    const r10 = new Map<string, number>();
    for (const [n, r] of rs) {
      const ranked = r(q, qv!, searched, mems);
      KS.forEach((k, i) => (recall.get(n)![i]! += recallAt(q.evidence, ranked, k)));
      r10.set(n, recallAt(q.evidence, ranked, 10));
    }
    for (const [n] of rs) {
      const delta = r10.get(n)! - r10.get(headOf(n))!;
      if (delta > 0) moves.get(n)!.up++;
      if (delta < 0) moves.get(n)!.down++;
    }
    const h10 = new Set(rs.find(([n]) => n.startsWith('hybrid: search'))![1](q, qv!, searched, mems).slice(0, 10));
    const max10 = new Set(byScore(mems, (m) => maxCos(m, qv!)).slice(0, 10));
    const sum10 = new Set(byScore(mems, (m) => dot(m.sum, qv!)).slice(0, 10));
    for (const e of q.evidence.filter((x) => !h10.has(x))) {
      rescued.missed++;
      if (max10.has(e)) rescued.byMax++;
      if (sum10.has(e)) rescued.bySum++;
    }
  }
  for (const v of recall.values()) KS.forEach((_, i) => (v[i] = v[i]! / Math.max(1, qs.length)));
  return { name, questions: qs.length, recall, moves, rescued, texts: { memories: mems.length, texts: mems.reduce((a, m) => a + m.texts, 0) } };
}

function print(s: Measured): void {
  console.log(`\n## ${s.name}: ${s.questions} questions, ${s.texts.memories} memories, ${s.texts.texts} embedded texts (${(s.texts.texts / s.texts.memories).toFixed(2)} per memory)`);
  console.log(`| ranking | R@5 | R@10 | R@20 | R@10 up/down |\n|---|---|---|---|---|`);
  for (const [n, v] of s.recall) console.log(`| ${n} | ${v.map((x) => x.toFixed(3)).join(' | ')} | ${s.moves.get(n)!.up}/${s.moves.get(n)!.down} |`);
  console.log(`evidence hybrid misses at 10: ${s.rescued.missed}; in the max ranking's top 10: ${s.rescued.byMax}; in the stored sum's top 10: ${s.rescued.bySum}`);
}

const inner = createUseLiteEmbedder({ provider: 'use-lite', workers: 2, batchSize: 16 });
const safe = (m: string) => m.replace(/[^A-Za-z0-9._-]+/g, '_');
const sets: Measured[] = [];

if (o.locomo && o.locomoCache) {
  const conversations = loadLocomo(o.locomo);
  const run = await openCachedRun(o.locomo, o.locomoCache, conversations);
  await inner.init();
  const embedder = cachedEmbedder(inner, join(resolve(o.locomoCache), `embeddings-${safe(inner.model).slice(0, 80)}.db`), { closeInner: false });
  const dbPath = readdirSync(o.locomoCache).find((f) => f.endsWith('.db') && !f.startsWith('embeddings'))!;
  for (const c of conversations.filter((x) => DEV_SPLIT.includes(x.id))) {
    const mems = await memoriesOf(join(o.locomoCache, dbPath), c.id, 'dia_id', embedder);
    const qs = c.questions.filter((q) => q.evidence.length > 0 && q.category !== 5).map((q) => ({ q: q.question, evidence: q.evidence, askedAt: q.askedAt }));
    sets.push(await measure(`LoCoMo ${c.id}`, run.engine.memory, mems, c.id, qs, embedder, (at) => (run.clock.at = at)));
    print(sets.at(-1)!);
  }
  console.error(`locomo embedding cache: ${JSON.stringify(embedder.stats())}`);
  await embedder.close();
  await run.close();
}

if (o.corporaCache) {
  await inner.init();
  const dir = resolve(o.corporaCache);
  const embedder = cachedEmbedder(inner, join(dir, `embeddings-${safe(inner.model)}.db`), { closeInner: false });
  const here = import.meta.dirname;
  const files = o.corpora ? o.corpora.split(',') : readdirSync(here).filter((f) => f.endsWith('.json')).sort().map((f) => join(here, f));
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const corpus = JSON.parse(text) as Corpus;
    const key = corpusKey(text, inner.model);
    const { memory } = await openCorpus(corpus, embedder, dir, key, () => undefined);
    const mems = await memoriesOf(join(dir, `${corpus.name}-${key}.db`), corpus.name, 'doc_id', embedder);
    const qs = corpus.questions.filter((q) => q.split === 'tune').map((q) => ({ q: q.q, evidence: q.evidence }));
    sets.push(await measure(`${corpus.name} (tune)`, memory, mems, corpus.name, qs, embedder, () => undefined));
    print(sets.at(-1)!);
    await memory.close();
  }
  console.error(`corpora embedding cache: ${JSON.stringify(embedder.stats())}`);
  await embedder.close();
}
/** Per ranking: LoCoMo dev (question-weighted) and the corpora's mean, and the worst corpus' R@10 change against its head. */
function summary(all: Measured[]): void {
  const locomo = all.filter((x) => x.name.startsWith('LoCoMo'));
  const corpora = all.filter((x) => !x.name.startsWith('LoCoMo'));
  const names = [...(all[0]?.recall.keys() ?? [])];
  const mean = (xs: Measured[], n: string, i: number, weighted: boolean) => {
    const w = (x: Measured) => (weighted ? x.questions : 1);
    return xs.reduce((a, x) => a + x.recall.get(n)![i]! * w(x), 0) / Math.max(1, xs.reduce((a, x) => a + w(x), 0));
  };
  const f = (x: number) => x.toFixed(3);
  const d = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(3)}`;
  console.log(`\n## summary: LoCoMo dev (${locomo.reduce((a, x) => a + x.questions, 0)} questions, question-weighted), corpora tune (mean of ${corpora.length})`);
  console.log('| ranking | LoCoMo R@5 | R@10 | R@20 | corpora R@5 | R@10 | R@20 | worst corpus ΔR@10 vs head | questions R@10 up/down |\n|---|---|---|---|---|---|---|---|---|');
  for (const n of names) {
    const worst = corpora.length > 0 ? Math.min(...corpora.map((x) => x.recall.get(n)![1]! - x.recall.get(headOf(n))![1]!)) : NaN;
    const cells = [0, 1, 2].map((i) => (locomo.length > 0 ? f(mean(locomo, n, i, true)) : '-'));
    const cc = [0, 1, 2].map((i) => (corpora.length > 0 ? f(mean(corpora, n, i, false)) : '-'));
    const up = all.reduce((a, x) => a + x.moves.get(n)!.up, 0);
    const down = all.reduce((a, x) => a + x.moves.get(n)!.down, 0);
    console.log(`| ${n} | ${cells.join(' | ')} | ${cc.join(' | ')} | ${Number.isNaN(worst) ? '-' : d(worst)} | ${up}/${down} |`);
  }
}
summary(sets);
await inner.close();
