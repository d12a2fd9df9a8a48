/**
 * Real embeddings at scale without hours of model time: `pool` texts per template family are embedded by
 * the model; every corpus text gets the real vector of a pool text of its own family plus Gaussian noise
 * (cosine ≈ 0.9), deterministic per text. Any other text (queries) goes to the model. Search cost depends
 * on the number and dimension of vectors, not on how they were produced; both engines get the same vectors.
 */
import type { Embedder } from '../../src/index.js';
import { rng } from './synthetic.js';

export async function poolEmbedder(real: Embedder, corpus: readonly { text: string; family: string }[], poolSize: number, seed = 7): Promise<Embedder> {
  const { dimension } = await real.init();
  const pool = corpus.slice(0, Math.min(poolSize, corpus.length));
  const vectors = await real.embed(pool.map((p) => p.text));
  const byFamily = new Map<string, Float32Array[]>();
  pool.forEach((p, i) => byFamily.set(p.family, [...(byFamily.get(p.family) ?? []), vectors[i]!]));
  const fallback = vectors;
  const table = new Map<string, Float32Array>();
  const r = rng(seed);
  corpus.forEach((c, i) => {
    const choices = byFamily.get(c.family) ?? fallback;
    table.set(c.text, i < pool.length ? vectors[i]! : noisy(choices[Math.floor(r() * choices.length)]!, r, 0.022));
  });
  return {
    model: real.model,
    dimension,
    init: async () => ({ dimension }),
    async embed(texts, o) {
      const miss = texts.filter((t) => !table.has(t));
      const got = miss.length ? await real.embed(miss, o) : [];
      const fresh = new Map(miss.map((t, i) => [t, got[i]!]));
      return texts.map((t) => table.get(t) ?? fresh.get(t)!);
    },
    close: async () => undefined,
  };
}

/** base + N(0, sigma²) per dimension, re-normalised. */
export function noisy(base: Float32Array, r: () => number, sigma: number): Float32Array {
  const v = new Float32Array(base.length);
  let n = 0;
  for (let i = 0; i < v.length; i++) {
    // Box–Muller.
    const g = Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
    v[i] = base[i]! + sigma * g;
    n += v[i]! * v[i]!;
  }
  n = Math.sqrt(n);
  for (let i = 0; i < v.length; i++) v[i] = v[i]! / n;
  return v;
}
