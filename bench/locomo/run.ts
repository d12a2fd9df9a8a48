/**
 * `npm run bench:locomo --`: LoCoMo evidence recall@k per category, split and retriever, plus the paraphrase
 * dev set through `search`, with Mem0 (`infer:false`, same embedder) side by side when it is installed.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createUseLiteEmbedder } from '../../src/index.js';
import type { Embedder } from '../../src/index.js';
import { openMem0, type Mem0Handle } from '../mem0/mem0.js';
import { DEV_SPLIT, loadLocomo, type LocomoConversation } from './dataset.js';
import { cachedEmbedder } from './embed-cache.js';
import { benchClock, checkTurnLengths, dataKey, openLocomoEngine, PARAPHRASE_TENANT } from './engine.js';
import { loadParaphrase, paraphraseCutoffs, paraphraseQueries, paraphraseRecall, type ParaphraseScore, type ParaphraseSplit } from './paraphrase.js';
import { contextRetriever, mem0Retriever, searchRetriever, type Retriever } from './retrievers.js';
import { groupsOf, Scoreboard, scoreQuestion, type Tally } from './score.js';

export interface LocomoBenchOptions {
  /** LoCoMo JSON; without it only the paraphrase set is run. */
  dataPath?: string | undefined;
  paraphrasePath: string;
  /** Ask only one half of the paraphrase queries (its frozen split); all of them by default. */
  paraphraseSplit?: ParaphraseSplit | undefined;
  cacheDir: string;
  ks: number[];
  limitConversations?: number | undefined;
  mem0: boolean;
  /** Import turns over the content limit as consecutive parts (else the run is refused before any work). */
  chunkLong?: boolean | undefined;
  /** Tests inject a small embedder; the CLI uses USE-lite with 2 workers. */
  embedder?: Embedder | undefined;
  log?: ((s: string) => void) | undefined;
}

export interface RetrieverReport {
  /** Group (`all`, `dev`, `heldout`, `cat1`…`cat5`) → k → means. */
  byK: Record<string, Record<string, Tally>>;
  /** R@1 and R@k for each k, each list asked for k. */
  paraphrase: ParaphraseScore;
  queryMs: number;
}

export interface LocomoReport {
  data: string | null;
  paraphraseSplit: ParaphraseSplit | 'all';
  conversations: number;
  questions: number;
  skippedEvidence: { count: number; examples: string[] };
  devSplit: string[];
  ks: number[];
  retrievers: Record<string, RetrieverReport>;
  ingest: { engramSeconds: number | null; engramReused: boolean; mem0Seconds: number | null };
  mem0Note?: string;
  embeddingCache: { hits: number; misses: number };
}

/**
 * The ranked list scored at each k: asked once per k when the retriever's list depends on the k asked for (`perK`),
 * else asked once for the largest k, whose prefix is every smaller k's list.
 */
export async function listsByK(ask: (k: number) => Promise<string[]>, ks: readonly number[], perK: boolean): Promise<Map<number, string[]>> {
  const lists = new Map<number, string[]>();
  if (perK) {
    for (const k of ks) lists.set(k, await ask(k));
    return lists;
  }
  const longest = await ask(Math.max(...ks));
  for (const k of ks) lists.set(k, longest);
  return lists;
}

export async function runLocomoBench(opts: LocomoBenchOptions): Promise<LocomoReport> {
  const log = opts.log ?? (() => undefined);
  const all = opts.dataPath === undefined ? [] : loadLocomo(opts.dataPath);
  const conversations = opts.limitConversations ? all.slice(0, opts.limitConversations) : all;
  checkTurnLengths(conversations, opts.chunkLong === true);
  const paraphrase = loadParaphrase(opts.paraphrasePath);
  const paraQueries = paraphraseQueries(paraphrase, opts.paraphraseSplit);
  const ks = [...new Set(opts.ks)].sort((a, b) => a - b);
  const inner = opts.embedder ?? createUseLiteEmbedder({ provider: 'use-lite', workers: 2, batchSize: 16 });
  await inner.init();
  mkdirSync(opts.cacheDir, { recursive: true });
  const embedder = cachedEmbedder(inner, join(opts.cacheDir, `embeddings-${safe(inner.model)}.db`));
  const key = dataKey([opts.dataPath === undefined ? 'no-locomo' : hashFile(opts.dataPath), hashFile(opts.paraphrasePath), inner.model, String(conversations.length), opts.chunkLong ? 'chunked' : 'whole']);
  // Each question is asked at its own date when the data gives one ("last week" then means the week before it).
  const clock = benchClock();
  const engine = await openLocomoEngine({ conversations, paraphrase, embedder, cacheDir: opts.cacheDir, key, log, chunkLong: opts.chunkLong, clock });
  const mem0Handles = new Map<string, Mem0Handle>();
  let mem0Note: string | undefined;
  let mem0Seconds: number | null = null;
  try {
    // `perK`: the list depends on the k asked for (getContext's pool and cut follow top_k), so each k is asked on its
    // own and R@k is what a caller asking for k gets; search lists are the same prefix for every k of a run.
    const retrievers: Record<string, BenchRetriever> = {
      bm25: { locomo: searchRetriever(engine.memory, 'lexical', 'dia_id'), para: searchRetriever(engine.memory, 'lexical', 'memory_id') },
      vector: { locomo: searchRetriever(engine.memory, 'vector', 'dia_id'), para: searchRetriever(engine.memory, 'vector', 'memory_id') },
      hybrid: { locomo: searchRetriever(engine.memory, 'hybrid', 'dia_id'), para: searchRetriever(engine.memory, 'hybrid', 'memory_id') },
      getContext: { locomo: contextRetriever(engine.memory, engine.diaOf), para: contextRetriever(engine.memory, engine.paraOf), perK: true },
    };
    if (opts.mem0) {
      try {
        mem0Seconds = await ingestMem0(conversations, paraphrase.memories, embedder, mem0Handles, log);
        retrievers.mem0 = { locomo: mem0Retriever(mem0Handles, 'dia_id'), para: mem0Retriever(mem0Handles, 'memory_id') };
      } catch (e) {
        mem0Note = `Mem0 not run: ${e instanceof Error ? e.message : String(e)}`;
        log(mem0Note);
      }
    }
    const report: Record<string, RetrieverReport> = {};
    for (const [name, r] of Object.entries(retrievers)) {
      log(`retrieving with ${name}…`);
      report[name] = await scoreRetriever(r, conversations, paraQueries, ks, clock);
    }
    const skipped = conversations.flatMap((c) => c.questions.flatMap((q) => q.skipped.map((s) => `${c.id}:${s}`)));
    return {
      data: opts.dataPath ?? null,
      paraphraseSplit: opts.paraphraseSplit ?? 'all',
      conversations: conversations.length,
      questions: conversations.reduce((a, c) => a + c.questions.length, 0),
      skippedEvidence: { count: skipped.length, examples: skipped.slice(0, 12) },
      devSplit: DEV_SPLIT.filter((d) => conversations.some((c) => c.id === d)),
      ks,
      retrievers: report,
      ingest: { engramSeconds: engine.reused ? null : Math.round(engine.ingestSeconds * 10) / 10, engramReused: engine.reused, mem0Seconds },
      ...(mem0Note ? { mem0Note } : {}),
      embeddingCache: embedder.stats(),
    };
  } finally {
    await engine.close();
    await embedder.close();
    for (const h of mem0Handles.values()) rmSync(h.dir, { recursive: true, force: true });
  }
}

/** A retriever as the bench asks it: LoCoMo's tenants and the paraphrase set's, and whether its list depends on k. */
interface BenchRetriever {
  locomo: Retriever;
  para: Retriever;
  perK?: boolean;
}

/** Every LoCoMo question (at its own date) and every paraphrase query through one retriever, scored at each k. */
async function scoreRetriever(
  r: BenchRetriever,
  conversations: readonly LocomoConversation[],
  paraQueries: readonly { q: string; gold: string }[],
  ks: readonly number[],
  clock: ReturnType<typeof benchClock>,
): Promise<RetrieverReport> {
  const board = Object.fromEntries(ks.map((k) => [k, new Scoreboard()]));
  const t0 = performance.now();
  let calls = 0;
  for (const c of conversations) {
    const split = DEV_SPLIT.includes(c.id) ? 'dev' : 'heldout';
    for (const q of c.questions) {
      clock.at = q.askedAt;
      const lists = await listsByK((k) => r.locomo(q.question, c.id, k), ks, r.perK === true).finally(() => (clock.at = undefined));
      calls += r.perK ? ks.length : 1;
      for (const k of ks) {
        const s = scoreQuestion(q.evidence, lists.get(k)!, k);
        if (s) board[k]!.add(groupsOf(q, split), s);
      }
    }
  }
  // Each paraphrase query is asked once per k, so R@k is what a caller asking for k gets.
  const askedAt = new Map<number, string[][]>();
  for (const k of ks) {
    const lists: string[][] = [];
    for (const q of paraQueries) lists.push(await r.para(q.q, PARAPHRASE_TENANT, k));
    askedAt.set(k, lists);
    calls += paraQueries.length;
  }
  const queryMs = Math.round(((performance.now() - t0) / Math.max(1, calls)) * 100) / 100;
  const paraScore = paraphraseRecall(askedAt, paraQueries.map((q) => q.gold), paraphraseCutoffs(ks));
  return { byK: regroup(ks, board), paraphrase: paraScore, queryMs };
}

/** One Mem0 store per conversation (its memory store scans every row of the file per query), user = conversation. */
async function ingestMem0(
  conversations: ReturnType<typeof loadLocomo>,
  memories: { id: string; text: string }[],
  embedder: Embedder,
  handles: Map<string, Mem0Handle>,
  log: (s: string) => void,
): Promise<number> {
  const t0 = performance.now();
  for (const c of conversations) {
    log(`mem0 add ${c.id}: ${c.turns.length} turns`);
    const h = await openMem0(embedder);
    handles.set(c.id, h);
    // Same text Engram embeds for a turn ("Speaker: text").
    for (const t of c.turns) await h.add(`${t.speaker}: ${t.text}`, c.id, { dia_id: t.diaId });
  }
  const p = await openMem0(embedder);
  handles.set(PARAPHRASE_TENANT, p);
  for (const m of memories) await p.add(m.text, PARAPHRASE_TENANT, { memory_id: m.id });
  return Math.round(((performance.now() - t0) / 1000) * 10) / 10;
}

function regroup(ks: readonly number[], board: Record<number, Scoreboard>): Record<string, Record<string, Tally>> {
  const out: Record<string, Record<string, Tally>> = {};
  for (const k of ks) for (const [g, t] of Object.entries(board[k]!.means())) (out[g] ??= {})[String(k)] = t;
  return out;
}

function hashFile(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80);
