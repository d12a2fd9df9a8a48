import { EngramError } from '../../core/errors.js';
import type { VectorIndex } from '../../ports/vector-index.js';
import { FlatVectorIndex } from './flat.js';
import { resolveVectorIndexOptions, type VectorIndexOptions } from './options.js';
import { UsearchVectorIndex, type UsearchIndexStats, type VectorIndexFiles, type VectorIndexState } from './usearch-index.js';
import { loadUsearch, usearchLoadError, type UsearchModule } from './usearch-module.js';

export { FlatVectorIndex, TopK } from './flat.js';
export { UsearchVectorIndex, type UsearchIndexStats, type VectorIndexFiles, type VectorIndexState } from './usearch-index.js';
export type { VectorIndexOptions } from './options.js';

export type VectorBackend = 'usearch' | 'flat';

/**
 * Creates the best vector index available on this machine for the given dimension: usearch (SIMD exact scan,
 * HNSW from `annThreshold` vectors) when its native module loads, else the pure-TS flat scan.
 */
export function createVectorIndex(dimension: number, opts?: VectorIndexOptions): VectorIndex {
  return createVectorIndexWith(dimension, opts, loadUsearch);
}

/** `createVectorIndex` with the usearch loader passed in (tests pass one that finds nothing). */
export function createVectorIndexWith(
  dimension: number,
  opts: VectorIndexOptions | undefined,
  load: () => UsearchModule | null,
): VectorIndex {
  const o = resolveVectorIndexOptions(opts);
  if (o.prefer === 'flat') return new FlatVectorIndex(dimension);
  const usearch = load();
  if (usearch) return new UsearchVectorIndex(dimension, usearch, o);
  if (o.prefer === 'usearch') {
    throw new EngramError('UNAVAILABLE', 'vector index: usearch was requested but its native module did not load', {
      issues: [{ path: 'prefer', message: 'usearch is not available on this machine' }],
      cause: usearchLoadError(),
    });
  }
  return new FlatVectorIndex(dimension);
}

/** Which implementation `createVectorIndex` picks here with default options (for startup logs and benches). */
export function activeVectorBackend(): VectorBackend {
  return loadUsearch() ? 'usearch' : 'flat';
}

export interface VectorIndexInfo {
  backend: VectorBackend | 'other';
  /** 'exact' (flat or SIMD scan), 'hnsw' (graph in use), 'hnsw-building' (graph catching up; searches exact). */
  mode: UsearchIndexStats['mode'];
  size: number;
  approximate: boolean;
  pending: number;
}

/** What a given index is doing right now, e.g. for a health endpoint or a benchmark table. */
export function describeVectorIndex(index: VectorIndex): VectorIndexInfo {
  if (index instanceof UsearchVectorIndex) {
    const s = index.stats();
    return { backend: 'usearch', mode: s.mode, size: s.size, approximate: index.approximate, pending: s.pending };
  }
  const backend = index instanceof FlatVectorIndex ? 'flat' : 'other';
  return { backend, mode: index.approximate ? 'hnsw' : 'exact', size: index.size, approximate: index.approximate, pending: 0 };
}

/**
 * What a saved index holds (see adapters/storage/sql/index-snapshot.ts): the vectors, with the f32 rows of a
 * large index streamed to `files.rows` and the HNSW graph written to `files.graph` when there is one.
 * Undefined for an index of another kind (it is then rebuilt from the rows).
 */
export function exportVectorState(index: VectorIndex, files: Pick<VectorIndexFiles, 'rows' | 'graph'>): VectorIndexState | undefined {
  if (index instanceof UsearchVectorIndex) return index.exportState(files);
  if (index instanceof FlatVectorIndex) return index.exportState();
  return undefined;
}

/**
 * Fills an empty index from `exportVectorState` output (see UsearchVectorIndex.restoreState for `verified`);
 * false when this kind of index cannot take it.
 */
export function restoreVectorState(index: VectorIndex, state: VectorIndexState, files: VectorIndexFiles, verified?: Promise<boolean>): boolean {
  if (index instanceof UsearchVectorIndex) index.restoreState(state, files, verified);
  else if (index instanceof FlatVectorIndex && state.rows) index.restoreState({ ids: state.ids, rows: state.rows });
  else return false;
  return true;
}

/** False while an index restored from files is still checking them (a save now would miss their graph). */
export function vectorIndexSavable(index: VectorIndex): boolean {
  return !(index instanceof UsearchVectorIndex) || index.savable;
}
