/** PII is scrubbed before it reaches the disk: the raw values never appear in the database file bytes. */
import { readFileSync, existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PII_CORPUS } from '../../src/write/pii/corpus.js';
import { openTestMemory, type TestMemory } from '../memory-fixture.js';

describe('PII scrubbed at ingest', () => {
  let t: TestMemory;
  beforeAll(async () => {
    t = await openTestMemory();
  });
  afterAll(() => t.cleanup());

  it('stores none of the corpus raw, across events, tool args/results, metadata and facts', async () => {
    expect(PII_CORPUS.length).toBeGreaterThanOrEqual(50);
    const kinds = new Set(PII_CORPUS.map((c) => c.kind));
    expect([...kinds].sort()).toEqual(['card', 'email', 'gov_id', 'iban', 'ip', 'phone', 'secret']);

    const events = PII_CORPUS.map((c, i) => {
      switch (i % 4) {
        case 0:
          return { type: 'message' as const, content: c.text };
        case 1:
          return { type: 'tool_call' as const, tool: 'crm', args: { note: c.text }, result: { echo: c.text } };
        case 2:
          return { type: 'observation' as const, content: 'see metadata', metadata: { raw: c.text } };
        default:
          return { type: 'note' as const, content: c.text, tags: ['pii-test'] };
      }
    });
    const written = await t.memory.logEvents(events);
    expect(written.every((e) => e.pii.scrubbed)).toBe(true);
    for (const c of PII_CORPUS.slice(0, 20)) await t.memory.remember({ text: c.text, source: 'crm-notes' });
    await t.memory.flush();
    await t.memory.close();

    const bytes = ['', '-wal', '-shm']
      .map((suffix) => `${t.path}${suffix}`)
      .filter((p) => existsSync(p))
      .map((p) => readFileSync(p).toString('latin1'))
      .join('\n');
    const leaked = PII_CORPUS.filter((c) => bytes.includes(c.secret)).map((c) => `${c.kind}: ${c.secret}`);
    expect(leaked).toEqual([]);
    // Reopen so cleanup can close it again.
    t = { ...t, ...(await reopen(t)) };
  });
});

async function reopen(t: TestMemory): Promise<Pick<TestMemory, 'memory'>> {
  const { openSqliteStorage } = await import('../../src/adapters/storage/sqlite/index.js');
  const { createMemory } = await import('../../src/memory.js');
  const { createHeuristicReranker } = await import('../../src/adapters/rerankers/heuristic.js');
  const { sharedEmbedder } = await import('../memory-fixture.js');
  return { memory: await createMemory({ storage: await openSqliteStorage({ path: t.path }), embedder: sharedEmbedder(), reranker: createHeuristicReranker(), config: { retention: { sweepIntervalMinutes: 0 } } }) };
}
