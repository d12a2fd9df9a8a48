/**
 * `npm run bench:perf`: synthetic memories at several sizes: ingest, backlog drain, search/getContext
 * percentiles, RSS, DB size, exact vs ANN recall; Mem0 side by side (storage alone, then with the model in the call).
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command } from 'commander';
import { parseList, print, run } from '../cli.js';
import { perfChart, renderPerf } from './report.js';
import { runPerfBench } from './run.js';

interface Options {
  sizes: string;
  queries: string;
  pool: string;
  mem0Size: string;
  modelSize: string;
  mem0: boolean;
  ann: boolean;
  chart?: string;
  cacheDir: string;
  json: boolean;
}

const program = new Command()
  .name('bench:perf')
  .description('synthetic memories at several sizes: ingest, backlog drain, search/getContext percentiles, RSS, DB size, exact vs ANN; Mem0 side by side')
  .option('--sizes <list>', 'store sizes, comma-separated (1000000 is possible but takes long)', '10000,100000')
  .option('--queries <n>', 'queries per size', '200')
  .option('--pool <n>', 'texts embedded by the model; the rest are family vectors plus noise', '3000')
  .option('--mem0-size <n>', 'memories in the Mem0 side-by-side', '20000')
  .option('--model-size <n>', 'Mem0 side-by-side: adds one at a time with the real model on both sides (0 skips)', '500')
  .option('--no-mem0', 'skip the Mem0 side-by-side')
  .option('--no-ann', 'skip exact vs ANN recall')
  .option('--chart <file>', 'write an SVG chart of latency vs N')
  .option('--cache-dir <dir>', 'where embeddings are cached between runs', '.engram-cache/perf')
  .option('--json', 'print the report as JSON', false);

run(async () => {
  const o = program.parse(process.argv).opts<Options>();
  const report = await runPerfBench({
    sizes: parseList('sizes', o.sizes),
    queries: parseList('queries', o.queries)[0]!,
    pool: parseList('pool', o.pool)[0]!,
    mem0Size: parseList('mem0-size', o.mem0Size)[0]!,
    modelSize: o.modelSize === '0' ? 0 : parseList('model-size', o.modelSize)[0]!,
    mem0: o.mem0,
    ann: o.ann,
    cacheDir: resolve(o.cacheDir),
    log: (s) => process.stderr.write(`${s}\n`),
  });
  if (o.chart) writeFileSync(o.chart, perfChart(report));
  print(o.json, report, () => renderPerf(report));
});
