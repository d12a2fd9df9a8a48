import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUseLiteEmbedder } from '../../src/index.js';
import { createHeuristicReranker } from '../../src/index.js';
import { openSqliteStorage } from '../../src/index.js';
import { createMemory } from '../../src/index.js';
import type { Embedder } from '../../src/index.js';
import { keepOpen } from '../locomo/engine.js';
import { compareWithModel } from './model-in-call.js';

describe('ingest one call at a time with the model in the loop', () => {
  let model: Embedder;
  beforeAll(async () => {
    model = createUseLiteEmbedder({ provider: 'use-lite', workers: 0, batchSize: 16 });
    await model.init();
  }, 60_000);
  afterAll(() => model.close());

  it('times Mem0 adds and Engram acks, and counts Engram as indexed only once every memory is vector-searchable', async () => {
    const texts = ['The staging database listens on port 5433.', 'Rotate the API key every ninety days.', 'The nightly backup runs at 02:00 UTC.', 'Payments retries use exponential back-off.'];
    const atClose: { backlog: number; byVector: string[] }[] = [];
    const report = await compareWithModel(model, texts, async (e) => {
      const memory = await createMemory({
        storage: await openSqliteStorage({ path: ':memory:' }),
        embedder: keepOpen(e),
        reranker: createHeuristicReranker(),
        config: { indexing: { background: true, documentVectors: 'whole' }, retention: { sweepIntervalMinutes: 0 }, learn: { engine: { background: false } } },
      });
      return {
        memory,
        done: async () => {
          const hits = await memory.search({ query: 'When is the database backed up?', k: 10, mode: 'vector', userId: 'model-user' });
          atClose.push({ backlog: await memory.embeddingBacklog(), byVector: hits.map((h) => h.doc.text).sort() });
          await memory.close();
        },
      };
    });
    expect(atClose).toEqual([{ backlog: 0, byVector: [...texts].sort() }]);
    expect(report.n).toBe(4);
    for (const rate of [report.mem0AddPerSec, report.engramAckPerSec, report.engramIndexedPerSec]) expect(rate).toBeGreaterThan(0);
    // Indexed counts the acks plus the embedding that follows them, so it can never be the faster of the two.
    expect(report.engramIndexedPerSec).toBeLessThanOrEqual(report.engramAckPerSec);
    expect(report.ackRatio).toBeCloseTo(report.engramAckPerSec / report.mem0AddPerSec, 0);
    expect(report.indexedRatio).toBeCloseTo(report.engramIndexedPerSec / report.mem0AddPerSec, 0);
  }, 60_000);
});
