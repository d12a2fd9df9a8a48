/**
 * `npm run bench:corpora -- [--corpora a.json,b.json] [--k 5,10,20] [--cache-dir DIR] [--json]`: evidence recall@k of
 * BM25, vector, hybrid search and getContext on the repository's own corpora (bench/corpora/*.json), per split.
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { EngramError } from '../../src/index.js';
import { parseList, print, requireData, run } from '../cli.js';
import { renderCorpora } from './report.js';
import { runCorporaBench } from './run.js';

interface Options {
  corpora?: string;
  k: string;
  cacheDir: string;
  json: boolean;
  split?: string;
}

const program = new Command()
  .name('bench:corpora')
  .description("evidence recall@k of BM25, vector, hybrid search and getContext on the repository's corpora, per tune/eval split")
  .option('--corpora <files>', 'corpus JSON files, comma-separated (default: every bench/corpora/*.json)')
  .option('--k <list>', 'cut-offs, comma-separated', '5,10,20')
  .option('--cache-dir <dir>', 'where the Engram DBs and embeddings are cached between runs', '.engram-cache/corpora')
  .option('--split <split>', 'ask only the tune or the eval questions (default: both)')
  .option('--json', 'print the report as JSON', false);

run(async () => {
  const o = program.parse(process.argv).opts<Options>();
  const here = import.meta.dirname;
  const files = o.corpora
    ? o.corpora.split(',').map((f) => requireData('corpora', f.trim(), 'a corpus JSON file'))
    : readdirSync(here).filter((f) => f.endsWith('.json')).sort().map((f) => join(here, f));
  if (o.split !== undefined && o.split !== 'tune' && o.split !== 'eval') throw new EngramError('VALIDATION', `--split: tune or eval, not ${o.split}`);
  const split = o.split as 'tune' | 'eval' | undefined;
  const report = await runCorporaBench({ files, cacheDir: resolve(o.cacheDir), ks: parseList('k', o.k), split, log: (s) => process.stderr.write(`${s}\n`) });
  print(o.json, report, () => renderCorpora(report));
});
