/**
 * The database and embedding cache a full (ten-conversation, whole-turn) `bench:locomo` run left in a cache dir,
 * opened for the diagnostics that read them (gap.ts, misses.ts). Warns when nothing was there to reuse.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createUseLiteEmbedder } from '../../src/index.js';
import type { LocomoConversation } from './dataset.js';
import { cachedEmbedder } from './embed-cache.js';
import { benchClock, dataKey, openLocomoEngine, type BenchClock, type LocomoEngine } from './engine.js';
import { loadParaphrase } from './paraphrase.js';

export interface CachedRun {
  engine: LocomoEngine;
  /** Set `at` to a question's date while asking it. */
  clock: BenchClock;
  close(): Promise<void>;
}

export async function openCachedRun(dataPath: string, cacheDir: string, conversations: LocomoConversation[]): Promise<CachedRun> {
  const hashFile = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');
  const paraPath = join(dirname(resolve(dataPath)), 'paraphrase-dev.json');
  const inner = createUseLiteEmbedder({ provider: 'use-lite', workers: 2, batchSize: 16 });
  await inner.init();
  const embedder = cachedEmbedder(inner, join(resolve(cacheDir), `embeddings-${inner.model.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80)}.db`));
  const key = dataKey([hashFile(dataPath), hashFile(paraPath), inner.model, String(conversations.length), 'whole']);
  const clock = benchClock();
  const log = (s: string) => process.stderr.write(`${s}\n`);
  const engine = await openLocomoEngine({ conversations, paraphrase: loadParaphrase(paraPath), embedder, cacheDir: resolve(cacheDir), key, log, clock });
  if (!engine.reused) log('warning: the database was built now, not reused');
  return {
    engine,
    clock,
    async close() {
      await engine.close();
      await embedder.close();
    },
  };
}
