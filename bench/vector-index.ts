/**
 * Vector index benchmark: build time, search latency (plain, 1%-allowed, with an always-true accept callback
 * as the SQLite adapter passes), recall@10 of HNSW against the exact answer, and memory, for the flat scan,
 * usearch's SIMD exact scan and usearch HNSW, on clustered 512-d unit vectors (see synthetic.test-support.ts).
 *
 *   npx tsx --expose-gc bench/vector-index.ts [--sizes 10000,100000] [--runs 3] [--queries 200] [--json]
 *     [--quantization f16|i8|bf16|f32] [--full-precision disk|memory]
 *
 * Every figure is the median over `--runs` fresh builds. Flat searches at large sizes use fewer queries
 * (`queries × 100k / n`, at least 20) so the run stays in minutes.
 */
import { availableParallelism, cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { FlatVectorIndex } from '../src/adapters/vector/flat.js';
import { activeVectorBackend, describeVectorIndex } from '../src/adapters/vector/index.js';
import { resolveVectorIndexOptions } from '../src/adapters/vector/options.js';
import { ClusteredVectors, recall, seededRandom } from '../src/adapters/vector/synthetic.test-support.js';
import { UsearchVectorIndex } from '../src/adapters/vector/usearch-index.js';
import { loadUsearch } from '../src/adapters/vector/usearch-module.js';
import type { VectorHit, VectorIndex, VectorSearchOptions } from '../src/ports/vector-index.js';

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000' },
    runs: { type: 'string', default: '3' },
    queries: { type: 'string', default: '200' },
    dim: { type: 'string', default: '512' },
    k: { type: 'string', default: '10' },
    impls: { type: 'string', default: 'flat,usearch-exact,usearch-hnsw' },
    /** The HNSW graph's vector copy: f16 (default), i8, bf16 or f32; results are rescored in f32 either way. */
    quantization: { type: 'string', default: 'f16' },
    /** Where the f32 vectors live from the threshold on: 'disk' (default; i8 rows in memory) or 'memory'. */
    'full-precision': { type: 'string', default: 'disk' },
    'hnsw-runs': { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});

const sizes = args.sizes.split(',').map(Number);
const runs = Number(args.runs);
const hnswRuns = Number(args['hnsw-runs'] ?? args.runs);
const queryCount = Number(args.queries);
const dim = Number(args.dim);
const k = Number(args.k);
const impls = args.impls.split(',') as Impl[];
const log = (msg: string) => process.stderr.write(`${msg}\n`);

type Impl = 'flat' | 'usearch-exact' | 'usearch-hnsw';

interface Latency {
  p50: number;
  p95: number;
  /** Median CPU time of this process per search: what the search costs without other load on the machine. */
  cpuP50: number;
}

interface RunResult {
  addMs: number;
  graphMs: number;
  plain: Latency;
  allowed1pct: Latency;
  accept: Latency;
  insertAfterBuildMs?: number;
  rssMb: number;
  hits: VectorHit[][];
}

interface Row {
  size: number;
  impl: Impl;
  runs: number;
  queries: number;
  buildS: number;
  graphBuildS: number;
  plain: Latency;
  allowed1pct: Latency;
  accept: Latency;
  recallAt10: number | null;
  insertAfterBuildMs: number | null;
  rssMb: number;
  mode: string;
}

const gc = (globalThis as { gc?: () => void }).gc;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
const rssMb = () => process.memoryUsage().rss / 2 ** 20;

function makeIndex(impl: Impl): VectorIndex {
  if (impl === 'flat') return new FlatVectorIndex(dim);
  const usearch = loadUsearch();
  if (!usearch) throw new Error('usearch is not available');
  const annThreshold = impl === 'usearch-exact' ? Number.MAX_SAFE_INTEGER : 20_000;
  return new UsearchVectorIndex(dim, usearch, resolveVectorIndexOptions({
      annThreshold,
      fullPrecision: args['full-precision'] as 'disk',
      hnsw: { quantization: args.quantization as 'f16' },
    }));
}

function time(index: VectorIndex, queries: Float32Array[], opts?: VectorSearchOptions): { lat: Latency; hits: VectorHit[][] } {
  for (const q of queries.slice(0, 5)) index.search(q, k, opts); // warm the JIT
  const ms: number[] = [];
  const cpu: number[] = [];
  const hits: VectorHit[][] = [];
  for (const q of queries) {
    const c = process.cpuUsage();
    const t = performance.now();
    hits.push(index.search(q, k, opts));
    ms.push(performance.now() - t);
    const used = process.cpuUsage(c);
    cpu.push((used.user + used.system) / 1000);
  }
  ms.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  return { lat: { p50: pct(ms, 0.5), p95: pct(ms, 0.95), cpuP50: pct(cpu, 0.5) }, hits };
}

/** Collects garbage and gives the sweeper a moment to hand freed buffers back, so RSS deltas are the index's. */
async function settle(): Promise<void> {
  gc?.();
  await new Promise((r) => setTimeout(r, 200));
  gc?.();
}

async function runOnce(
  impl: Impl,
  data: Float32Array,
  n: number,
  queries: Float32Array[],
  allowed: Set<number>,
  extra: Float32Array,
): Promise<RunResult> {
  await settle();
  const rss0 = rssMb();
  let t = performance.now();
  const index = makeIndex(impl);
  for (let i = 0; i < n; i++) index.add(i, data.subarray(i * dim, (i + 1) * dim));
  const addMs = performance.now() - t;
  t = performance.now();
  if (index instanceof UsearchVectorIndex) index.flush();
  const graphMs = performance.now() - t;
  const rssBuilt = rssMb() - rss0;
  const plain = time(index, queries);
  const allowed1pct = time(index, queries, { allowed }).lat;
  const accept = time(index, queries, { accept: (id) => id >= 0 }).lat;
  let insertAfterBuildMs: number | undefined;
  if (impl === 'usearch-hnsw' && index.approximate) {
    const m = extra.length / dim;
    t = performance.now();
    for (let i = 0; i < m; i++) {
      index.add(n + i, extra.subarray(i * dim, (i + 1) * dim));
      (index as UsearchVectorIndex).flush();
    }
    insertAfterBuildMs = (performance.now() - t) / m;
  }
  const result: RunResult = { addMs, graphMs, plain: plain.lat, allowed1pct, accept, rssMb: rssBuilt, hits: plain.hits };
  if (insertAfterBuildMs !== undefined) result.insertAfterBuildMs = insertAfterBuildMs;
  modes.set(impl, describeVectorIndex(index).mode);
  index.clear();
  return result;
}

const modes = new Map<Impl, string>();

function summarize(size: number, impl: Impl, results: RunResult[], truth: VectorHit[][] | undefined, queries: number): Row {
  const lat = (pick: (r: RunResult) => Latency): Latency => ({
    p50: median(results.map((r) => pick(r).p50)),
    p95: median(results.map((r) => pick(r).p95)),
    cpuP50: median(results.map((r) => pick(r).cpuP50)),
  });
  const recalls = truth
    ? results.map((r) => r.hits.reduce((s, h, i) => s + recall(h, truth[i]!), 0) / r.hits.length)
    : [];
  const inserts = results.flatMap((r) => (r.insertAfterBuildMs === undefined ? [] : [r.insertAfterBuildMs]));
  return {
    size,
    impl,
    runs: results.length,
    queries,
    buildS: median(results.map((r) => r.addMs)) / 1000,
    graphBuildS: median(results.map((r) => r.graphMs)) / 1000,
    plain: lat((r) => r.plain),
    allowed1pct: lat((r) => r.allowed1pct),
    accept: lat((r) => r.accept),
    recallAt10: recalls.length ? median(recalls) : null,
    insertAfterBuildMs: inserts.length ? median(inserts) : null,
    rssMb: median(results.map((r) => r.rssMb)),
    mode: modes.get(impl) ?? '',
  };
}

async function benchSize(n: number): Promise<Row[]> {
  log(`generating ${n} × ${dim} clustered vectors…`);
  const gen = new ClusteredVectors(dim, n, { seed: 42 });
  const data = gen.batch(n);
  const queries = Array.from({ length: queryCount }, () => gen.next());
  const extra = gen.batch(200);
  const rand = seededRandom(7);
  const allowed = new Set<number>();
  for (let i = 0; i < n; i++) if (rand() < 0.01) allowed.add(i);
  const rows: Row[] = [];
  let truth: VectorHit[][] | undefined;
  for (const impl of impls) {
    const q = impl === 'flat' ? queries.slice(0, Math.max(20, Math.min(queryCount, Math.floor((queryCount * 100_000) / n)))) : queries;
    const r = impl === 'usearch-hnsw' ? hnswRuns : runs;
    const results: RunResult[] = [];
    for (let i = 0; i < r; i++) {
      log(`  ${impl} n=${n} run ${i + 1}/${r}`);
      results.push(await runOnce(impl, data, n, q, allowed, extra));
    }
    if (impl !== 'usearch-hnsw' && (!truth || q.length > truth.length)) truth = results[0]!.hits;
    rows.push(summarize(n, impl, results, impl === 'usearch-hnsw' ? truth : undefined, q.length));
  }
  return rows;
}

function printTable(rows: Row[]): void {
  const f = (x: number, d = 2) => x.toFixed(d);
  const header = ['n', 'impl', 'mode', 'add s', 'graph s', 'p50', 'p95', 'cpu p50', '1% p50', '1% p95', 'accept p50', 'accept p95', 'recall@10', 'insert ms', 'RSS MB'];
  const lines = rows.map((r) => [
    String(r.size),
    r.impl,
    r.mode,
    f(r.buildS),
    f(r.graphBuildS, 1),
    f(r.plain.p50),
    f(r.plain.p95),
    f(r.plain.cpuP50),
    f(r.allowed1pct.p50),
    f(r.allowed1pct.p95),
    f(r.accept.p50),
    f(r.accept.p95),
    r.recallAt10 === null ? '–' : f(r.recallAt10, 3),
    r.insertAfterBuildMs === null ? '–' : f(r.insertAfterBuildMs, 2),
    f(r.rssMb, 0),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (cells: string[]) => `| ${cells.map((c, i) => c.padStart(widths[i]!)).join(' | ')} |`;
  console.log(fmt(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const l of lines) console.log(fmt(l));
  console.log(`\nsearch latencies in ms (k=${k}, ${dim}-d, wall clock; "cpu p50" = this process's CPU time per search);`);
  console.log('"1%" = allowed set of 1% of ids; "accept" = an always-true accept callback; "insert ms" = add + graph insert');
  console.log('of one vector after the build; RSS MB = growth while building; every figure is the median of the runs');
}

const machine = {
  cpu: cpus()[0]?.model ?? 'unknown',
  cores: availableParallelism(),
  node: process.version,
  backend: activeVectorBackend(),
  loadAvgAtStart: loadavg().map((x) => Number(x.toFixed(2))),
};
log(`machine: ${JSON.stringify(machine)}${gc ? '' : ' (run with --expose-gc for steadier RSS figures)'}`);
const rows: Row[] = [];
for (const n of sizes) rows.push(...(await benchSize(n)));
const peakRssMb = process.resourceUsage().maxRSS / 1024;
if (args.json) console.log(JSON.stringify({ machine, dim, k, runs, peakRssMb, rows }, null, 2));
else {
  printTable(rows);
  console.log(`machine: ${machine.cpu}, ${machine.cores} cores, node ${machine.node}, peak RSS ${peakRssMb.toFixed(0)} MB`);
}
