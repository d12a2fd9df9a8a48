/**
 * `npm run bench:corpora --`: evidence recall@k of BM25, vector, hybrid `search` and `getContext` on each corpus
 * of bench/corpora, per split (tune: settings may be chosen on it; eval: never).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createHeuristicReranker, createMemory, createUseLiteEmbedder, openSqliteStorage, type Embedder, type Memory } from '../../src/index.js';
import { cachedEmbedder } from '../locomo/embed-cache.js';
import { keepOpen } from '../locomo/engine.js';
import { contextRetriever, distinct, searchRetriever, type Retriever } from '../locomo/retrievers.js';
import type { Corpus } from './src/format.js';

/** Bump when the ingest changes so cached databases are rebuilt. */
const RECIPE = 'corpora-ingest-v2';
export const RETRIEVERS = ['bm25', 'vector', 'hybrid', 'getContext'] as const;
/** A caller's getContext: top_k 10 under a 2,000-token budget (events only), its items counted. */
export const BUDGETED = { topK: 10, budget: 2000 };
export type RetrieverName = (typeof RETRIEVERS)[number];
export const SPLITS = ['tune', 'eval', 'all'] as const;

export interface CorpusReport {
  name: string;
  shape: string;
  memories: number;
  questions: Record<(typeof SPLITS)[number], number>;
  /** retriever → split → k → mean evidence recall. */
  recall: Record<string, Record<string, Record<string, number>>>;
  msPerQuery: Record<string, number>;
  /** getContext asked for BUDGETED.topK under BUDGETED.budget tokens: mean items returned and R@topK (all questions). */
  budgeted: { items: number; recall: number; minItems: number };
  reused: boolean;
}

export interface CorporaReport {
  ks: number[];
  corpora: CorpusReport[];
  embeddingCache: { hits: number; misses: number };
}

export interface CorporaOptions {
  files: string[];
  cacheDir: string;
  ks: number[];
  embedder?: Embedder | undefined;
  log?: ((s: string) => void) | undefined;
  /** Ask only this split's questions (the database is the same): tuning runs never compute the eval half. */
  split?: 'tune' | 'eval' | undefined;
}

/** The cached database of a corpus is keyed by the ingest recipe, the corpus' bytes and the model. */
export function corpusKey(text: string, model: string): string {
  return createHash('sha256').update(RECIPE).update('\0').update(text).update('\0').update(model).digest('hex').slice(0, 16);
}

export function loadCorpus(path: string): Corpus {
  return JSON.parse(readFileSync(path, 'utf8')) as Corpus;
}

/** Share of `evidence` among the first k of `ranked`. */
export function recallAt(evidence: readonly string[], ranked: readonly string[], k: number): number {
  const top = new Set(ranked.slice(0, k));
  return evidence.filter((e) => top.has(e)).length / evidence.length;
}

export async function openCorpus(corpus: Corpus, embedder: Embedder, cacheDir: string, key: string, log: (s: string) => void): Promise<{ memory: Memory; idOf: Map<string, string>; reused: boolean }> {
  const path = join(cacheDir, `${corpus.name}-${key}.db`);
  const marker = `${path}.ok`;
  const reused = existsSync(path) && existsSync(marker);
  if (!reused) for (const p of [path, `${path}-wal`, `${path}-shm`, marker]) rmSync(p, { force: true });
  const memory = await createMemory({
    storage: await openSqliteStorage({ path }),
    embedder: keepOpen(embedder),
    reranker: createHeuristicReranker(),
    config: { retention: { sweepIntervalMinutes: 0 }, learn: { engine: { background: false } } },
  });
  if (!reused) {
    log(`ingest ${corpus.name}: ${corpus.docs.length} memories`);
    await memory.logEvents(
      corpus.docs.map((d) => ({
        tenant: corpus.name,
        type: d.type,
        ts: Date.parse(d.ts),
        metadata: { doc_id: d.id, ...(d.section ? { section: d.section } : {}) },
        ...(d.session ? { sessionId: d.session } : {}),
        ...(d.name ? { name: d.name } : {}),
        ...(d.content ? { content: d.content } : {}),
        ...(d.tool ? { tool: d.tool } : {}),
        ...(d.args ? { args: d.args } : {}),
        ...(d.result ? { result: d.result } : {}),
        ...(d.source ? { source: d.source } : {}),
      })),
    );
    await memory.flush();
    writeFileSync(marker, JSON.stringify({ at: new Date().toISOString() }));
  }
  const idOf = new Map<string, string>();
  for (const e of await memory.fetchEvents({ tenant: corpus.name, limit: 10_000 })) {
    if (typeof e.metadata.doc_id === 'string') idOf.set(e.id, e.metadata.doc_id);
  }
  return { memory, idOf, reused };
}

export async function runCorporaBench(opts: CorporaOptions): Promise<CorporaReport> {
  const log = opts.log ?? (() => undefined);
  const ks = [...new Set(opts.ks)].sort((a, b) => a - b);
  const kMax = ks.at(-1)!;
  const inner = opts.embedder ?? createUseLiteEmbedder({ provider: 'use-lite', workers: 2, batchSize: 16 });
  await inner.init();
  mkdirSync(opts.cacheDir, { recursive: true });
  const embedder = cachedEmbedder(inner, join(opts.cacheDir, `embeddings-${inner.model.replace(/[^A-Za-z0-9._-]+/g, '_')}.db`));
  const out: CorpusReport[] = [];
  try {
    for (const file of opts.files) {
      const text = readFileSync(file, 'utf8');
      const full = JSON.parse(text) as Corpus;
      const corpus = opts.split ? { ...full, questions: full.questions.filter((q) => q.split === opts.split) } : full;
      const key = corpusKey(text, inner.model);
      const { memory, idOf, reused } = await openCorpus(corpus, embedder, opts.cacheDir, key, log);
      try {
        const retrievers: Record<RetrieverName, Retriever> = {
          bm25: searchRetriever(memory, 'lexical', 'doc_id'),
          vector: searchRetriever(memory, 'vector', 'doc_id'),
          hybrid: searchRetriever(memory, 'hybrid', 'doc_id'),
          getContext: contextRetriever(memory, idOf),
        };
        const recall: CorpusReport['recall'] = {};
        const msPerQuery: Record<string, number> = {};
        for (const name of RETRIEVERS) {
          const sums: Record<string, Record<string, number>> = Object.fromEntries(SPLITS.map((s) => [s, Object.fromEntries(ks.map((k) => [String(k), 0]))]));
          const t0 = performance.now();
          for (const q of corpus.questions) {
            const ranked = await retrievers[name](q.q, corpus.name, kMax);
            for (const k of ks) {
              const r = recallAt(q.evidence, ranked, k);
              sums[q.split]![String(k)]! += r;
              sums.all![String(k)]! += r;
            }
          }
          msPerQuery[name] = Math.round(((performance.now() - t0) / corpus.questions.length) * 10) / 10;
          recall[name] = Object.fromEntries(
            SPLITS.map((s) => {
              const n = s === 'all' ? corpus.questions.length : corpus.questions.filter((q) => q.split === s).length;
              return [s, Object.fromEntries(ks.map((k) => [String(k), Math.round((sums[s]![String(k)]! / Math.max(1, n)) * 1000) / 1000]))];
            }),
          );
        }
        let items = 0;
        let minItems = Infinity;
        let got = 0;
        for (const q of corpus.questions) {
          const ctx = await memory.getContext(q.q, {
            tenant: corpus.name,
            episodic_window: { mode: 'none' },
            semantic_retrieval: { top_k: BUDGETED.topK, kinds: ['event'] },
            merge_policy: { token_budget: BUDGETED.budget },
          });
          items += ctx.items.length;
          minItems = Math.min(minItems, ctx.items.length);
          got += recallAt(q.evidence, distinct(ctx.items.map((i) => idOf.get(i.id))), BUDGETED.topK);
        }
        const n = Math.max(1, corpus.questions.length);
        out.push({
          budgeted: { items: Math.round((items / n) * 10) / 10, recall: Math.round((got / n) * 1000) / 1000, minItems },
          name: corpus.name || basename(file),
          shape: corpus.shape,
          memories: corpus.docs.length,
          questions: { tune: corpus.questions.filter((q) => q.split === 'tune').length, eval: corpus.questions.filter((q) => q.split === 'eval').length, all: corpus.questions.length },
          recall,
          msPerQuery,
          reused,
        });
      } finally {
        await memory.close();
      }
    }
    return { ks, corpora: out, embeddingCache: embedder.stats() };
  } finally {
    await embedder.close();
  }
}
