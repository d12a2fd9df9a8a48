/** Each retrieval signal earns its place: vector for paraphrase, lexical for rare exact terms. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestMemory, type TestMemory } from '../memory-fixture.js';

const memories = [
  'The nightly build broke because the CI runner ran out of disk space while caching Docker layers.',
  'Login requests were timing out because the Postgres connection pool was capped at 5.',
  'Our team lunch moved to Thursdays at the Italian place near the office.',
  'The mobile app crashed on startup for users with an empty profile picture.',
  'Quarterly planning is scheduled for the second week of October.',
  'Checkout requests failed with ERR_PG_53400 after the replica promotion.',
  'Checkout requests failed with ERR_PG_57014 after the replica promotion.',
  'Checkout requests failed with ERR_PG_53200 after the replica promotion.',
  'Too many clients: Postgres answered ERR_PG_53300 once the pool grew past max_connections.',
  'We renamed the staging cluster from blue to cobalt last spring.',
];

describe('retrieval signals', () => {
  let t: TestMemory;
  beforeAll(async () => {
    t = await openTestMemory();
    for (const text of memories) await t.memory.remember({ text });
    await t.memory.flush();
  });
  afterAll(() => t.cleanup());

  it('a paraphrased query finds its memory by vector where lexical search cannot', async () => {
    const query = 'storage filled up on the machine that compiles our code every night';
    // Lexical search finds it by no word of its own: at most by "the", which every memory here shares (its
    // lexical evidence is then ~0, and where it ranks among the other such ties is down to recency).
    const lexical = await t.memory.search({ query, k: memories.length, mode: 'lexical' });
    const own = lexical.find((h) => h.doc.text === memories[0]);
    expect(own?.scores.lexical ?? 0).toBeLessThan(0.01);
    expect(lexical.some((h) => (h.scores.lexical ?? 0) > 0.05)).toBe(true);
    const hybrid = await t.memory.search({ query, k: 1 });
    expect(hybrid[0]!.doc.text).toBe(memories[0]);
    expect(hybrid[0]!.scores.vector).not.toBeNull();
  });

  it('a rare exact term is found lexically where the vector alone misses it', async () => {
    // Near-identical decoys with other codes: the encoder cannot tell the codes apart, BM25 can.
    const target = memories[8];
    const query = 'checkout failing with ERR_PG_53300';
    const vector = await t.memory.search({ query, k: 1, mode: 'vector', rerank: false });
    expect(vector[0]?.doc.text).not.toBe(target);
    const lexical = await t.memory.search({ query, k: 1, mode: 'lexical', rerank: false });
    expect(lexical[0]!.doc.text).toBe(target);
    const hybrid = await t.memory.search({ query, k: 1, rerank: false });
    expect(hybrid[0]!.doc.text).toBe(target);
    expect(hybrid[0]!.scores.lexical).toBeGreaterThan(0);
  });
});
