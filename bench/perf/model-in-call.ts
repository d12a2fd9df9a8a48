/**
 * Ingest one call at a time with the model in the loop: Mem0 and Engram both fed the real local embedder
 * (USE-lite), as each runs for a user.
 *
 * The main Mem0 comparison (run.ts) hands both sides stand-in vectors, so it measures storage alone. Here the
 * model is real:
 *   - Mem0's `add` embeds the text before it writes: its vector store is its only store, so it cannot
 *     acknowledge first.
 *   - Engram's `logEvent` acknowledges once the event is durable (lexically searchable at once); the background
 *     indexer embeds it on the worker pool meanwhile.
 * Both figures are reported for Engram:
 *   - `engramAckPerSec`: durable acknowledgements per second, one call at a time;
 *   - `engramIndexedPerSec`: the same memories over the time until the last of them was vector-searchable too,
 *     so a fleet that writes faster than the model embeds is not counted as indexed.
 */
import type { Memory } from '../../src/index.js';
import type { Embedder } from '../../src/index.js';
import { openMem0 } from '../mem0/mem0.js';
import { rmSync } from 'node:fs';
import { round } from '../stats.js';

export interface ModelInCallReport {
  n: number;
  /** Mem0 `add` one at a time, the model embedding inside each call. */
  mem0AddPerSec: number;
  /** Engram durable `logEvent` acknowledgements one at a time (background indexing running). */
  engramAckPerSec: number;
  /** n over the time from the first call until the last memory's vector was indexed. */
  engramIndexedPerSec: number;
  ackRatio: number;
  indexedRatio: number;
}

export interface OpenedEngram {
  memory: Memory;
  done: () => Promise<void>;
}

/** `texts` must be distinct (Engram dedupes repeats); `openEngram` opens a fresh store on `model`. */
export async function compareWithModel(model: Embedder, texts: readonly string[], openEngram: (e: Embedder) => Promise<OpenedEngram>): Promise<ModelInCallReport> {
  const n = texts.length;
  // One call first so that neither side pays for a worker's first run.
  await model.embed(['warm up the model']);

  const m0 = await openMem0(model);
  let mem0Sec: number;
  try {
    const t = performance.now();
    for (const text of texts) await m0.add(text, 'model-user', {});
    mem0Sec = (performance.now() - t) / 1000;
  } finally {
    rmSync(m0.dir, { recursive: true, force: true });
  }

  const { memory, done } = await openEngram(model);
  let ackSec: number;
  let indexedSec: number;
  try {
    const t = performance.now();
    for (const content of texts) await memory.logEvent({ userId: 'model-user', type: 'note', content });
    ackSec = (performance.now() - t) / 1000;
    await memory.flush({ learn: false });
    indexedSec = (performance.now() - t) / 1000;
  } finally {
    await done();
  }

  const perSec = (sec: number) => round(n / Math.max(sec, 1e-9), 1);
  const mem0AddPerSec = perSec(mem0Sec);
  const engramAckPerSec = perSec(ackSec);
  const engramIndexedPerSec = perSec(indexedSec);
  return {
    n,
    mem0AddPerSec,
    engramAckPerSec,
    engramIndexedPerSec,
    ackRatio: round(engramAckPerSec / mem0AddPerSec, 1),
    indexedRatio: round(engramIndexedPerSec / mem0AddPerSec, 1),
  };
}
