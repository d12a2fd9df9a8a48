/**
 * `npm run bench:long-turns -- --data …/locomo10.json [--group 1,3] [--cache-dir DIR] [--timing-docs 20] [--runs 3] [--json]`
 *
 * Long memories: LoCoMo's sessions imported `group` at a time as one transcript memory each (2–17k characters).
 * 1. How a document's vector is made from a long text (`SegmentPolicy`): evidence recall@k of the document
 *    vectors alone, the texts and characters embedded per memory, and the embedding time per memory (uncached,
 *    on the longest memories, median of runs) for
 *      - `cover` (the default): the opening, plus at most 12 runs of consecutive sentences covering all of it,
 *        each cut to 2,000 characters;
 *      - `cover-uncut`: the same runs, uncut;
 *      - `informative`: the opening, plus the 12 most informative sentences of a text over 4,000 characters;
 *      - `sentences`: the opening, plus every sentence on its own (the work grows with the text);
 *      - `opening`: the opening alone.
 * 2. The engine on the same memories with its defaults: BM25, vector, hybrid search and getContext (the corpora
 *    bench's runner), and what a caller's getContext (top 10, 2,000 tokens) returns.
 * Tuning half: LoCoMo's dev conversations; the others are the evaluation half.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { createUseLiteEmbedder, type Embedder } from '../../src/index.js';
import { DEFAULT_SEGMENTS, documentTexts, embedDocuments, type SegmentPolicy } from '../../src/write/document-vectors.js';
import { parseList, print, requireData, run } from '../cli.js';
import { renderCorpora } from '../corpora/report.js';
import { recallAt, runCorporaBench, type CorpusReport } from '../corpora/run.js';
import type { Corpus } from '../corpora/src/format.js';
import { loadLocomo } from '../locomo/dataset.js';
import { cachedEmbedder } from '../locomo/embed-cache.js';
import { keepOpen } from '../locomo/engine.js';
import { median } from '../stats.js';
import { longTurnCorpus } from './documents.js';

export const POLICIES: Record<string, SegmentPolicy> = {
  cover: DEFAULT_SEGMENTS,
  'cover-uncut': { ...DEFAULT_SEGMENTS, runChars: Infinity },
  informative: { ...DEFAULT_SEGMENTS, longTextChars: 4_000 },
  sentences: { ...DEFAULT_SEGMENTS, maxSegments: Infinity },
  opening: { ...DEFAULT_SEGMENTS, maxSegments: 0 },
};

interface PolicyRow {
  policy: string;
  /** split → k → mean evidence recall of the document vectors alone. */
  recall: Record<string, Record<string, number>>;
  textsPerMemory: { mean: number; max: number };
  charsPerMemory: { mean: number; max: number };
  /** Uncached embedding time of one memory's texts, over the longest memories (median of runs). */
  msPerLongMemory: number;
}

interface GroupReport {
  group: number;
  memories: number;
  chars: { median: number; max: number };
  questions: { tune: number; eval: number };
  policies: PolicyRow[];
  engine?: CorpusReport | undefined;
}

const round = (x: number, p = 1000) => Math.round(x * p) / p;

async function policyRow(name: string, policy: SegmentPolicy, corpus: Corpus, embedder: Embedder, fresh: Embedder, qv: Map<string, Float32Array>, ks: number[], o: { timingDocs: number; runs: number }): Promise<PolicyRow> {
  const texts = corpus.docs.map((d) => documentTexts(d.content!, policy));
  const docVecs = await embedDocuments(embedder, corpus.docs.map((d) => d.content!), 'sentences', undefined, policy);
  const sums: Record<string, Record<string, number>> = {};
  const counts: Record<string, number> = {};
  for (const q of corpus.questions) {
    const v = qv.get(q.q)!;
    const ranked = corpus.docs.map((d, i) => ({ id: d.id, s: dot(v, docVecs[i]!) })).sort((a, b) => b.s - a.s).map((x) => x.id);
    for (const split of [q.split, 'all']) {
      counts[split] = (counts[split] ?? 0) + 1;
      const row = (sums[split] ??= {});
      for (const k of ks) row[String(k)] = (row[String(k)] ?? 0) + recallAt(q.evidence, ranked, k);
    }
  }
  const recall = Object.fromEntries(Object.entries(sums).map(([s, row]) => [s, Object.fromEntries(Object.entries(row).map(([k, v]) => [k, round(v / counts[s]!)]))]));
  const longest = corpus.docs.map((d, i) => ({ len: d.content!.length, i })).sort((a, b) => b.len - a.len).slice(0, o.timingDocs);
  const times: number[] = [];
  for (let r = 0; r < o.runs; r++) {
    const t0 = performance.now();
    for (const { i } of longest) await fresh.embed(texts[i]!);
    times.push((performance.now() - t0) / longest.length);
  }
  const n = texts.map((t) => t.length);
  const chars = texts.map((t) => t.reduce((s, x) => s + x.length, 0));
  return {
    policy: name,
    recall,
    textsPerMemory: { mean: round(n.reduce((a, b) => a + b, 0) / n.length, 10), max: Math.max(...n) },
    charsPerMemory: { mean: Math.round(chars.reduce((a, b) => a + b, 0) / chars.length), max: Math.max(...chars) },
    msPerLongMemory: round(median(times), 10),
  };
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

function render(reports: GroupReport[], ks: number[]): string {
  const out: string[] = [];
  for (const g of reports) {
    out.push(`\n## ${g.memories} transcript memories of ${g.group} session(s) each: ${g.chars.median} characters median, ${g.chars.max} max; ${g.questions.tune} tune / ${g.questions.eval} eval questions`);
    out.push(`\nDocument vectors alone (R@${ks.join('/')}; tune | eval), embedding work per memory`);
    out.push('| policy | tune | eval | texts mean / max | characters mean / max | ms per long memory |');
    out.push('|---|---|---|---|---|---|');
    for (const p of g.policies) {
      const r = (s: string) => ks.map((k) => (p.recall[s]?.[String(k)] ?? 0).toFixed(3)).join(' / ');
      out.push(`| ${p.policy} | ${r('tune')} | ${r('eval')} | ${p.textsPerMemory.mean} / ${p.textsPerMemory.max} | ${p.charsPerMemory.mean} / ${p.charsPerMemory.max} | ${p.msPerLongMemory} |`);
    }
    if (!g.engine) continue;
    out.push('\nThe engine with its defaults:');
    out.push(renderCorpora({ ks, corpora: [g.engine], embeddingCache: { hits: 0, misses: 0 } }));
  }
  return out.join('\n');
}

interface Options {
  data?: string;
  group: string;
  k: string;
  cacheDir: string;
  timingDocs: string;
  runs: string;
  engine: boolean;
  json: boolean;
}

const program = new Command()
  .name('bench:long-turns')
  .description('long memories (LoCoMo sessions imported as transcripts): document-vector policies and the engine on them')
  .option('--data <file>', 'locomo10.json')
  .option('--group <list>', 'sessions per transcript memory, comma-separated', '1,3')
  .option('--k <list>', 'cut-offs, comma-separated', '1,5,10')
  .option('--cache-dir <dir>', 'where the Engram DBs and embeddings are cached between runs', '.engram-cache/long-turns')
  .option('--timing-docs <n>', 'longest memories embedded uncached per policy for the time column', '20')
  .option('--runs <n>', 'timing runs (the median is reported)', '3')
  .option('--no-engine', 'compare the document-vector policies only')
  .option('--json', 'print the report as JSON', false);

run(async () => {
  const o = program.parse(process.argv).opts<Options>();
  const conversations = loadLocomo(requireData('data', o.data, 'the LoCoMo JSON file'));
  const ks = parseList('k', o.k);
  const cacheDir = resolve(o.cacheDir);
  mkdirSync(cacheDir, { recursive: true });
  const log = (s: string) => process.stderr.write(`${s}\n`);
  const inner = createUseLiteEmbedder({ provider: 'use-lite', workers: 2, batchSize: 16 });
  const fresh = createUseLiteEmbedder({ provider: 'use-lite', workers: 2, batchSize: 16 });
  await Promise.all([inner.init(), fresh.init()]);
  const embedder = cachedEmbedder(inner, join(cacheDir, `embeddings-${inner.model.replace(/[^A-Za-z0-9._-]+/g, '_')}.db`));
  const reports: GroupReport[] = [];
  try {
    for (const group of parseList('group', o.group)) {
      const corpus = longTurnCorpus(conversations, group);
      const file = join(cacheDir, `${corpus.name}.json`);
      writeFileSync(file, JSON.stringify(corpus));
      const qs = [...new Set(corpus.questions.map((q) => q.q))];
      const qv = new Map((await embedder.embed(qs)).map((v, i) => [qs[i]!, v]));
      const policies: PolicyRow[] = [];
      for (const [name, policy] of Object.entries(POLICIES)) {
        log(`group ${group}: policy ${name}`);
        policies.push(await policyRow(name, policy, corpus, embedder, fresh, qv, ks, { timingDocs: Number(o.timingDocs), runs: Number(o.runs) }));
      }
      if (o.engine) log(`group ${group}: the engine`);
      const engine = o.engine ? (await runCorporaBench({ files: [file], cacheDir, ks, embedder: keepOpen(inner), log })).corpora[0]! : undefined;
      const lens = corpus.docs.map((d) => d.content!.length).sort((a, b) => a - b);
      reports.push({
        group,
        memories: corpus.docs.length,
        chars: { median: lens[Math.floor(lens.length / 2)]!, max: lens.at(-1)! },
        questions: { tune: corpus.questions.filter((q) => q.split === 'tune').length, eval: corpus.questions.filter((q) => q.split === 'eval').length },
        policies,
        engine,
      });
    }
  } finally {
    await embedder.close();
    await fresh.close();
  }
  print(o.json, { ks, groups: reports }, () => render(reports, ks));
});
