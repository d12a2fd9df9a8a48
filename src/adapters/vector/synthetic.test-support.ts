/**
 * Seeded synthetic unit vectors for tests and benchmarks of the vector indexes.
 *
 * Uniform random vectors are useless for judging an ANN index: in high dimension every pair is nearly
 * orthogonal, the "top 10" is noise and recall looks broken. `clusteredVectors` mimics sentence embeddings:
 * a shared mean direction (embeddings are anisotropic), topics, subtopics, and a low-rank spread inside each
 * subtopic plus a little isotropic noise. At 512-d a query's best match scores ~0.9, its 10th ~0.8, its 100th
 * ~0.5 and a random pair ~0.1, close to what USE-style models give.
 */
import type { VectorHit } from '../../ports/vector-index.js';
import { byScoreThenId, TopK } from './top-k.js';
import { seededRng } from '../../testing/rng.js';

/** mulberry32 (src/testing/rng.ts): small, fast, seedable. */
export const seededRandom = seededRng;

function gaussian(rand: () => number): number {
  let u = 0;
  while (u === 0) u = rand();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

export function normalize(v: Float32Array): Float32Array {
  let s = 0;
  for (let j = 0; j < v.length; j++) s += v[j]! ** 2;
  const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
  for (let j = 0; j < v.length; j++) v[j] = v[j]! * inv;
  return v;
}

export function randomUnit(dimension: number, rand: () => number): Float32Array {
  const v = new Float32Array(dimension);
  for (let j = 0; j < dimension; j++) v[j] = gaussian(rand);
  return normalize(v);
}

export interface ClusteredOptions {
  seed?: number;
  topics?: number;
  subtopicsPerTopic?: number;
  /** Dimensions of the spread inside a subtopic. */
  rank?: number;
}

/**
 * A generator of clustered unit vectors; `next()` draws one from a random subtopic. Queries drawn from the
 * same generator behave like real queries against the same corpus.
 */
export class ClusteredVectors {
  private readonly rand: () => number;
  private readonly mean: Float32Array;
  private readonly topics: Float32Array[] = [];
  private readonly subtopics: { center: Float32Array; basis: Float32Array[] }[] = [];
  private readonly perTopic: number;

  constructor(
    readonly dimension: number,
    expectedSize: number,
    opts: ClusteredOptions = {},
  ) {
    this.rand = seededRandom(opts.seed ?? 1);
    const topicCount = opts.topics ?? Math.max(4, Math.round(Math.sqrt(expectedSize) / 3));
    this.perTopic = opts.subtopicsPerTopic ?? 8;
    const rank = opts.rank ?? 8;
    this.mean = randomUnit(dimension, this.rand);
    for (let t = 0; t < topicCount; t++) this.topics.push(randomUnit(dimension, this.rand));
    for (let s = 0; s < topicCount * this.perTopic; s++) {
      const basis: Float32Array[] = [];
      for (let r = 0; r < rank; r++) basis.push(randomUnit(dimension, this.rand));
      this.subtopics.push({ center: randomUnit(dimension, this.rand), basis });
    }
  }

  next(): Float32Array {
    const d = this.dimension;
    const s = Math.floor(this.rand() * this.subtopics.length);
    const topic = this.topics[Math.floor(s / this.perTopic)]!;
    const { center, basis } = this.subtopics[s]!;
    const noise = 0.3 / Math.sqrt(d);
    const spread = 0.8 / Math.sqrt(basis.length);
    const v = new Float32Array(d);
    for (let j = 0; j < d; j++) v[j] = 0.5 * this.mean[j]! + topic[j]! + 0.8 * center[j]! + noise * gaussian(this.rand);
    for (const b of basis) {
      const z = gaussian(this.rand) * spread;
      for (let j = 0; j < d; j++) v[j] = v[j]! + z * b[j]!;
    }
    return normalize(v);
  }

  /** `count` vectors packed row-major into one array. */
  batch(count: number): Float32Array {
    const out = new Float32Array(count * this.dimension);
    for (let i = 0; i < count; i++) out.set(this.next(), i * this.dimension);
    return out;
  }
}

/** Row `i` of a packed batch, as its own array. */
export function row(batch: Float32Array, dimension: number, i: number): Float32Array {
  return batch.slice(i * dimension, (i + 1) * dimension);
}

/** Reference answer: every (id, vector) scored with a straightforward float64 dot product, best k first. */
export function bruteForce(
  entries: Iterable<[number, Float32Array]>,
  query: Float32Array,
  k: number,
  keep: (id: number) => boolean = () => true,
): VectorHit[] {
  const hits: VectorHit[] = [];
  for (const [id, v] of entries) {
    if (!keep(id)) continue;
    let s = 0;
    for (let j = 0; j < v.length; j++) s += v[j]! * query[j]!;
    hits.push({ id, score: s });
  }
  if (k >= hits.length) return hits.sort(byScoreThenId);
  const top = new TopK(k);
  for (const h of hits) top.push(h.id, h.score);
  return top.sorted();
}

/** Fraction of `truth`'s ids found in `got`. */
export function recall(got: readonly VectorHit[], truth: readonly VectorHit[]): number {
  if (truth.length === 0) return 1;
  const ids = new Set(got.map((h) => h.id));
  return truth.filter((h) => ids.has(h.id)).length / truth.length;
}
