import { EngramError } from '../../core/errors.js';
import type { UsearchIndex, UsearchModule, UsearchScalar } from './usearch-module.js';

export interface HnswParams {
  /** Graph degree (M). */
  connectivity: number;
  /** Beam width while inserting. */
  expansionAdd: number;
  /** Beam width while searching; usearch fixes it at construction, a larger k widens it per search. */
  expansionSearch: number;
  /** Storage of the graph's own vector copy; results are rescored in f32 anyway (from memory or the row file). */
  quantization: UsearchScalar;
  /** Threads for batch inserts. The same count is used for every insert (usearch reserves per-thread state). */
  threads: number;
}

/** usearch keys are u64; ids are any safe integer, so negative ids wrap to two's complement and back. */
const toKey = (id: number): bigint => BigInt.asUintN(64, BigInt(id));
const toId = (key: bigint): number => Number(BigInt.asIntN(64, key));

/** What `save` wrote, and what `restore` needs back. */
export interface GraphCounts {
  /** Nodes searchable (base minus those removed from it, plus the delta's). */
  live: number;
  /** Removed nodes still walked through (tombstones), in the base and in the delta. */
  baseRemoved: number;
  deltaRemoved: number;
}

/** A graph saved as a viewed base file, the delta graph beside it and the ids removed from the base since. */
export interface LayeredFiles {
  /** The base graph's file (the one this graph was viewed from; never rewritten). */
  base: string;
  /** Where the delta graph was written, when there is one. */
  delta?: string;
  /** Ids removed from the base since it was saved. */
  removed: Float64Array;
}

/**
 * A usearch HNSW graph over unit vectors with inner-product distance (1 − dot). Tracks removed-but-unreused
 * nodes: usearch keeps them as tombstones that searches walk through, and reuses their slots on later inserts.
 *
 * A graph opened from a saved file is *viewed* (memory-mapped, `view`): nothing is read or copied up front and
 * its pages live in the OS page cache, but usearch cannot change it. Writes then go to a small in-memory delta
 * graph (inserts) and a set of ids removed from the base (filtered out of its results); a search asks both
 * graphs and merges their hits by distance. Saving such a graph writes only the delta and the removed ids; the
 * base file is kept as it is.
 */
export class HnswGraph {
  private readonly index: UsearchIndex;
  /** The file the base is viewed from (null: the base is in memory and mutable). */
  private viewedFrom: string | null = null;
  private delta: UsearchIndex | null = null;
  /** Ids removed from a viewed base (usearch cannot remove from it). */
  private readonly removedFromBase = new Set<number>();
  private live = 0;
  private baseRemoved = 0;
  private deltaRemoved = 0;

  constructor(
    private readonly usearch: UsearchModule,
    readonly dimension: number,
    readonly params: HnswParams,
  ) {
    this.index = this.newIndex();
  }

  private newIndex(): UsearchIndex {
    const p = this.params;
    return new this.usearch.Index({
      dimensions: this.dimension,
      // usearch's i8 kernels are cosine only; on the unit vectors stored here cosine ranks as the inner product does.
      metric: p.quantization === 'i8' ? 'cos' : 'ip',
      quantization: p.quantization,
      connectivity: p.connectivity,
      expansion_add: p.expansionAdd,
      expansion_search: p.expansionSearch,
      multi: false,
    });
  }

  get size(): number {
    return this.live;
  }

  /** True when the base is viewed from a file (writes go to the delta). */
  get viewed(): boolean {
    return this.viewedFrom !== null;
  }

  /** Nodes in the delta graph. */
  get deltaSize(): number {
    return this.delta ? this.delta.size() : 0;
  }

  /** Removed nodes still in the graph (in a mutable graph their slots are reused by later inserts). */
  get tombstones(): number {
    return this.baseRemoved + this.deltaRemoved;
  }

  counts(): GraphCounts {
    return { live: this.live, baseRemoved: this.baseRemoved, deltaRemoved: this.deltaRemoved };
  }

  /**
   * Writes the graph. A mutable graph is written whole to `path` (usearch's own format); a viewed one writes
   * its delta (if any) to `path` and names its base file, which stays as it is.
   */
  save(path: string): GraphCounts & { layered?: LayeredFiles } {
    if (!this.viewedFrom) {
      this.index.save(path);
      return this.counts();
    }
    const layered: LayeredFiles = { base: this.viewedFrom, removed: Float64Array.from(this.removedFromBase) };
    if (this.delta && this.delta.size() + this.deltaRemoved > 0) {
      this.delta.save(path);
      layered.delta = path;
    }
    return { ...this.counts(), layered };
  }

  /**
   * A graph opened from files `save` wrote with the same dimension and parameters: `base` is viewed in place
   * (memory-mapped), `delta` loaded into memory, `removed` filtered out of the base's results.
   */
  static restore(
    usearch: UsearchModule,
    dimension: number,
    params: HnswParams,
    files: { base: string; delta?: string | undefined; removed?: Float64Array | undefined },
    counts: GraphCounts,
  ): HnswGraph {
    const g = new HnswGraph(usearch, dimension, params);
    g.index.view(files.base);
    g.viewedFrom = files.base;
    if (files.delta) {
      g.delta = g.newIndex();
      g.delta.load(files.delta);
    }
    for (const id of files.removed ?? []) g.removedFromBase.add(id);
    const live = g.index.size() - g.removedFromBase.size + g.deltaSize;
    if (live !== counts.live) throw new EngramError('ADAPTER', `hnsw files hold ${live} vectors, expected ${counts.live}`);
    g.live = counts.live;
    g.baseRemoved = counts.baseRemoved;
    g.deltaRemoved = counts.deltaRemoved;
    return g;
  }

  /** Inserts `ids.length` rows laid out contiguously in `rows`. No id may already be in the graph. */
  insert(ids: readonly number[], rows: Float32Array): void {
    if (ids.length === 0) return;
    const keys = new BigUint64Array(ids.length);
    for (let i = 0; i < ids.length; i++) keys[i] = toKey(ids[i]!);
    if (this.viewedFrom) {
      this.delta ??= this.newIndex();
      this.delta.add(keys, rows, this.params.threads);
      this.deltaRemoved = Math.max(0, this.deltaRemoved - ids.length);
    } else {
      this.index.add(keys, rows, this.params.threads);
      this.baseRemoved = Math.max(0, this.baseRemoved - ids.length);
    }
    this.live += ids.length;
  }

  remove(id: number): void {
    const key = toKey(id);
    if (this.delta?.contains(key)) {
      if (this.delta.remove(key) > 0) {
        this.live--;
        this.deltaRemoved++;
      }
    } else if (this.viewedFrom) {
      if (!this.removedFromBase.has(id) && this.index.contains(key)) {
        this.removedFromBase.add(id);
        this.live--;
        this.baseRemoved++;
      }
    } else if (this.index.remove(key) > 0) {
      this.live--;
      this.baseRemoved++;
    }
  }

  /** Up to `k` ids nearest to `query`, best first (fewer when the graph is small or poorly connected). */
  search(query: Float32Array, k: number): number[] {
    if (this.live === 0 || k <= 0) return [];
    const m = this.index.search(query, k, 1);
    const removed = this.removedFromBase;
    const base: number[] = [];
    const baseDist: number[] = [];
    for (let i = 0; i < m.keys.length; i++) {
      const id = toId(m.keys[i]!);
      if (removed.size > 0 && removed.has(id)) continue;
      base.push(id);
      baseDist.push(m.distances[i]!);
    }
    const deltaSize = this.deltaSize;
    if (deltaSize === 0) return base;
    const d = this.delta!.search(query, Math.min(k, deltaSize), 1);
    // Merge two lists sorted by distance (both graphs score with the same metric and scalar type).
    const out: number[] = [];
    let i = 0;
    let j = 0;
    while (out.length < k && (i < base.length || j < d.keys.length)) {
      if (j >= d.keys.length || (i < base.length && baseDist[i]! <= d.distances[j]!)) out.push(base[i++]!);
      else out.push(toId(d.keys[j++]!));
    }
    return out;
  }
}
