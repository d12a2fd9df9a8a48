import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngramError } from '../../core/errors.js';
import type { Embedder } from '../../ports/embedder.js';
import { chunkSize, CHUNK_WHILE_QUERYING, createUseLiteEmbedder, manifestDimension, planChunks, QUERY_QUIET_MS } from './use-lite.js';
import { MAX_INPUT_CHARS, USE_LITE_MAX_TOKENS } from './use-lite-limits.js';

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot;
}

function norm(v: Float32Array): number {
  return Math.sqrt(cosine(v, v));
}

const TEXTS = Array.from(
  { length: 37 },
  (_, i) => `Memory number ${i}: the agent ${i % 2 ? 'retried the deployment' : 'wrote a summary'} about topic ${i * 7}.`,
);

describe('planChunks', () => {
  it('caps chunks at batchSize and splits small batches across the workers', () => {
    expect(planChunks(16, 16, 2)).toEqual([
      [0, 8],
      [8, 16],
    ]);
    expect(planChunks(40, 16, 2)).toEqual([
      [0, 16],
      [16, 32],
      [32, 40],
    ]);
    expect(planChunks(3, 16, 0)).toEqual([[0, 3]]);
    expect(planChunks(1, 16, 4)).toEqual([[0, 1]]);
  });
});

describe('chunkSize', () => {
  it('cuts background work small for a while after a query, and never the query itself', () => {
    expect(chunkSize(16, false, 10)).toBe(CHUNK_WHILE_QUERYING);
    expect(chunkSize(16, false, QUERY_QUIET_MS - 1)).toBe(CHUNK_WHILE_QUERYING);
    expect(chunkSize(16, false, QUERY_QUIET_MS)).toBe(16);
    expect(chunkSize(16, false, Infinity)).toBe(16);
    expect(chunkSize(16, true, 0)).toBe(16);
    expect(chunkSize(1, false, 0)).toBe(1);
  });
});

describe('USE-lite embedder', () => {
  let pooled: Embedder;
  let inline: Embedder;

  beforeAll(async () => {
    pooled = createUseLiteEmbedder({ provider: 'use-lite', workers: 2, batchSize: 4 });
    inline = createUseLiteEmbedder({ provider: 'use-lite', workers: 0, batchSize: 16 });
    await Promise.all([pooled.init(), inline.init()]);
  });

  afterAll(async () => {
    await Promise.all([pooled?.close(), inline?.close()]);
  });

  it('reads its dimension from the model and names the model version', async () => {
    const [v] = await inline.embed(['probe']);
    expect(inline.dimension).toBe(v!.length);
    expect(inline.dimension).toBe(512); // USE-lite's published output size
    expect(pooled.dimension).toBe(inline.dimension);
    expect(inline.model).toMatch(/^use-lite@\d+\.\d+\.\d+$/);
  });

  it('returns unit-length vectors, also for empty and unusual texts', async () => {
    const texts = ['hello', '', '   ', '😀 emoji only', '中文文本', 'x'.repeat(5000), ''];
    const vectors = await pooled.embed(texts);
    expect(vectors).toHaveLength(texts.length);
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v.length).toBe(pooled.dimension);
      expect(norm(v)).toBeCloseTo(1, 4);
    }
  });

  it('reads only the first USE_LITE_MAX_TOKENS tokens of a text', async () => {
    const words = (n: number) => Array.from({ length: n }, () => 'a').join(' '); // one token per "a"
    const tail = ' rocket engines burn liquid fuel';
    const [under, underTail, at, atTail] = await inline.embed([
      words(USE_LITE_MAX_TOKENS - 4),
      words(USE_LITE_MAX_TOKENS - 4) + tail,
      words(USE_LITE_MAX_TOKENS),
      words(USE_LITE_MAX_TOKENS) + tail,
    ]);
    expect(cosine(under!, underTail!)).toBeLessThan(0.9999);
    expect(cosine(at!, atTail!)).toBeGreaterThan(0.99999);
  });

  it('embeds a megabyte of text as its head, without tokenising all of it', async () => {
    const sentence = 'The deployment of service alpha failed because the database connection pool was exhausted. ';
    const huge = sentence.repeat(Math.ceil(1_000_000 / sentence.length));
    const [whole, head] = await pooled.embed([huge, huge.slice(0, MAX_INPUT_CHARS)]);
    expect(cosine(whole!, head!)).toBeGreaterThan(0.99999);
  });

  it('scores a paraphrase above an unrelated sentence', async () => {
    const [q, para, other] = await inline.embed([
      'How do I reset my password?',
      'I forgot my login credentials and need to change them.',
      'The ferry to the island leaves every morning at nine.',
    ]);
    expect(cosine(q!, para!)).toBeGreaterThan(cosine(q!, other!) + 0.1);
  });

  it('keeps input order across workers and chunks, matching the in-process model', async () => {
    const [fromPool, fromThread] = await Promise.all([pooled.embed(TEXTS), inline.embed(TEXTS)]);
    expect(fromPool).toHaveLength(TEXTS.length);
    fromPool.forEach((v, i) => {
      expect(cosine(v, fromThread[i]!)).toBeGreaterThan(0.9999);
      // Each vector owns its buffer, so persisting `vector.buffer` stores one vector, not a batch.
      expect(v.buffer.byteLength).toBe(v.length * 4);
    });
    // Neighbours differ, so a shuffled result could not pass the check above by accident.
    expect(cosine(fromThread[0]!, fromThread[1]!)).toBeLessThan(0.99);
  });

  it('keeps concurrent calls apart', async () => {
    const calls = [TEXTS.slice(0, 5), TEXTS.slice(5, 6), TEXTS.slice(6, 20), ['standalone']];
    const results = await Promise.all(calls.map((c) => pooled.embed(c)));
    const reference = await inline.embed(calls.flat());
    expect(results.flat().map((v, i) => cosine(v, reference[i]!))).toEqual(results.flat().map(() => expect.closeTo(1, 4)));
  });

  it('turns a model failure into an ADAPTER error and keeps serving, in a worker and on the main thread', async () => {
    const bad = [42 as unknown as string];
    for (const emb of [pooled, inline]) {
      const err = await emb.embed(bad).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(EngramError);
      expect((err as EngramError).code).toBe('ADAPTER');
      const [ok] = await emb.embed(['still working']);
      expect(norm(ok!)).toBeCloseTo(1, 4);
    }
  });

  it('refuses work after close() and does not start again', async () => {
    for (const workers of [1, 0]) {
      const e = createUseLiteEmbedder({ provider: 'use-lite', workers, batchSize: 8 });
      await e.init();
      await e.close();
      const err = (await e.embed(['x']).catch((x: unknown) => x)) as EngramError;
      expect(err.code).toBe('UNAVAILABLE');
      await expect(e.init()).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    }
  });

  it('close() while the model loads makes the pending embed fail as closed', async () => {
    const e = createUseLiteEmbedder({ provider: 'use-lite', workers: 2, batchSize: 8 });
    const embedding = e.embed(['x']).catch((x: unknown) => x);
    await e.close();
    expect(await embedding).toMatchObject({ code: 'UNAVAILABLE' });
  });

  it('init() reads the dimension from the weights manifest, and the loaded model embeds in exactly that many', async () => {
    const e = createUseLiteEmbedder({ provider: 'use-lite', workers: 0, batchSize: 8 });
    const { dimension } = await e.init();
    expect(dimension).toBe(manifestDimension());
    const [v] = await e.embed(['how wide is this vector?']);
    expect(v!.length).toBe(dimension);
    await e.close();
  });
});
