/**
 * `npm run bench:scenario -- --corpus DIR`: every scenario file of a folder, one after another with one shared
 * embedder, and a table per scenario and in total: all rounds right, learnable rounds right (learnable.ts), and
 * precedent@1 (the lesson an earlier round taught retrieved first), for Engram and the flat-RAG baseline.
 */
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createUseLiteEmbedder, type LlmConfig } from '../../src/index.js';
import type { AgentName } from './agents/agent.js';
import { runScenarioBench } from './bench.js';
import { ratio, type Ratio } from './metrics.js';
import type { ScenarioReport } from './report.js';

export interface CorpusRow {
  scenario: string;
  rounds: number;
  correct: Record<AgentName, Ratio>;
  learnable: Record<AgentName, Ratio>;
  precedentAt1: Record<AgentName, Ratio>;
  /** Engram's decisions by basis: precedent by similarity, by recurrence, prior, llm. */
  bases: { precedent: number; recurrence: number; prior: number; llm: number };
}

export interface CorpusReport {
  dir: string;
  rows: CorpusRow[];
  total: Omit<CorpusRow, 'scenario'>;
}

export function corpusFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => join(dir, f));
}

function rowOf(path: string, r: ScenarioReport): CorpusRow {
  const pick = (f: (s: NonNullable<ScenarioReport['summary']['engram']>) => Ratio) => ({ engram: f(r.summary.engram!), baseline: f(r.summary.baseline!) });
  const e = r.summary.engram!;
  return {
    scenario: basename(path, '.json'),
    rounds: r.scenario.rounds,
    correct: pick((s) => s.correct),
    learnable: pick((s) => s.learnable),
    precedentAt1: pick((s) => s.precedentAt1),
    bases: { precedent: e.byPrecedent - e.byRecurrence, recurrence: e.byRecurrence, prior: e.byPrior, llm: e.correct.of - e.byPrecedent - e.byPrior },
  };
}

function add(a: Ratio, b: Ratio): Ratio {
  return { n: a.n + b.n, of: a.of + b.of };
}

export function totalOf(rows: readonly CorpusRow[]): CorpusReport['total'] {
  const zero = () => ({ engram: { n: 0, of: 0 }, baseline: { n: 0, of: 0 } });
  const t: CorpusReport['total'] = { rounds: 0, correct: zero(), learnable: zero(), precedentAt1: zero(), bases: { precedent: 0, recurrence: 0, prior: 0, llm: 0 } };
  for (const r of rows) {
    t.rounds += r.rounds;
    for (const a of ['engram', 'baseline'] as const) {
      t.correct[a] = add(t.correct[a], r.correct[a]);
      t.learnable[a] = add(t.learnable[a], r.learnable[a]);
      t.precedentAt1[a] = add(t.precedentAt1[a], r.precedentAt1[a]);
    }
    for (const k of ['precedent', 'recurrence', 'prior', 'llm'] as const) t.bases[k] += r.bases[k];
  }
  return t;
}

export interface CorpusOptions {
  llm?: LlmConfig;
  onScenario?: (row: CorpusRow, report: ScenarioReport) => void;
}

export async function runCorpus(dir: string, opts: CorpusOptions = {}): Promise<CorpusReport> {
  const embedder = createUseLiteEmbedder({ provider: 'use-lite', workers: 0, batchSize: 32 });
  await embedder.init();
  const rows: CorpusRow[] = [];
  try {
    for (const path of corpusFiles(dir)) {
      const report = await runScenarioBench({ scenarioPath: path, embedder, ...(opts.llm ? { llm: opts.llm } : {}) });
      const row = rowOf(path, report);
      rows.push(row);
      opts.onScenario?.(row, report);
    }
  } finally {
    await embedder.close();
  }
  return { dir, rows, total: totalOf(rows) };
}

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + ' '.repeat(n - s.length);
}

function short(r: Ratio): string {
  return `${r.n}/${r.of}`;
}

export function renderCorpus(c: CorpusReport): string {
  const header = ['scenario', 'rounds', 'Engram', 'Baseline', 'learnable E', 'learnable B', 'prec@1 E', 'prec@1 B', 'E: precedent/recurrence/prior/llm'];
  const line = (name: string, r: Omit<CorpusRow, 'scenario'>) => [
    name,
    String(r.rounds),
    short(r.correct.engram),
    short(r.correct.baseline),
    short(r.learnable.engram),
    short(r.learnable.baseline),
    short(r.precedentAt1.engram),
    short(r.precedentAt1.baseline),
    `${r.bases.precedent}/${r.bases.recurrence}/${r.bases.prior}/${r.bases.llm}`,
  ];
  const all = [header, ...c.rows.map((r) => line(r.scenario, r)), line('TOTAL', c.total)];
  const widths = header.map((_, i) => Math.max(...all.map((row) => row[i]!.length)));
  const t = c.total;
  return [
    `Corpus ${c.dir} — ${c.rows.length} scenarios`,
    '',
    ...all.map((row) => row.map((cell, i) => pad(cell, widths[i]!)).join('  ').trimEnd()),
    '',
    `learnable rounds right: Engram ${ratio(t.learnable.engram)}, baseline ${ratio(t.learnable.baseline)}`,
    `all rounds right:       Engram ${ratio(t.correct.engram)}, baseline ${ratio(t.correct.baseline)}`,
    `precedent@1 (learnable): Engram ${ratio(t.precedentAt1.engram)}, baseline ${ratio(t.precedentAt1.baseline)}`,
  ].join('\n');
}
