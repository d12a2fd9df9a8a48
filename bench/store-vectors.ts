/**
 * bench:store's vectors: the model once, then lookups. `pool` texts and every query are embedded by USE-lite;
 * every other memory gets the real vector of a text of its own template family plus Gaussian noise (cosine ≈
 * 0.9), seeded by its text, so each adapter stores exactly the same vectors and nothing is embedded while a
 * store is being measured.
 */
import { createUseLiteEmbedder } from '../src/index.js';
import { noisy } from './perf/pool-embedder.js';
import { rng, synthEvents, synthFacts, synthQueries } from './perf/synthetic.js';
import type { Embedder } from '../src/index.js';
import { round } from './stats.js';

/** Noise of norm 0.5 in all around a real unit vector (cosine ≈ 0.9 to it), spread over its dimensions. */
const noiseFor = (v: Float32Array) => 0.5 / Math.sqrt(v.length);
const pick = <T>(xs: readonly T[], r: () => number): T => xs[Math.floor(r() * xs.length)]!;

export interface Vectors {
  model: string;
  dimension: number;
  /** The vector stored for a memory's text (real for the pool, derived otherwise; deterministic). */
  forText(text: string): Float32Array;
  queries: string[];
  /** An embedder that answers queries from the precomputed vectors (and memory texts by derivation). */
  embedder(): Embedder;
  derivedMisses(): number;
  close(): Promise<void>;
}

/** The memories of a store of size n: events and facts, deterministic (as in bench/core.ts: 20% facts). */
export function memoriesOf(n: number) {
  const nFacts = Math.floor(n * 0.2);
  return { events: synthEvents(n - nFacts, 7), facts: synthFacts(nFacts, 8) };
}

export async function prepareVectors(maxSize: number, poolSize: number, nQueries: number, log: (s: string) => void): Promise<Vectors> {
  const model = createUseLiteEmbedder({ provider: 'use-lite', workers: 2, batchSize: 16 });
  const { dimension } = await model.init();
  const { events, facts } = memoriesOf(maxSize);
  const family = new Map<string, string>();
  for (const e of events) family.set(e.content as string, e.family);
  for (const f of facts) family.set(f.text, f.family);
  // The pool: the first texts of each kind, so every family gets real vectors.
  const poolTexts = [...new Set([...events.slice(0, Math.ceil(poolSize * 0.8)).map((e) => e.content as string), ...facts.slice(0, Math.floor(poolSize * 0.2)).map((f) => f.text)])];
  const queries = synthQueries(nQueries, 1000);
  const t0 = performance.now();
  const embedded = await model.embed([...poolTexts, ...queries]);
  log(`  ${embedded.length} texts embedded in ${round((performance.now() - t0) / 1000, 1)} s (${dimension} dimensions)`);
  await model.close();
  const known = new Map<string, Float32Array>();
  const byFamily = new Map<string, Float32Array[]>();
  [...poolTexts, ...queries].forEach((t, i) => known.set(t, embedded[i]!));
  poolTexts.forEach((t, i) => {
    const fam = family.get(t)!;
    byFamily.set(fam, [...(byFamily.get(fam) ?? []), embedded[i]!]);
  });
  const all = [...byFamily.values()].flat();
  let misses = 0;
  const forText = (text: string): Float32Array => {
    const hit = known.get(text);
    if (hit) return hit;
    const fam = family.get(text);
    if (fam === undefined) misses++;
    const r = rng(hash(text));
    const base = (fam !== undefined ? byFamily.get(fam) : undefined) ?? all;
    return noisy(pick(base, r), r, noiseFor(base[0]!));
  };
  const lookup: Embedder = {
    model: model.model,
    dimension,
    init: async () => ({ dimension }),
    embed: async (texts) => texts.map(forText),
    close: async () => undefined,
  };
  return { model: model.model, dimension, forText, queries, embedder: () => lookup, derivedMisses: () => misses, close: async () => undefined };
}

/** FNV-1a, as a seed. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
