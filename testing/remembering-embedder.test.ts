import { describe, expect, it } from 'vitest';
import type { Embedder } from '../src/ports/embedder.js';
import { rememberingEmbedder } from './remembering-embedder.js';

/** A stand-in model that records every batch it is asked to embed. */
function recordingModel(): Embedder & { batches: string[][] } {
  const batches: string[][] = [];
  return {
    model: 'rec-1',
    dimension: 2,
    batches,
    init: async () => ({ dimension: 2 }),
    embed: async (texts) => {
      batches.push([...texts]);
      return texts.map((t) => Float32Array.from([t.length, 1]));
    },
    close: async () => undefined,
  };
}

describe('rememberingEmbedder', () => {
  it('sends each distinct text to the model once and answers repeats, in the order asked', async () => {
    const model = recordingModel();
    const e = rememberingEmbedder(model);
    expect((await e.embed(['ab', 'c', 'ab'])).map((v) => v[0])).toEqual([2, 1, 2]);
    expect((await e.embed(['c', 'dddd'])).map((v) => v[0])).toEqual([1, 4]);
    expect(await e.embed([])).toEqual([]);
    expect(model.batches).toEqual([['ab', 'c'], ['dddd']]);
    expect(e.counts).toEqual({ embedded: 3, remembered: 2 });
    expect([e.model, e.dimension]).toEqual(['rec-1', 2]);
  });

  it('hands out copies, so a caller changing a vector does not change later answers', async () => {
    const e = rememberingEmbedder(recordingModel());
    const [first] = await e.embed(['abc']);
    first![0] = 99;
    expect((await e.embed(['abc']))[0]![0]).toBe(3);
  });
});
