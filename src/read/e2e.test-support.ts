/**
 * Real parts for the read path's end-to-end tests: a SQLite file in a temp dir, the USE-lite model in-process,
 * the heuristic reranker and the js-tiktoken counter. Records are written straight through the storage port.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createUseLiteEmbedder } from '../adapters/embedders/use-lite.js';
import { createHeuristicReranker } from '../adapters/rerankers/heuristic.js';
import { openSqliteStorage } from '../adapters/storage/sqlite/index.js';
import { createTokenCounter } from '../core/tokens.js';
import type { Fact, MemoryEvent } from '../core/types.js';
import type { Embedder } from '../ports/embedder.js';
import type { NewEvent, Storage } from '../ports/storage.js';
import { makeEvent, makeFact } from './fixtures.test-support.js';
import type { ReadDeps } from './types.js';

let embedder: Embedder | undefined;

/** One USE-lite model per test file (main thread; loading takes well under a second). */
export async function realEmbedder(): Promise<Embedder> {
  if (!embedder) {
    embedder = createUseLiteEmbedder({ provider: 'use-lite', workers: 0, batchSize: 32 });
    await embedder.init();
  }
  return embedder;
}

export interface TestStore {
  storage: Storage;
  close(): Promise<void>;
}

export async function openTestStore(model: string, dimension: number): Promise<TestStore> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-read-'));
  const storage = await openSqliteStorage({ path: join(dir, 'engram.db') });
  await storage.init({ embeddingModel: model, dimension });
  return {
    storage,
    close: async () => {
      await storage.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Embeds every pending text with the embedder (what the background indexer does). */
export async function indexPending(storage: Storage, e: Embedder): Promise<number> {
  let total = 0;
  for (;;) {
    const pending = await storage.pendingEmbeddings(64);
    if (pending.length === 0) return total;
    const vectors = await e.embed(pending.map((p) => p.text));
    await storage.putEmbeddings(pending.map((p, i) => ({ contentHash: p.contentHash, vector: vectors[i]! })));
    total += pending.length;
  }
}

export function newEvent(over: Partial<MemoryEvent> & { content: string }): NewEvent {
  const { seq: _seq, ...rest } = makeEvent(over);
  return rest;
}

export async function putFacts(storage: Storage, facts: readonly (Partial<Fact> & { text: string })[]): Promise<Fact[]> {
  const out: Fact[] = [];
  for (const f of facts) out.push((await storage.putFact(makeFact(f))).fact);
  return out;
}

export function readDeps(storage: Storage, now: number, embedQuery: ReadDeps['embedQuery']): ReadDeps {
  return { storage, embedQuery, reranker: createHeuristicReranker(), tokens: createTokenCounter('cl100k_base'), clock: { now: () => now } };
}

/** embedQuery backed by a real embedder. */
export function embedWith(e: Embedder): ReadDeps['embedQuery'] {
  return async (text) => (await e.embed([text]))[0];
}
