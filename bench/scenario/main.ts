/**
 * `npm run bench:scenario -- --scenario FILE`: a learning scenario run online, round by round: Engram memory
 * against a flat-vector RAG baseline (docs/scenario-format.md). The repository's own scenarios are in
 * bench/scenario/fixtures; third-party ones are read from the path given.
 */
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { EngramError, parseLlmConfig, type LlmConfig } from '../../src/index.js';
import { print, requireData, run } from '../cli.js';
import { runScenarioBench } from './bench.js';
import { renderCorpus, runCorpus } from './corpus.js';
import { renderReport } from './report.js';

interface Options {
  scenario?: string;
  corpus?: string;
  llm?: string;
  verbose: boolean;
  json: boolean;
}

const program = new Command()
  .name('bench:scenario')
  .description('run a learning scenario online, round by round: Engram memory vs a flat-vector RAG baseline (docs/scenario-format.md)')
  .option('--scenario <file>', 'scenario JSON file (this format); this or --corpus is required')
  .option('--corpus <dir>', 'run every scenario file of a folder and print per-scenario and total figures')
  .option('--llm <config>', 'decide through an LLM: a JSON llm config or a path to one; the API key may come from ENGRAM_LLM_API_KEY')
  .option('--verbose', 'print every decision with its reason', false)
  .option('--json', 'print the report as JSON', false);

run(async () => {
  const o = program.parse(process.argv).opts<Options>();
  const llm = o.llm ? readLlmOption(o.llm) : undefined;
  if (o.corpus !== undefined) {
    const dir = requireData('corpus', o.corpus, 'a folder of scenario files');
    const report = await runCorpus(dir, {
      ...(llm ? { llm } : {}),
      onScenario: (row, report) => {
        if (o.json) return;
        // --verbose: each scenario's full report (table, decisions and reasons) on stderr, the totals on stdout.
        if (o.verbose) process.stderr.write(`${renderReport(report, { verbose: true })}\n\n`);
        else process.stderr.write(`${row.scenario}: Engram ${row.correct.engram.n}/${row.correct.engram.of}, baseline ${row.correct.baseline.n}/${row.correct.baseline.of}\n`);
      },
    });
    print(o.json, report, () => renderCorpus(report));
    return;
  }
  const scenarioPath = requireData('scenario', o.scenario, 'a scenario file (docs/scenario-format.md)');
  const report = await runScenarioBench({
    scenarioPath,
    ...(llm ? { llm } : {}),
    onRound: (r) => {
      if (!o.json) process.stderr.write(`round ${r.round} decided\n`);
    },
  });
  print(o.json, report, () => renderReport(report, { verbose: o.verbose }));
});

/** `--llm '{"provider":"openai-compatible",…}'` or `--llm llm.json`; the key may come from the environment. */
function readLlmOption(value: string): LlmConfig {
  const text = value.trim().startsWith('{') ? value : readFileSync(requireData('llm', value, 'an llm config JSON'), 'utf8');
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch {
    throw new EngramError('VALIDATION', '--llm is not valid JSON', { issues: [{ path: 'llm', message: 'invalid JSON' }] });
  }
  const key = process.env.ENGRAM_LLM_API_KEY;
  if (key && typeof json === 'object' && json !== null && !('apiKey' in json)) json = { ...json, apiKey: key };
  return parseLlmConfig(json);
}
