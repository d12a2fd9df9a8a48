/**
 * `engram bench locomo` and `engram bench perf`, added under the `bench` command that bench.ts registers.
 * Data files are read at run time from the shared folder beside the project (LoCoMo is CC BY-NC: evaluation
 * only, never copied into the repository).
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { EngramError } from '../../../core/errors.js';
import { renderLocomo } from '../../../evaluation/locomo/report.js';
import { runLocomoBench } from '../../../evaluation/locomo/run.js';
import { perfChart, renderPerf } from '../../../evaluation/perf/report.js';
import { runPerfBench } from '../../../evaluation/perf/run.js';
import { globals, print } from '../context.js';
import { locomoChart } from '../../../evaluation/locomo/chart.js';

/** The project root (this file lives at <root>/{src,dist}/surfaces/cli/commands/). */
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

export function registerBenchData(program: Command): void {
  const bench = program.commands.find((c) => c.name() === 'bench') ?? program.command('bench').description('benchmarks');
  bench
    .command('locomo')
    .description('LoCoMo evidence recall@k per category: BM25, vector, hybrid, getContext and Mem0 side by side, plus the paraphrase dev set')
    .option('--data <file>', 'LoCoMo JSON (locomo10.json)', join(ROOT, '../shared/data/locomo10.json'))
    .option('--paraphrase <file>', 'paraphrase dev set JSON', join(ROOT, '../shared/data/paraphrase-dev.json'))
    .option('--k <list>', 'cut-offs, comma-separated', '5,10,20')
    .option('--limit-conversations <n>', 'only the first N conversations')
    .option('--cache <dir>', 'cache dir for the Engram DB and embeddings', join(ROOT, '.engram-cache/locomo'))
    .option('--no-mem0', 'skip the Mem0 side-by-side')
    .option('--chart <file>', 'write an SVG chart of recall@k per retriever')
    .action(async (o: { data: string; paraphrase: string; k: string; limitConversations?: string; cache: string; mem0: boolean; chart?: string }, cmd: Command) => {
      const g = globals(cmd);
      const report = await runLocomoBench({
        dataPath: resolve(o.data),
        paraphrasePath: resolve(o.paraphrase),
        cacheDir: resolve(o.cache),
        ks: parseList('k', o.k),
        limitConversations: o.limitConversations === undefined ? undefined : parseList('limit-conversations', o.limitConversations)[0],
        mem0: o.mem0,
        log: (s) => process.stderr.write(`${s}\n`),
      });
      if (o.chart) writeFileSync(o.chart, locomoChart(report));
      print(g, report, () => renderLocomo(report));
    });
  bench
    .command('perf')
    .description('synthetic memories at several sizes: ingest, backlog drain, search/getContext percentiles, RSS, DB size, exact vs ANN; Mem0 at 20k side by side')
    .option('--sizes <list>', 'store sizes, comma-separated (1000000 is possible but takes long)', '10000,100000')
    .option('--queries <n>', 'queries per size', '200')
    .option('--pool <n>', 'texts embedded by the model; the rest are family vectors plus noise', '3000')
    .option('--mem0-size <n>', 'memories in the Mem0 side-by-side', '20000')
    .option('--model-size <n>', 'Mem0 side-by-side: adds one at a time with the real model on both sides (0 skips)', '500')
    .option('--no-mem0', 'skip the Mem0 side-by-side')
    .option('--no-ann', 'skip exact vs ANN recall')
    .option('--chart <file>', 'write an SVG chart of latency vs N')
    .option('--cache <dir>', 'cache dir for embeddings', join(ROOT, '.engram-cache/perf'))
    .action(async (o: { sizes: string; queries: string; pool: string; mem0Size: string; modelSize: string; mem0: boolean; ann: boolean; chart?: string; cache: string }, cmd: Command) => {
      const g = globals(cmd);
      const report = await runPerfBench({
        sizes: parseList('sizes', o.sizes),
        queries: parseList('queries', o.queries)[0]!,
        pool: parseList('pool', o.pool)[0]!,
        mem0Size: parseList('mem0-size', o.mem0Size)[0]!,
        modelSize: o.modelSize === '0' ? 0 : parseList('model-size', o.modelSize)[0]!,
        mem0: o.mem0,
        ann: o.ann,
        cacheDir: resolve(o.cache),
        log: (s) => process.stderr.write(`${s}\n`),
      });
      if (o.chart) writeFileSync(o.chart, perfChart(report));
      print(g, report, () => renderPerf(report));
    });
}

export function parseList(name: string, v: string): number[] {
  const xs = v.split(',').map((s) => Number(s.trim()));
  if (xs.length === 0 || xs.some((x) => !Number.isInteger(x) || x <= 0)) {
    throw new EngramError('VALIDATION', `--${name} takes positive whole numbers, comma-separated`, { issues: [{ path: name, message: 'positive integers' }] });
  }
  return xs;
}
