import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { VectorIndex } from '../../ports/vector-index.js';
import { resolveVectorIndexOptions, type VectorIndexOptions } from './options.js';
import { bruteForce, ClusteredVectors, recall, seededRandom } from './synthetic.test-support.js';
import { UsearchVectorIndex } from './usearch-index.js';
import { loadUsearch } from './usearch-module.js';
import { vectorIndexContract } from './vector-index-contract.test-support.js';

const usearch = loadUsearch();

function make(dim: number, opts: VectorIndexOptions = {}): UsearchVectorIndex {
  return new UsearchVectorIndex(dim, usearch!, resolveVectorIndexOptions(opts));
}

const flush = (index: VectorIndex) => (index as UsearchVectorIndex).flush();

/** Lets background slices run until the graph has caught up (bounded by the test timeout, not by a clock). */
async function untilBuilt(index: UsearchVectorIndex): Promise<number> {
  let turns = 0;
  while (index.stats().pending > 0) {
    await new Promise((r) => setImmediate(r));
    turns++;
  }
  return turns;
}

describe.runIf(usearch)('UsearchVectorIndex', () => {
  vectorIndexContract('usearch, SIMD exact scan', {
    make: (dim) => make(dim, { annThreshold: 1_000_000 }),
    exact: true,
    bulkSize: 2500,
  });

  vectorIndexContract('usearch, HNSW built inline', {
    make: (dim) => make(dim, { annThreshold: 600, indexing: 'inline' }),
    exact: false,
    bulkSize: 2500,
  });

  vectorIndexContract('usearch, HNSW built in the background', {
    make: (dim) => make(dim, { annThreshold: 600, hnsw: { quantization: 'f32', connectivity: 8 } }),
    exact: false,
    bulkSize: 2500,
    settle: flush,
  });

  it('reaches recall@10 ≥ 0.9 on 20k clustered vectors, and says it is approximate', () => {
    const dim = 96;
    const gen = new ClusteredVectors(dim, 20_000, { seed: 21 });
    const index = make(dim, { annThreshold: 5_000 });
    const vectors = new Map<number, Float32Array>();
    for (let i = 0; i < 20_000; i++) {
      const v = gen.next();
      vectors.set(i, v);
      index.add(i, v);
    }
    index.flush();
    expect(index.stats()).toMatchObject({ mode: 'hnsw', pending: 0, size: 20_000 });
    expect(index.approximate).toBe(true);
    let total = 0;
    const queries = 60;
    for (let q = 0; q < queries; q++) {
      const query = gen.next();
      const hits = index.search(query, 10);
      expect(hits).toHaveLength(10);
      total += recall(hits, bruteForce(vectors, query, 10));
    }
    expect(total / queries).toBeGreaterThanOrEqual(0.9);
  });

  it('answers exactly while the graph builds in the background, then switches to it', async () => {
    // Enough rows at this dimension that scanning the not-yet-inserted ones is more than a search may cost.
    const dim = 256;
    const gen = new ClusteredVectors(dim, 6000, { seed: 3 });
    const index = make(dim, { annThreshold: 1000, sliceMs: 1 });
    const vectors = new Map<number, Float32Array>();
    for (let i = 0; i < 6000; i++) {
      const v = gen.next();
      vectors.set(i, v);
      index.add(i, v);
    }
    expect(index.stats().mode).toBe('hnsw-building');
    expect(index.approximate).toBe(false);
    const query = gen.next();
    const exact = bruteForce(vectors, query, 10);
    expect(index.search(query, 10).map((h) => h.id)).toEqual(exact.map((h) => h.id));
    const turns = await untilBuilt(index);
    expect(turns).toBeGreaterThan(1);
    expect(index.stats()).toMatchObject({ mode: 'hnsw', pending: 0 });
    expect(index.approximate).toBe(true);
    expect(recall(index.search(query, 10), exact)).toBeGreaterThanOrEqual(0.8);
  });

  it('scans vectors added after the build until they reach the graph', () => {
    const dim = 32;
    const gen = new ClusteredVectors(dim, 3000, { seed: 4 });
    const index = make(dim, { annThreshold: 1000 });
    for (let i = 0; i < 3000; i++) index.add(i, gen.next());
    index.flush();
    const fresh = gen.next();
    index.add(99_999, fresh);
    expect(index.stats()).toMatchObject({ mode: 'hnsw', pending: 1 });
    expect(index.search(fresh, 1)[0]!.id).toBe(99_999);
    expect(index.search(fresh, 5, { accept: (id) => id === 99_999 }).map((h) => h.id)).toEqual([99_999]);
  });

  it('drops the graph when the index shrinks well below the threshold, and rebuilds after many removals', () => {
    const dim = 32;
    const gen = new ClusteredVectors(dim, 4000, { seed: 8 });
    const index = make(dim, { annThreshold: 1000, indexing: 'inline' });
    const vectors = new Map<number, Float32Array>();
    for (let i = 0; i < 4000; i++) {
      const v = gen.next();
      vectors.set(i, v);
      index.add(i, v);
    }
    for (let i = 0; i < 2600; i++) {
      index.remove(i);
      vectors.delete(i);
    }
    // 2600 removals left more than half the graph as tombstones: it was rebuilt from the live rows.
    expect(index.stats()).toMatchObject({ mode: 'hnsw', size: 1400 });
    expect(index.stats().tombstones).toBeLessThan(1024);
    const query = gen.next();
    expect(recall(index.search(query, 10), bruteForce(vectors, query, 10))).toBeGreaterThanOrEqual(0.8);
    for (let i = 2600; i < 3700; i++) index.remove(i);
    expect(index.stats()).toMatchObject({ mode: 'exact', size: 300, pending: 0 });
    expect(index.approximate).toBe(false);
  });

  it('answers a 1%-allowed search exactly even in HNSW mode', () => {
    const dim = 64;
    const gen = new ClusteredVectors(dim, 6000, { seed: 12 });
    const index = make(dim, { annThreshold: 1000, indexing: 'inline' });
    const vectors = new Map<number, Float32Array>();
    for (let i = 0; i < 6000; i++) {
      const v = gen.next();
      vectors.set(i, v);
      index.add(i, v);
    }
    const rand = seededRandom(5);
    const allowed = new Set([...vectors.keys()].filter(() => rand() < 0.01));
    for (let q = 0; q < 10; q++) {
      const query = gen.next();
      const want = bruteForce(vectors, query, 10, (id) => allowed.has(id));
      expect(index.search(query, 10, { allowed }).map((h) => h.id)).toEqual(want.map((h) => h.id));
    }
  });
});

describe.runIf(usearch)('UsearchVectorIndex: saved state', () => {
  it('restores vectors and the HNSW graph (tombstones and pending ids included) without rebuilding it', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'engram-hnsw-'));
    try {
      const dim = 32;
      const data = new ClusteredVectors(dim, 3000, { seed: 3 });
      const a = make(dim, { annThreshold: 500, indexing: 'inline' });
      const all = new Map<number, Float32Array>();
      for (let i = 0; i < 3000; i++) {
        const v = data.next();
        all.set(i, v);
        a.add(i, v);
      }
      for (let i = 0; i < 3000; i += 7) {
        a.remove(i);
        all.delete(i);
      }
      expect(a.stats()).toMatchObject({ mode: 'hnsw', pending: 0 });
      const files = { graph: join(dir, 'graph'), rows: join(dir, 'rows') };
      const state = a.exportState(files);
      expect(state.graph).toBeDefined();
      const b = make(dim, { annThreshold: 500, indexing: 'inline' });
      b.restoreState(state, files);
      expect(b.stats()).toEqual(a.stats());
      const rand = seededRandom(5);
      for (let q = 0; q < 20; q++) {
        const query = all.get(Math.floor(rand() * 2999) + 1) ?? data.next();
        expect(b.search(query, 10)).toEqual(a.search(query, 10));
        expect(recall(b.search(query, 10), bruteForce(all, query, 10))).toBeGreaterThanOrEqual(0.9);
      }
      // Writes after a restore go to the restored graph.
      b.add(99_999, all.get(1)!);
      expect(b.search(all.get(1)!, 2).map((h) => h.id).sort()).toEqual([1, 99_999]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.runIf(usearch)('UsearchVectorIndex: i8 graph', () => {
  it('an i8 graph (cosine kernels) with f32 rescoring keeps recall@10 near exact', () => {
    const dim = 64;
    const data = new ClusteredVectors(dim, 4000, { seed: 11 });
    const index = make(dim, { annThreshold: 500, indexing: 'inline', hnsw: { quantization: 'i8' } });
    const all = new Map<number, Float32Array>();
    for (let i = 0; i < 4000; i++) {
      const v = data.next();
      all.set(i, v);
      index.add(i, v);
    }
    expect(index.stats().mode).toBe('hnsw');
    let sum = 0;
    for (let q = 0; q < 30; q++) {
      const query = data.next();
      const hits = index.search(query, 10);
      expect(hits.every((h, i) => i === 0 || h.score <= hits[i - 1]!.score)).toBe(true);
      sum += recall(hits, bruteForce(all, query, 10));
    }
    expect(sum / 30).toBeGreaterThanOrEqual(0.9);
  });
});

describe.runIf(usearch)('UsearchVectorIndex: f32 on disk', () => {
  const dim = 64;
  const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, j) => s + x * b[j]!, 0);

  function filled(opts: VectorIndexOptions, n = 3000) {
    const gen = new ClusteredVectors(dim, n, { seed: 17 });
    const index = make(dim, { annThreshold: 1000, indexing: 'inline', ...opts });
    const all = new Map<number, Float32Array>();
    for (let i = 0; i < n; i++) {
      const v = gen.next();
      all.set(i, v);
      index.add(i, v);
    }
    return { index, all, gen };
  }

  it('keeps i8 rows in memory from the threshold on, f32 only with fullPrecision memory', () => {
    expect(filled({}, 999).index.compact).toBe(false);
    expect(filled({}).index.compact).toBe(true);
    expect(filled({ fullPrecision: 'memory' }).index.compact).toBe(false);
  });

  it('orders near-duplicates that i8 cannot tell apart by their exact f32 scores, and returns f32 scores', () => {
    const { index, all, gen } = filled({});
    const base = gen.next();
    const rand = seededRandom(9);
    // Ten vectors within 1e-3 of each other: their i8 rows (step ≈ max/127) are nearly identical.
    for (let i = 0; i < 10; i++) {
      const v = base.map((x) => x + (rand() - 0.5) * 2e-3);
      const n = Math.sqrt(dot(v, v));
      const u = v.map((x) => x / n);
      all.set(50_000 + i, u);
      index.add(50_000 + i, u);
    }
    const want = bruteForce(all, base, 10);
    for (const opts of [{}, { allowed: new Set(all.keys()) }, { accept: () => true }]) {
      const hits = index.search(base, 10, opts);
      expect(hits.map((h) => h.id)).toEqual(want.map((h) => h.id));
      hits.forEach((h) => expect(h.score).toBeCloseTo(dot(all.get(h.id)!, base), 6));
    }
  });

  it('reads the right f32 rows after removals and replacements move rows in the file', () => {
    const { index, all, gen } = filled({});
    for (let i = 0; i < 3000; i += 3) {
      index.remove(i);
      all.delete(i);
    }
    for (let i = 1; i < 300; i += 3) {
      const v = gen.next();
      all.set(i, v);
      index.add(i, v);
    }
    index.flush();
    for (let q = 0; q < 10; q++) {
      const query = gen.next();
      const exact = bruteForce(all, query, 10);
      const hits = index.search(query, 10, { allowed: new Set([...all.keys()].filter((id) => id % 2 === 0)) });
      hits.forEach((h) => expect(h.score).toBeCloseTo(dot(all.get(h.id)!, query), 6));
      expect(recall(index.search(query, 10), exact)).toBeGreaterThanOrEqual(0.9);
    }
    const rowsPath = join(tmpdir(), `engram-f32-test-${process.pid}`);
    const state = index.exportState({ graph: `${rowsPath}.graph`, rows: rowsPath });
    const rows = new Float32Array(Uint8Array.from(readFileSync(rowsPath)).buffer);
    rmSync(rowsPath, { force: true });
    rmSync(`${rowsPath}.graph`, { force: true });
    expect(rows.length).toBe(state.ids.length * dim);
    for (const [slot, id] of state.ids.entries()) {
      expect(Array.from(rows.subarray(slot * dim, (slot + 1) * dim))).toEqual(Array.from(all.get(id)!));
    }
    index.close();
  });
});

describe.runIf(usearch)('UsearchVectorIndex: a viewed graph with a delta', () => {
  const dim = 32;

  /** An index of 3000 vectors saved with its graph, and a second one restored from those files (viewed). */
  function savedAndRestored(dir: string) {
    const data = new ClusteredVectors(dim, 6000, { seed: 21 });
    const opts = { annThreshold: 500, indexing: 'inline' } as const;
    const a = make(dim, opts);
    const all = new Map<number, Float32Array>();
    for (let i = 0; i < 3000; i++) {
      const v = data.next();
      all.set(i, v);
      a.add(i, v);
    }
    const files = { graph: join(dir, 'graph'), rows: join(dir, 'rows') };
    const state = a.exportState(files);
    const b = make(dim, opts);
    b.restoreState(state, files);
    return { a, b, all, data, files, opts };
  }

  it('writes after the restore go to the delta and removed-id set; searches merge both graphs', () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-view-'));
    try {
      const { a, b, all, data, files } = savedAndRestored(dir);
      const graphBytes = readFileSync(files.graph);
      // New vectors, replaced ones and removed ones, applied to both the mutable original and the viewed copy.
      const apply = (fn: (ix: UsearchVectorIndex) => void) => {
        fn(a);
        fn(b);
      };
      for (let i = 3000; i < 4500; i++) {
        const v = data.next();
        all.set(i, v);
        apply((ix) => ix.add(i, v));
      }
      for (let i = 0; i < 3000; i += 5) {
        all.delete(i);
        apply((ix) => ix.remove(i));
      }
      for (let i = 1; i < 600; i += 5) {
        const v = data.next();
        all.set(i, v);
        apply((ix) => ix.add(i, v));
      }
      expect(readFileSync(files.graph).equals(graphBytes)).toBe(true); // the viewed base is never written
      expect(b.stats()).toMatchObject({ mode: 'hnsw', size: all.size, pending: 0 });
      const rand = seededRandom(4);
      let recallSum = 0;
      for (let q = 0; q < 40; q++) {
        const query = q % 2 ? data.next() : all.get([...all.keys()][Math.floor(rand() * all.size)]!)!;
        const hits = b.search(query, 10);
        expect(hits.every((h) => all.has(h.id))).toBe(true); // no removed id comes back from the base
        recallSum += recall(hits, bruteForce(all, query, 10));
      }
      expect(recallSum / 40).toBeGreaterThanOrEqual(0.9);
      // A vector added after the restore (delta) and a replaced one are found as their own nearest.
      expect(b.search(all.get(4000)!, 1)[0]!.id).toBe(4000);
      expect(b.search(all.get(6)!, 1)[0]!.id).toBe(6);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('saves as base + delta + removed ids, and restores to the same answers', () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-view-'));
    try {
      const { b, all, data, files, opts } = savedAndRestored(dir);
      for (let i = 3000; i < 3300; i++) {
        const v = data.next();
        all.set(i, v);
        b.add(i, v);
      }
      for (let i = 0; i < 300; i += 3) {
        all.delete(i);
        b.remove(i);
      }
      const delta = { graph: join(dir, 'delta'), rows: join(dir, 'rows2') };
      const state = b.exportState(delta);
      expect(state.graph?.layered).toMatchObject({ base: files.graph, delta: delta.graph });
      expect(state.graph?.layered?.removed.length).toBe(100);
      const c = make(dim, opts);
      c.restoreState(state, { graph: files.graph, delta: delta.graph, rows: delta.rows });
      expect(c.stats()).toEqual(b.stats());
      for (let q = 0; q < 20; q++) {
        const query = data.next();
        expect(c.search(query, 10)).toEqual(b.search(query, 10));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a saved graph of other parameters is viewed as saved (usearch reads its own header)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-view-'));
    try {
      const { a, files } = savedAndRestored(dir);
      const state = a.exportState(files);
      const other = make(dim, { annThreshold: 500, indexing: 'inline', hnsw: { quantization: 'i8', connectivity: 8 } });
      other.restoreState(state, files);
      expect(other.stats()).toMatchObject({ mode: 'hnsw', size: 3000, pending: 0 });
      expect(other.stats().graphError).toBeUndefined();
      const q = new Float32Array(dim).fill(1 / Math.sqrt(dim));
      expect(recall(other.search(q, 10), a.search(q, 10))).toBeGreaterThanOrEqual(0.9);
      // (A file that is not a usearch graph must never reach `view`: usearch crashes the process on one, which
      // is why side files are checked before the graph is attached.)
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
