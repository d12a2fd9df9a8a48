import { existsSync, readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { EngramError } from '../../../core/errors.js';
import { parseLlmConfig, type LlmConfig } from '../../../core/llm-config.js';
import { runScenarioBench } from '../../../evaluation/scenario/bench.js';
import { defaultScenarioPath } from '../../../evaluation/scenario/format.js';
import { renderReport } from '../../../evaluation/scenario/report.js';
import { globals, print } from '../context.js';

export function registerBench(program: Command): void {
  const bench = program.command('bench').description('benchmarks');
  bench
    .command('scenario')
    .description('run a learning scenario online, round by round: Engram memory vs a flat-vector RAG baseline (see docs/scenario-format.md)')
    .option('--scenario <file>', 'scenario JSON file', defaultScenarioPath())
    .option('--llm <config>', 'decide through an LLM: a JSON llm config or a path to one (see docs/scenario-format.md); API key may come from ENGRAM_LLM_API_KEY')
    .option('--verbose', 'print every decision with its reason', false)
    .action(async (o: { scenario: string; llm?: string; verbose: boolean }, cmd: Command) => {
      const g = globals(cmd);
      const llm = o.llm ? readLlmOption(o.llm) : undefined;
      const report = await runScenarioBench({
        scenarioPath: o.scenario,
        ...(llm ? { llm } : {}),
        onRound: (r) => {
          if (!g.json) process.stderr.write(`round ${r.round} decided\n`);
        },
      });
      print(g, report, () => renderReport(report, { verbose: o.verbose }));
    });
}

/** `--llm '{"provider":"openai-compatible",…}'` or `--llm llm.json`; the key may come from the environment. */
function readLlmOption(value: string): LlmConfig {
  let json: unknown;
  const text = value.trim().startsWith('{') ? value : existsSync(value) ? readFileSync(value, 'utf8') : undefined;
  if (text === undefined) throw new EngramError('VALIDATION', `--llm: ${value} is neither JSON nor a readable file`, { issues: [{ path: 'llm', message: 'expected JSON or a file path' }] });
  try {
    json = JSON.parse(text) as unknown;
  } catch {
    throw new EngramError('VALIDATION', '--llm is not valid JSON', { issues: [{ path: 'llm', message: 'invalid JSON' }] });
  }
  const key = process.env.ENGRAM_LLM_API_KEY;
  if (key && typeof json === 'object' && json !== null && !('apiKey' in json)) json = { ...json, apiKey: key };
  return parseLlmConfig(json);
}
