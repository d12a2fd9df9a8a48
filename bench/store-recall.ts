/**
 * `npx tsx bench/store-recall.ts --db <bench.db from bench/cold-open.ts> [--dim 512] [--queries 100]
 *  [--expansion 192,320]` — recall@10 of a SQLite store's vector search (opened from its saved index files,
 * after their check) against the exact f32 answer over every vector of the tenant, for each HNSW search
 * expansion given (a fresh storage per value; the graph file is the same). Query vectors are cold-open's.
 * Reported twice: by doc id, and by score (a hit counts when it scores at least the exact 10th best: docs that
 * share a vector, as bench stores have many, tie, and the exact answer picks among them arbitrarily).
 * A store below the ANN threshold has no graph (vector search is usearch's exact scan, so there is no side file to
 * check): it is measured once, in a line marked `search: 'exact'`, whatever the expansions given. A store whose
 * index files cannot be used is loaded from its rows and its graph completed (`warm`) before measuring.
 */
import { parseArgs } from 'node:util';
import { openSqliteStorage } from '../src/adapters/storage/sqlite/index.js';
import { unit } from '../src/adapters/storage/sql/vector-codec.js';
import { loadUsearch } from '../src/adapters/vector/usearch-module.js';
import { resolveVectorIndexOptions } from '../src/adapters/vector/options.js';
import type { IndexEvent } from '../src/adapters/storage/sql/index-file.js';
import { percentile, round } from './stats.js';
import { clusteredVector, readStoreRows } from './store-rows.js';

const { values: opts } = parseArgs({
  options: {
    db: { type: 'string' },
    dim: { type: 'string', default: '512' },
    queries: { type: 'string', default: '100' },
    expansion: { type: 'string', default: '192' },
  },
});
const DIM = Number(opts.dim);
const TENANT = 'bench';
const MODEL = 'bench-synthetic';

const vectorFor = (i: number): Float32Array => clusteredVector(i, DIM);

const usearch = loadUsearch();
if (!usearch || !opts.db) throw new Error('usage: --db <file> (and the usearch module)');
const n = Number(opts.queries);
const queries = Array.from({ length: n }, (_, i) => unit(vectorFor(10_000_000 + i)));
const { ids, data } = readStoreRows(opts.db, TENANT, MODEL, DIM);
const exact = queries.map((q) => usearch.exactSearch(data, q, DIM, 10, 'ip', 2));
const exactIds = exact.map((m) => new Set(Array.from(m.keys, (k) => ids[Number(k)]!)));
/** The exact 10th best score per query (ip distance is 1 − dot). */
const tenth = exact.map((m) => 1 - m.distances[m.distances.length - 1]!);
console.log(`exact answers for ${n} queries over ${ids.length} vectors`);

for (const expansion of opts.expansion.split(',').map(Number)) {
  const events: IndexEvent[] = [];
  const vectorIndex = { hnsw: { expansionSearch: expansion } };
  const { annThreshold } = resolveVectorIndexOptions(vectorIndex);
  const exactScan = ids.length < annThreshold;
  const s = await openSqliteStorage({ path: opts.db, readonly: true, vectorIndex, onIndexEvent: (e) => events.push(e) });
  await s.init({ embeddingModel: MODEL, dimension: DIM });
  await s.vectorSearch({ tenant: TENANT, vector: queries[0]!, k: 10, now: Date.now() });
  if (!exactScan) {
    // Loaded from its files: wait for their background check. Loaded from the rows (no usable file): no check
    // comes; complete the graph the load started building instead.
    const fromRows = () => events.some((e) => e.kind === 'loaded' && e.from === 'rows');
    while (!events.some((e) => e.kind === 'checked' || e.kind === 'check-failed') && !fromRows()) await new Promise((r) => setTimeout(r, 50));
    if (fromRows()) await s.warm(TENANT);
  }
  let sum = 0;
  let tied = 0;
  const lat: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const got = await s.vectorSearch({ tenant: TENANT, vector: queries[i]!, k: 10, now: Date.now() });
    lat.push(performance.now() - t);
    sum += got.filter((h) => exactIds[i]!.has(h.docId)).length / 10;
    // Docs that share a vector tie; any of them is a right answer: count hits scoring at least the 10th exact score.
    tied += got.filter((h) => h.score >= tenth[i]! - 1e-5).length / 10;
  }
  const search = exactScan ? { search: 'exact', vectors: ids.length, annThreshold } : { search: 'hnsw', expansion };
  console.log(JSON.stringify({ ...search, recallAt10: round(sum / n, 3), recallAt10ByScore: round(tied / n, 3), vectorP50: round(percentile(lat, 50)), vectorP95: round(percentile(lat, 95)), loads: events.map((e) => e.kind) }));
  await s.close();
  if (exactScan) break;
}
