/**
 * `npm run bench:locomo -- --data PATH/locomo10.json [--paraphrase PATH/paraphrase-dev.json]`: LoCoMo evidence
 * recall@k per category for BM25, vector, hybrid search, getContext and Mem0 side by side, plus the paraphrase
 * dev set. LoCoMo is CC BY-NC: evaluation only, read from the path given, never copied into the repository.
 * `--paraphrase-only --paraphrase FILE [--paraphrase-split tune|eval]` runs the paraphrase set alone.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { parseList, print, requireData, run } from '../cli.js';
import { locomoChart } from './chart.js';
import { renderLocomo } from './report.js';
import { runLocomoBench } from './run.js';
import type { ParaphraseSplit } from './paraphrase.js';
import { EngramError } from '../../src/index.js';

interface Options {
  data?: string;
  paraphrase?: string;
  paraphraseOnly: boolean;
  paraphraseSplit?: string;
  k: string;
  limitConversations?: string;
  cacheDir: string;
  mem0: boolean;
  chunkLong: boolean;
  chart?: string;
  json: boolean;
}

const program = new Command()
  .name('bench:locomo')
  .description('LoCoMo evidence recall@k per category: BM25, vector, hybrid, getContext and Mem0 side by side, plus the paraphrase dev set')
  .option('--data <file>', 'LoCoMo JSON (locomo10.json); required')
  .option('--paraphrase <file>', 'paraphrase dev set JSON (paraphrase-dev.json); default: paraphrase-dev.json beside --data')
  .option('--paraphrase-only', 'run only the paraphrase dev set (no LoCoMo; --data not needed, --paraphrase required)', false)
  .option('--paraphrase-split <half>', 'ask only the tune or the eval half of the paraphrase queries (default: all)')
  .option('--k <list>', 'cut-offs, comma-separated', '5,10,20')
  .option('--limit-conversations <n>', 'only the first N conversations')
  .option('--cache-dir <dir>', 'where the Engram DB and embeddings are cached between runs', '.engram-cache/locomo')
  .option('--no-mem0', 'skip the Mem0 side-by-side')
  .option('--chunk-long', 'import turns over the 32,768-character content limit as consecutive parts (default: refuse the data before any work)', false)
  .option('--chart <file>', 'write an SVG chart of recall@k per retriever')
  .option('--json', 'print the report as JSON', false);

run(async () => {
  const o = program.parse(process.argv).opts<Options>();
  const data = o.paraphraseOnly ? undefined : requireData('data', o.data, 'LoCoMo (locomo10.json)');
  const paraDefault = data === undefined ? undefined : join(data, '..', 'paraphrase-dev.json');
  const paraphrase = requireData('paraphrase', o.paraphrase ?? paraDefault, 'the paraphrase dev set (paraphrase-dev.json)');
  const report = await runLocomoBench({
    dataPath: data,
    paraphrasePath: paraphrase,
    paraphraseSplit: parseSplit(o.paraphraseSplit),
    cacheDir: resolve(o.cacheDir),
    ks: parseList('k', o.k),
    limitConversations: o.limitConversations === undefined ? undefined : parseList('limit-conversations', o.limitConversations)[0],
    mem0: o.mem0,
    chunkLong: o.chunkLong,
    log: (s) => process.stderr.write(`${s}\n`),
  });
  if (o.chart) writeFileSync(o.chart, locomoChart(report));
  print(o.json, report, () => renderLocomo(report));
});

function parseSplit(v: string | undefined): ParaphraseSplit | undefined {
  if (v === undefined || v === 'tune' || v === 'eval') return v;
  throw new EngramError('VALIDATION', '--paraphrase-split takes tune or eval', { issues: [{ path: 'paraphrase-split', message: 'tune or eval' }] });
}
