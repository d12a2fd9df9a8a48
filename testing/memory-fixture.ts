/**
 * Real parts for end-to-end tests: a SQLite file in a fresh temp dir, the USE-lite model in-process, the
 * heuristic reranker. One model load per test file (shared embedder), one database per test.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createUseLiteEmbedder } from '../src/adapters/embedders/use-lite.js';
import { createHeuristicReranker } from '../src/adapters/rerankers/heuristic.js';
import { openSqliteStorage } from '../src/adapters/storage/sqlite/index.js';
import type { EngramConfigInput } from '../src/core/config.js';
import type { Clock } from '../src/ports/clock.js';
import type { Embedder } from '../src/ports/embedder.js';
import type { Llm } from '../src/ports/llm.js';
import { createMemory, type Memory } from '../src/memory.js';

let shared: Embedder | undefined;

/** One real embedder per test process; `close()` of a memory does not close it. */
export function sharedEmbedder(): Embedder {
  if (!shared) {
    const real = createUseLiteEmbedder({ provider: 'use-lite', workers: 0, batchSize: 32 });
    shared = {
      get model() {
        return real.model;
      },
      get dimension() {
        return real.dimension;
      },
      init: () => real.init(),
      embed: (t, o) => real.embed(t, o),
      close: async () => undefined,
    };
  }
  return shared;
}

export interface TestMemory {
  memory: Memory;
  dir: string;
  path: string;
  cleanup(): Promise<void>;
}

export async function openTestMemory(config: EngramConfigInput = {}, clock?: Clock, llm?: Llm): Promise<TestMemory> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-test-'));
  const path = join(dir, 'engram.db');
  const storage = await openSqliteStorage({ path });
  const memory = await createMemory({
    storage,
    embedder: sharedEmbedder(),
    reranker: createHeuristicReranker(),
    config: { retention: { sweepIntervalMinutes: 0 }, ...config },
    ...(clock ? { clock } : {}),
    ...(llm ? { llm } : {}),
  });
  return {
    memory,
    dir,
    path,
    async cleanup() {
      await memory.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
