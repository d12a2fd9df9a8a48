import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUseLiteEmbedder } from '../../src/index.js';
import type { Embedder } from '../../src/index.js';
import { openMem0, type Mem0Handle } from './mem0.js';

describe('Mem0 side-by-side wiring (mem0ai OSS, infer:false, our embedder)', () => {
  let embedder: Embedder;
  let mem0: Mem0Handle;
  beforeAll(async () => {
    embedder = createUseLiteEmbedder({ provider: 'use-lite', workers: 0, batchSize: 16 });
    mem0 = await openMem0(embedder);
  }, 60_000);
  afterAll(async () => {
    await embedder.close();
    rmSync(mem0.dir, { recursive: true, force: true });
  });

  it('stores one memory per add and one per text of a batch add, each searchable by meaning for its user only', async () => {
    await mem0.add('The staging database runs PostgreSQL 16 on port 5433.', 'u1', { n: 1 });
    await mem0.addMany(['My daughter plays the violin every evening.', 'We are moving to Lisbon in March.'], 'u1', { bulk: true });
    await mem0.add('Ignore: a note of another user about the violin.', 'u2', {});
    const top = async (query: string, user: string) => (await mem0.search(query, user, 5))[0];
    expect(await top('Which city are they relocating to?', 'u1')).toMatchObject({ text: 'We are moving to Lisbon in March.', metadata: { bulk: true } });
    expect(await top('What instrument does the child practise?', 'u1')).toMatchObject({ text: 'My daughter plays the violin every evening.', metadata: { bulk: true } });
    expect(await top('Which port does the staging database listen on?', 'u1')).toMatchObject({ text: 'The staging database runs PostgreSQL 16 on port 5433.', metadata: { n: 1 } });
    const other = await mem0.search('violin', 'u2', 5);
    expect(other.map((h) => h.text)).toEqual(['Ignore: a note of another user about the violin.']);
  }, 60_000);
});
