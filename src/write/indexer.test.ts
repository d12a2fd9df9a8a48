import { afterEach, describe, expect, it } from 'vitest';
import { createHeuristicReranker } from '../adapters/rerankers/heuristic.js';
import { openSqliteStorage } from '../adapters/storage/sqlite/index.js';
import { createMemory, type Memory } from '../memory.js';
import type { Embedder } from '../ports/embedder.js';
import { Indexer } from './indexer.js';

const DIM = 8;

/** A deterministic embedder that records the size of every document batch it is asked for. */
function recordingEmbedder(): Embedder & { batches: number[] } {
  const batches: number[] = [];
  return {
    model: 'recording-v1',
    dimension: DIM,
    batches,
    init: async () => ({ dimension: DIM }),
    embed: async (texts, o) => {
      if (o?.priority !== 'query') batches.push(texts.length);
      return texts.map((t) => {
        const v = new Float32Array(DIM);
        for (let i = 0; i < t.length; i++) v[t.charCodeAt(i) % DIM]! += 1;
        const n = Math.hypot(...v) || 1;
        return v.map((x) => x / n);
      });
    },
    close: async () => undefined,
  };
}

describe('Indexer linger', () => {
  let memory: Memory | undefined;
  afterEach(async () => {
    await memory?.close();
    memory = undefined;
  });

  async function open(lingerMs: number) {
    const embedder = recordingEmbedder();
    memory = await createMemory({
      storage: await openSqliteStorage({ path: ':memory:' }),
      embedder,
      reranker: createHeuristicReranker(),
      config: { indexing: { documentVectors: 'whole', lingerMs }, retention: { sweepIntervalMinutes: 0 }, learn: { engine: { background: false } } },
    });
    return { memory, embedder };
  }

  async function writeFive(m: Memory) {
    for (let i = 0; i < 5; i++) await m.logEvent({ userId: 'u', type: 'note', content: `note number ${i} about the deploy` });
  }

  it('embeds single writes that arrive within the linger as one batch', async () => {
    const { memory: m, embedder } = await open(1000);
    await writeFive(m);
    expect(embedder.batches).toEqual([]);
    await m.flush();
    expect(embedder.batches).toEqual([5]);
    expect(await m.embeddingBacklog()).toBe(0);
  });

  it('without a linger, the first write is embedded on its own', async () => {
    const { memory: m, embedder } = await open(0);
    await writeFive(m);
    await m.flush();
    expect(embedder.batches[0]).toBe(1);
    expect(embedder.batches.reduce((a, b) => a + b, 0)).toBe(5);
  });

  it('a drain or a stop during a long linger does not wait for it', async () => {
    const storage = await openSqliteStorage({ path: ':memory:' });
    const embedder = recordingEmbedder();
    // The memory's own indexer stays stopped; the one under test is started by hand.
    memory = await createMemory({ storage, embedder, reranker: createHeuristicReranker(), config: { indexing: { documentVectors: 'whole', background: false }, learn: { engine: { background: false } } } });
    await memory.logEvent({ userId: 'u', type: 'note', content: 'written before the indexer starts' });
    // An hour's linger: the test times out if drain or stop waited for it.
    const indexer = new Indexer(storage, embedder, { batchSize: 64, documentVectors: 'whole', lingerMs: 3_600_000 });
    indexer.start();
    await indexer.drain();
    expect(await storage.embeddingBacklog()).toBe(0);
    await memory.logEvent({ userId: 'u', type: 'note', content: 'written while the indexer lingers' });
    indexer.notify();
    await indexer.drain();
    expect(await storage.embeddingBacklog()).toBe(0);
    await memory.logEvent({ userId: 'u', type: 'note', content: 'left for the next process' });
    indexer.notify();
    await indexer.stop();
    expect(await storage.embeddingBacklog()).toBe(1);
  });
});

describe('flush', () => {
  it('with learn: false waits for the vectors only; a plain flush also segments', async () => {
    const memory = await createMemory({
      storage: await openSqliteStorage({ path: ':memory:' }),
      embedder: recordingEmbedder(),
      reranker: createHeuristicReranker(),
      config: { indexing: { documentVectors: 'whole' }, retention: { sweepIntervalMinutes: 0 }, learn: { engine: { background: false } } },
    });
    try {
      await memory.logEvent({ userId: 'u', sessionId: 's1', type: 'message', content: 'deploy the api to staging' });
      await memory.logEvent({ userId: 'u', sessionId: 's1', type: 'tool_call', name: 'deploy', content: 'deploy api staging' });
      await memory.logEvent({ userId: 'u', sessionId: 's1', type: 'outcome', content: 'Outcome: success, deployed.', metadata: { outcome: 'success' } });
      await memory.flush({ learn: false });
      expect(await memory.embeddingBacklog()).toBe(0);
      expect(await memory.learn.episodes()).toEqual([]);
      await memory.flush();
      expect((await memory.learn.episodes()).length).toBeGreaterThan(0);
    } finally {
      await memory.close();
    }
  });
});

describe('progress', () => {
  async function drainWithReports(overCount: number) {
    const storage = await openSqliteStorage({ path: ':memory:' });
    const embedder = recordingEmbedder();
    const memory = await createMemory({ storage, embedder, reranker: createHeuristicReranker(), config: { indexing: { documentVectors: 'whole', background: false }, learn: { engine: { background: false } } } });
    try {
      await memory.logEvents(Array.from({ length: 500 }, (_, i) => ({ userId: 'u', type: 'note' as const, content: `distinct note ${i}` })));
      let counts = 0;
      // `overCount` stands for docs that leave the backlog by another way meanwhile (forgotten, embedded elsewhere).
      const counting = new Proxy(storage, {
        get(target, prop, receiver) {
          if (prop === 'embeddingBacklog') return async () => (counts++, (await target.embeddingBacklog()) + overCount);
          return Reflect.get(target, prop, receiver) as unknown;
        },
      });
      const indexer = new Indexer(counting, embedder, { batchSize: 10, documentVectors: 'whole' });
      const reports: { embedded: number; backlog: number }[] = [];
      indexer.on('progress', (p) => reports.push(p));
      await indexer.drain();
      expect(await storage.embeddingBacklog()).toBe(0);
      return { reports, counts };
    } finally {
      await memory.close();
    }
  }

  it('counts the backlog at most about once a second and estimates it in between', async () => {
    const { reports, counts } = await drainWithReports(0);
    expect(reports.length).toBe(50);
    // 50 batches run well within a second here: the first report counts, the rest are estimates.
    expect(counts).toBeLessThan(5);
    expect(reports[0]).toEqual({ embedded: 10, backlog: 490 });
    expect(reports[24]).toEqual({ embedded: 250, backlog: 250 });
    expect(reports.at(-1)).toEqual({ embedded: 500, backlog: 0 });
  });

  it('ends on a backlog of 0 when the estimate was too high', async () => {
    const { reports } = await drainWithReports(5);
    expect(reports.at(-2)).toEqual({ embedded: 500, backlog: 5 });
    expect(reports.at(-1)).toEqual({ embedded: 500, backlog: 0 });
  });
});
