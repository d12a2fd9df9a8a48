import { adapterError, EngramError } from '../../core/errors.js';
import { ExactScan } from './exact-scan.js';
import type { VectorHit, VectorIndex, VectorSearchOptions } from '../../ports/vector-index.js';
import { runInSlices, type SlicedWork } from './background.js';
import { resultCount } from './flat.js';
import { closeSync, fsyncSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { HnswGraph } from './hnsw-graph.js';
import type { SavedGraph, VectorIndexFiles, VectorIndexState } from './index-state.js';
import { both, SearchRun, type Accept } from './search-run.js';
import { VectorMatrix } from './matrix.js';
import type { ResolvedVectorIndexOptions } from './options.js';
import { rescoreExact, rescoreWidth } from './rescore.js';
import { RowFile } from './row-file.js';
import { planFilteredSearch } from './search-plan.js';
import { TopK } from './top-k.js';
import type { UsearchModule } from './usearch-module.js';

/** Unfiltered searches rescore this many graph hits per wanted result, so matrix scores fix f16 ordering errors. */
const GRAPH_OVERSAMPLE = 2;
/**
 * Recall at a fixed beam falls as the graph grows (measured on clustered 512-d sets: M=16 efSearch=192 gives
 * 0.99 at 100k, 0.94 at 300k, 0.75 at 1M), so unfiltered searches widen the beam with √(size / 100k).
 */
const BEAM_GROWTH_FROM = 100_000;
const MAX_BEAM = 1024;
/** Rows scanned in JS per search for vectors not yet in the graph; beyond it the graph is "not caught up". */
const PENDING_SCAN_BUDGET = 1 << 20;

export interface UsearchIndexStats {
  mode: 'exact' | 'hnsw' | 'hnsw-building';
  size: number;
  /** Vectors not yet inserted into the graph (scanned exactly meanwhile). */
  pending: number;
  /** Removed vectors whose graph nodes await reuse. */
  tombstones: number;
  /** Why the graph was abandoned, if building it failed. */
  graphError?: string;
  /** Restored from saved files whose check is still running (searches are exact on i8 rows meanwhile). */
  verifying?: true;
}

/**
 * usearch-backed index. Keeps every vector in a dense matrix (the source of every score) and:
 * - below `annThreshold` vectors, answers with usearch's SIMD exact scan over that matrix (f32 in memory);
 * - from `annThreshold` on, also keeps an HNSW graph (f16 by default), built in the background as vectors
 *   arrive; until it has caught up, searches stay exact. With `fullPrecision: 'disk'` (default) the matrix
 *   then holds i8 rows and its f32 rows move to a scratch file: every search selects `rescoreWidth` candidates
 *   by their i8 (or graph) scores and returns the best of them by their exact f32 scores, read from the file.
 * Filtered searches pick the cheapest of: scanning the allowed ids, an oversampled graph search, or an
 * oversampled SIMD scan; whatever comes up short falls back to an exact pass over the eligible ids, so a
 * filtered search never returns fewer hits than exist.
 */
export class UsearchVectorIndex implements VectorIndex {
  private readonly matrix: VectorMatrix;
  private readonly exact: ExactScan;
  private graph: HnswGraph | null = null;
  /** Ids whose current vector is not in the graph (meaningful only while a graph exists). */
  private pending = new Set<number>();
  private pendingCursor: Iterator<number> | null = null;
  private cancelBuild: (() => void) | null = null;
  /** Set when building the graph failed; the index then stays exact for its lifetime. */
  private graphError: EngramError | null = null;
  private readonly builder: SlicedWork = { runSlice: () => this.runSlice() };
  private readonly pendingLimit: number;
  /** Restored from files still being checked: ids written meanwhile (the graph is attached once they pass). */
  private awaiting: { changed: Set<number> } | null = null;
  /** False while the f32 row file is unchecked: searches then rank by the i8 rows alone. */
  private rowsTrusted = true;

  constructor(
    readonly dimension: number,
    private readonly usearch: UsearchModule,
    private readonly opts: ResolvedVectorIndexOptions,
  ) {
    this.matrix = new VectorMatrix(dimension);
    this.exact = new ExactScan(usearch, this.matrix, dimension);
    this.pendingLimit = Math.max(256, Math.floor(PENDING_SCAN_BUDGET / dimension));
  }

  get size(): number {
    return this.matrix.size;
  }

  /** True once unfiltered searches go through the HNSW graph (it exists and has caught up). */
  get approximate(): boolean {
    return this.graphReady();
  }

  stats(): UsearchIndexStats {
    const mode = !this.graph ? 'exact' : this.graphReady() ? 'hnsw' : 'hnsw-building';
    return {
      mode,
      size: this.size,
      pending: this.graph ? this.pending.size : 0,
      tombstones: this.graph?.tombstones ?? 0,
      ...(this.graphError ? { graphError: this.graphError.message } : {}),
      ...(this.awaiting ? { verifying: true as const } : {}),
    };
  }

  has(id: number): boolean {
    return this.matrix.has(id);
  }

  add(id: number, vector: Float32Array): void {
    const existed = this.matrix.set(id, vector);
    if (this.awaiting) {
      this.awaiting.changed.add(id);
    } else if (this.graph) {
      if (existed && !this.pending.has(id)) this.graph.remove(id);
      this.pending.add(id);
      this.afterPendingGrew();
    } else if (this.matrix.size >= this.opts.annThreshold && !this.graphError) {
      this.startGraph();
    }
  }

  remove(id: number): void {
    if (!this.matrix.delete(id)) return;
    if (this.awaiting) this.awaiting.changed.add(id);
    if (!this.graph) return;
    if (!this.pending.delete(id)) this.graph.remove(id);
    if (this.matrix.size < this.opts.annThreshold / 2) this.dropGraph();
    else if (this.graph.tombstones > Math.max(1024, this.graph.size / 2)) this.startGraph();
  }

  clear(): void {
    this.dropGraph();
    this.awaiting = null;
    this.matrix.clear();
  }

  /** False while restored files are being checked (`exportState` would miss their graph). */
  get savable(): boolean {
    return this.awaiting === null;
  }

  /**
   * The vectors and, when a graph exists, the graph written to `files.graph` (a viewed graph writes only its
   * delta there and names its base) with the ids not yet in it. In memory the ids and f32 rows (copied); once
   * compact the ids, i8 rows, scales and tails (views, to be written before the index changes) with the f32 rows
   * streamed to `files.rows`. `restoreState` on a fresh index gives back this index.
   */
  exportState(files: Pick<VectorIndexFiles, 'rows' | 'graph'>): VectorIndexState {
    if (this.awaiting) throw new EngramError('ADAPTER', 'exportState: the index is still checking its saved files');
    const state: VectorIndexState = { ids: this.matrix.ids.slice(0, this.matrix.size) };
    if (this.matrix.compact) {
      const fd = openSync(files.rows, 'w', 0o600);
      try {
        const rowsCrc = this.matrix.copyFullRowsTo(fd);
        fsyncSync(fd);
        state.compact = { ...this.matrix.compactParts(), rowsCrc };
      } finally {
        closeSync(fd);
      }
    } else {
      state.rows = this.matrix.allFullRows();
    }
    if (this.graph) state.graph = { ...this.graph.save(files.graph), pending: Float64Array.from(this.pending) };
    return state;
  }

  /**
   * Fills an empty index from `exportState` output. The f32 rows of a compact index are read in place from
   * `files.rows` (never copied; later writes go to a scratch file beside it), and the graph is viewed from
   * `files.graph` (with its delta from `files.delta`) instead of being rebuilt.
   *
   * With `verified` (a check of those files still running), searches meanwhile are exact over the i8 rows
   * and rank by them alone; the graph is attached and the f32 rows trusted once it resolves true. When it
   * resolves false the index stays that way (the caller drops it and rebuilds from the rows).
   */
  restoreState(state: VectorIndexState, files: VectorIndexFiles, verified?: Promise<boolean>): void {
    if (this.matrix.size > 0) throw new EngramError('ADAPTER', 'restoreState needs an empty index');
    if (state.compact) {
      const n = state.ids.length;
      const file = new RowFile(this.dimension, this.opts.rowDir ?? dirname(files.rows), { path: files.rows, rows: n });
      this.matrix.adoptCompact(state.ids, state.compact.rows, state.compact.scales, state.compact.tails, file);
    } else if (state.rows) {
      this.compactIfLarge(state.ids.length);
      this.matrix.adopt(state.ids, state.rows);
    } else {
      throw new EngramError('ADAPTER', 'vector state: no rows');
    }
    const saved: SavedGraph | null = state.graph
      ? {
          files: { base: files.graph, delta: files.delta, removed: state.graph.layered?.removed },
          counts: { live: state.graph.live, baseRemoved: state.graph.baseRemoved, deltaRemoved: state.graph.deltaRemoved },
          pending: state.graph.pending,
        }
      : null;
    if (!verified) {
      this.attachSaved(saved);
      return;
    }
    this.awaiting = { changed: new Set() };
    this.rowsTrusted = !state.compact;
    const token = this.awaiting;
    void verified.then(
      (ok) => {
        if (ok && this.awaiting === token) this.attachSaved(saved);
      },
      () => undefined,
    );
  }

  /** Attaches a restored graph (or starts one) once its files are trusted; replays writes made meanwhile. */
  private attachSaved(saved: SavedGraph | null): void {
    const changed = this.awaiting?.changed ?? new Set<number>();
    this.awaiting = null;
    this.rowsTrusted = true;
    if (this.graphError) return;
    if (!saved) {
      if (this.matrix.size >= this.opts.annThreshold) this.startGraph();
      return;
    }
    try {
      this.graph = HnswGraph.restore(this.usearch, this.dimension, this.opts.hnsw, saved.files, saved.counts);
    } catch {
      // Checked bytes that usearch will not open (graph parameters changed since the save): build a new graph.
      if (this.matrix.size >= this.opts.annThreshold) this.startGraph();
      return;
    }
    this.pending = new Set([...saved.pending].filter((id) => this.matrix.has(id)));
    for (const id of changed) {
      if (!this.pending.has(id)) this.graph.remove(id);
      if (this.matrix.has(id)) this.pending.add(id);
    }
    this.pendingCursor = null;
    if (this.pending.size > 0) this.afterPendingGrew();
  }

  /** Inserts every pending vector into the graph now (blocking). Tests and benchmarks use it. */
  flush(): void {
    while (this.graph && this.pending.size > 0) this.insertPending(4096);
  }

  search(query: Float32Array, k: number, opts: VectorSearchOptions = {}): VectorHit[] {
    this.matrix.checkVector(query, 'query');
    const want = resultCount(k, this.matrix.size);
    if (want === 0) return [];
    const compact = this.matrix.compact;
    const search = new SearchRun(this.matrix, query, compact ? rescoreWidth(want, this.matrix.size) : want);
    const { allowed, accept } = opts;
    const hits = !allowed && !accept ? this.unfiltered(search) : this.filtered(search, allowed, accept);
    if (!compact) return hits;
    if (!this.rowsTrusted) return hits.slice(0, want);
    const ids = hits.map((h) => h.id);
    const rows = this.matrix.fullRows(ids.map((id) => this.matrix.slot(id)!));
    return rescoreExact(ids, rows, query, want);
  }

  /** True once the f32 vectors are on disk and memory holds i8 rows. */
  get compact(): boolean {
    return this.matrix.compact;
  }

  /** Releases the f32 row file (the index must not be used afterwards). */
  close(): void {
    this.dropGraph();
    this.matrix.close();
  }

  // --- searching -------------------------------------------------------------------------------------

  private unfiltered(s: SearchRun): VectorHit[] {
    if (this.graph && this.graphReady()) {
      const top = new TopK(s.want);
      // Ask for a whole beam (that is what widens usearch's search), rescore only the head of it.
      const found = this.graph.search(s.query, Math.max(s.want * GRAPH_OVERSAMPLE, this.searchBeam()));
      s.pushAll(found.slice(0, Math.max(s.want * GRAPH_OVERSAMPLE, 32)), top);
      s.scorer.scanIds(this.pending, top);
      // A graph with many tombstones can return too few; never answer short.
      if (top.length === s.want) return top.sorted();
    }
    const top = new TopK(s.want);
    s.pushAll(this.exact.ids(s.query, s.want), top);
    return top.sorted();
  }

  private filtered(s: SearchRun, allowed: ReadonlySet<number> | undefined, accept: Accept | undefined): VectorHit[] {
    const plan = planFilteredSearch({
      size: this.matrix.size,
      want: s.want,
      ...(allowed ? { allowedSize: allowed.size } : {}),
      hasAccept: accept !== undefined,
      ...(this.graph && this.graphReady() ? { graphBeam: this.searchBeam() } : {}),
    });
    const admit: Accept | undefined = allowed ? (id) => allowed.has(id) : undefined;
    const top = new TopK(s.want);
    if (plan.kind === 'subset') {
      s.scorer.scanIds(allowed!, top, accept);
      return top.sorted();
    }
    if (plan.kind === 'graph') {
      s.pushAll(this.graph!.search(s.query, Math.max(plan.candidates, this.searchBeam())), top, admit, accept);
      s.scorer.scanIds(this.pending, top, both(admit, accept));
    } else {
      s.pushAll(this.exact.ids(s.query, plan.candidates), top, admit, accept);
    }
    if (top.length === s.want) return top.sorted();
    return this.exact.overEligible(s, this.exact.eligible(allowed, accept));
  }

  // --- graph maintenance -----------------------------------------------------------------------------

  /** Candidates asked of the graph; usearch searches with beam max(expansionSearch, k), so this sets the beam. */
  private searchBeam(): number {
    const base = this.opts.hnsw.expansionSearch;
    const size = this.graph?.size ?? 0;
    return Math.min(Math.max(base, MAX_BEAM), Math.round(base * Math.max(1, Math.sqrt(size / BEAM_GROWTH_FROM))));
  }

  private graphReady(): boolean {
    return this.graph !== null && this.pending.size <= this.pendingLimit;
  }

  /** From `annThreshold` on, the f32 rows move to disk (unless `fullPrecision: 'memory'`). */
  private compactIfLarge(size: number): void {
    if (this.matrix.compact || this.opts.fullPrecision !== 'disk' || size < this.opts.annThreshold) return;
    this.matrix.compactTo(new RowFile(this.dimension, this.opts.rowDir));
  }

  private startGraph(): void {
    this.compactIfLarge(this.matrix.size);
    this.dropGraph();
    this.graph = new HnswGraph(this.usearch, this.dimension, this.opts.hnsw);
    this.pending = new Set(this.matrix.idList());
    this.pendingCursor = null;
    this.afterPendingGrew();
  }

  private dropGraph(): void {
    this.cancelBuild?.();
    this.cancelBuild = null;
    this.graph = null;
    this.pending = new Set();
    this.pendingCursor = null;
  }

  private afterPendingGrew(): void {
    if (this.opts.indexing === 'inline') this.flush();
    else if (!this.cancelBuild) this.cancelBuild = runInSlices(this.builder);
  }

  private runSlice(): boolean {
    const deadline = performance.now() + this.opts.sliceMs;
    const batch = this.opts.hnsw.threads * 16;
    while (this.graph && this.pending.size > 0 && performance.now() < deadline) this.insertPending(batch);
    const more = this.graph !== null && this.pending.size > 0;
    if (!more) this.cancelBuild = null;
    return more;
  }

  /** Moves up to `max` pending vectors into the graph in one (multi-threaded) usearch call. */
  private insertPending(max: number): void {
    const graph = this.graph;
    if (!graph) return;
    const ids = this.takePending(max);
    const rows = this.matrix.fullRows(ids.map((id) => this.matrix.slot(id)!));
    try {
      graph.insert(ids, rows);
    } catch (e) {
      // Out of memory or a native failure: searches stay exact (and correct) without the graph.
      this.graphError = adapterError('HNSW insert failed; vector search stays exact', e);
      this.dropGraph();
    }
  }

  /**
   * Removes and returns up to `max` pending ids. Reads through one long-lived iterator: restarting a Set
   * iteration after deleting its head walks over the deleted entries again, quadratic over a large build.
   */
  private takePending(max: number): number[] {
    const ids: number[] = [];
    while (ids.length < max && this.pending.size > 0) {
      const next = this.pendingCursor?.next();
      if (!next || next.done) {
        this.pendingCursor = this.pending.values();
        continue;
      }
      ids.push(next.value);
      this.pending.delete(next.value);
    }
    return ids;
  }
}

export type { VectorIndexFiles, VectorIndexState } from './index-state.js';
