import { createRequire } from 'node:module';

/**
 * The slice of the `usearch` package this adapter uses, typed here so the engine type-checks without the
 * optional dependency installed.
 */
export interface UsearchMatches {
  keys: BigUint64Array;
  distances: Float32Array;
}

export type UsearchMetric = 'ip' | 'cos';
export type UsearchScalar = 'f32' | 'f16' | 'bf16' | 'i8';

export interface UsearchIndexConfig {
  dimensions: number;
  metric: UsearchMetric;
  quantization: UsearchScalar;
  connectivity: number;
  expansion_add: number;
  expansion_search: number;
  multi: boolean;
}

export interface UsearchIndex {
  add(keys: bigint | BigUint64Array, vectors: Float32Array, threads?: number): void;
  search(vector: Float32Array, k: number, threads: number): UsearchMatches;
  remove(keys: bigint): number;
  contains(keys: bigint): boolean;
  size(): number;
  save(path: string): void;
  load(path: string): void;
  /** Memory-maps a saved index (read-only: add and remove fail on it). */
  view(path: string): void;
}

export interface UsearchModule {
  Index: new (config: UsearchIndexConfig) => UsearchIndex;
  /** Keys of the result are row offsets into `dataset`. Reads `dataset` from its buffer start (ignores byteOffset). */
  exactSearch(
    dataset: Float32Array,
    queries: Float32Array,
    dimensions: number,
    count: number,
    metric: UsearchMetric,
    threads?: number,
  ): UsearchMatches;
}

function isUsearchModule(m: unknown): m is UsearchModule {
  if (typeof m !== 'object' || m === null) return false;
  const r = m as Record<string, unknown>;
  return typeof r.Index === 'function' && typeof r.exactSearch === 'function';
}

const cache = new Map<string, UsearchModule | null>();
const failures = new Map<string, unknown>();

/**
 * Loads the native `usearch` module synchronously, or returns null when it is missing, fails to load
 * (no prebuilt binary for this platform, ABI mismatch) or does not work (a one-vector smoke search).
 * The result is cached per specifier; `specifier` exists so tests can name a module that is not installed.
 */
export function loadUsearch(specifier = 'usearch'): UsearchModule | null {
  if (cache.has(specifier)) return cache.get(specifier)!;
  let mod: UsearchModule | null = null;
  try {
    const loaded: unknown = createRequire(import.meta.url)(specifier);
    if (isUsearchModule(loaded) && smokeTest(loaded)) mod = loaded;
  } catch (e) {
    failures.set(specifier, e);
  }
  cache.set(specifier, mod);
  return mod;
}

/** Why `loadUsearch(specifier)` returned null, if it threw (for logs). */
export function usearchLoadError(specifier = 'usearch'): unknown {
  return failures.get(specifier);
}

/** A broken binary can load yet compute garbage; check one exact search before trusting it. */
function smokeTest(m: UsearchModule): boolean {
  const data = Float32Array.of(1, 0, 0, 1);
  const query = Float32Array.of(0, 1);
  const r = m.exactSearch(data, query, 2, 1, 'ip', 1);
  return Number(r.keys[0]) === 1 && Math.abs(r.distances[0]!) < 1e-6;
}
