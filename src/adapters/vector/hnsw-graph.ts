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

/**
 * A usearch HNSW graph over unit vectors with inner-product distance (1 − dot). Tracks removed-but-unreused
 * nodes: usearch keeps them as tombstones that searches walk through, and reuses their slots on later inserts.
 */
export class HnswGraph {
  private readonly index: UsearchIndex;
  private live = 0;
  private removedNodes = 0;

  constructor(
    usearch: UsearchModule,
    readonly dimension: number,
    readonly params: HnswParams,
  ) {
    this.index = new usearch.Index({
      dimensions: dimension,
      // usearch's i8 kernels are cosine only; on the unit vectors stored here cosine ranks as the inner product does.
      metric: params.quantization === 'i8' ? 'cos' : 'ip',
      quantization: params.quantization,
      connectivity: params.connectivity,
      expansion_add: params.expansionAdd,
      expansion_search: params.expansionSearch,
      multi: false,
    });
  }

  get size(): number {
    return this.live;
  }

  /** Writes the graph (usearch's own file format) to `path`; `restore` reads it back. */
  save(path: string): { live: number; removed: number } {
    this.index.save(path);
    return { live: this.live, removed: this.removedNodes };
  }

  /** A graph loaded from a file `save` wrote with the same dimension and parameters. */
  static restore(usearch: UsearchModule, dimension: number, params: HnswParams, path: string, counts: { live: number; removed: number }): HnswGraph {
    const g = new HnswGraph(usearch, dimension, params);
    g.index.load(path);
    if (g.index.size() !== counts.live) throw new EngramError('ADAPTER', `hnsw file holds ${g.index.size()} vectors, expected ${counts.live}`);
    g.live = counts.live;
    g.removedNodes = counts.removed;
    return g;
  }

  /** Removed nodes still in the graph (their slots are reused by later inserts). */
  get tombstones(): number {
    return this.removedNodes;
  }

  /** Inserts `ids.length` rows laid out contiguously in `rows`. No id may already be in the graph. */
  insert(ids: readonly number[], rows: Float32Array): void {
    if (ids.length === 0) return;
    const keys = new BigUint64Array(ids.length);
    for (let i = 0; i < ids.length; i++) keys[i] = toKey(ids[i]!);
    this.index.add(keys, rows, this.params.threads);
    this.live += ids.length;
    this.removedNodes = Math.max(0, this.removedNodes - ids.length);
  }

  remove(id: number): void {
    if (this.index.remove(toKey(id)) > 0) {
      this.live--;
      this.removedNodes++;
    }
  }

  /** Up to `k` ids nearest to `query`, best first (fewer when the graph is small or poorly connected). */
  search(query: Float32Array, k: number): number[] {
    if (this.live === 0 || k <= 0) return [];
    const m = this.index.search(query, k, 1);
    const out: number[] = [];
    for (let i = 0; i < m.keys.length; i++) out.push(toId(m.keys[i]!));
    return out;
  }
}
