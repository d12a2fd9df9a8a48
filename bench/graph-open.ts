/**
 * `npx tsx bench/graph-open.ts --graph <file.hnsw> [--dim 512] [--mode view|load] [--queries 200]` — what opening
 * a saved HNSW graph costs with usearch `load` (read into memory) against `view` (memory-mapped), and what the
 * first and later searches then cost. Run once per mode, each in a fresh process (the graph file warm in the OS
 * page cache, as after a restart of the node). Queries are random unit vectors (the cost of a search, not its
 * recall, is measured here).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { resolveVectorIndexOptions } from '../src/adapters/vector/options.js';
import { loadUsearch } from '../src/adapters/vector/usearch-module.js';
import { rng } from './perf/synthetic.js';
import { percentile, round } from './stats.js';

const { values: opts } = parseArgs({
  options: {
    graph: { type: 'string' },
    dim: { type: 'string', default: '512' },
    mode: { type: 'string', default: 'view' },
    queries: { type: 'string', default: '200' },
  },
});

function rss(): { anonMb: number; fileMb: number } {
  const s = readFileSync('/proc/self/status', 'utf8');
  const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(s)?.[1] ?? NaN);
  return { anonMb: round(kb('RssAnon') / 1024), fileMb: round(kb('RssFile') / 1024) };
}

const usearch = loadUsearch();
if (!usearch || !opts.graph) throw new Error('usage: --graph <file> (and the usearch module)');
const dim = Number(opts.dim);
const params = resolveVectorIndexOptions({}).hnsw;
const before = rss();
const t0 = performance.now();
const g = new usearch.Index({
  dimensions: dim,
  metric: 'ip',
  quantization: params.quantization,
  connectivity: params.connectivity,
  expansion_add: params.expansionAdd,
  expansion_search: params.expansionSearch,
  multi: false,
});
if (opts.mode === 'view') g.view(opts.graph);
else g.load(opts.graph);
const size = g.size();
const search = (q: Float32Array, k: number) => g.search(q, k, 1);
const openMs = performance.now() - t0;
const opened = rss();
const r = rng(99);
const lat: number[] = [];
const beam = Math.round(params.expansionSearch * Math.max(1, Math.sqrt(size / 100_000)));
for (let i = 0; i < Number(opts.queries); i++) {
  const q = new Float32Array(dim);
  let n = 0;
  for (let j = 0; j < dim; j++) n += (q[j] = r() - 0.5) ** 2;
  for (let j = 0; j < dim; j++) q[j]! /= Math.sqrt(n);
  const t = performance.now();
  search(q, beam);
  lat.push(performance.now() - t);
}
const after = rss();
console.log(
  JSON.stringify({
    mode: opts.mode,
    size,
    openMs: round(openMs),
    firstSearchMs: round(lat[0]!),
    p50: round(percentile(lat.slice(1), 50)),
    p95: round(percentile(lat.slice(1), 95)),
    rssMb: { before, opened, afterSearches: after },
  }),
);
