/**
 * The benchmark end to end on the three held-out scenarios (other services, causes and red herrings than the
 * shared one, each with CORRECTION rounds): real SQLite storage, the real USE-lite model, the heuristic
 * decision procedure. Two scenarios through the library call, one through `npm run bench:scenario -- --json`.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { sharedEmbedder } from '../../testing/memory-fixture.js';
import { cachedEmbedder } from '../locomo/embed-cache.js';
import type { AgentName } from './agents/agent.js';
import { runScenarioBench } from './bench.js';
import { renderCorpus, type CorpusReport } from './corpus.js';
import { renderReport, type ScenarioReport } from './report.js';
import { nodeArgs } from '../../testing/node-entry.js';

const run = promisify(execFile);
const root = join(import.meta.dirname, '../..');
const FIXTURES = join(import.meta.dirname, 'fixtures');
/** `npm run bench:scenario`'s entry point. */
const MAIN = 'bench/scenario/main.ts';
const dir = mkdtempSync(join(tmpdir(), 'engram-bench-test-'));
/** The library calls' model: a run's two agents embed the same texts (a scenario asks for each text about 2.5 times). */
const embedder = cachedEmbedder(sharedEmbedder(), ':memory:', { closeInner: false });
afterAll(async () => {
  await embedder.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What must hold for any scenario run, whatever the numbers. */
function checkRun(report: ScenarioReport): void {
  expect(report.rounds).toHaveLength(9);
  expect(report.mode).toBe('heuristic');
  for (const round of report.rounds) {
    for (const name of ['engram', 'baseline'] as AgentName[]) {
      const a = round.agents[name]!;
      expect(a.decision.text).toMatch(/^Investigate: \S/);
      expect(a.decision.text).not.toContain('\n');
      // Every decision says which precedent or prior it used, and a decision by recurrence says so.
      expect(a.decision.reason).toMatch(/^(precedent|prior) /);
      if (a.decision.basis.kind === 'precedent' && a.decision.basis.via === 'recurrence') expect(a.decision.reason).toContain('by recurrence');
      // Online: nothing retrieved comes from this round or a later one.
      for (const item of a.retrieved) if (item.fromRound !== null) expect(item.fromRound).toBeLessThan(round.round);
      // The memory-only measure exists exactly for the rounds an earlier round taught.
      expect(a.lesson === undefined).toBe(round.taughtBy.length === 0);
      if (a.lesson?.rank) expect(a.lesson.rank).toBeLessThanOrEqual(a.retrieved.length);
    }
  }
  // Nothing to retrieve before the first round has been learned.
  expect(report.rounds[0]!.agents.engram!.retrieved).toEqual([]);
  expect(report.rounds[0]!.agents.baseline!.retrieved).toEqual([]);
  // The baseline retrieves its top 5 chunks once there are enough.
  expect(report.rounds.slice(2).every((r) => r.agents.baseline!.retrieved.length === 5)).toBe(true);
}

function checkEngramLearned(report: ScenarioReport): void {
  const engram = report.summary.engram!;
  const baseline = report.summary.baseline!;
  expect(engram.correct.n).toBeGreaterThanOrEqual(baseline.correct.n);
  // Every retrieved episode carries an outcome label; the baseline's chunks carry none.
  expect(engram.episodesLabelled.of).toBeGreaterThan(10);
  expect(engram.episodesLabelled.n).toBe(engram.episodesLabelled.of);
  expect(baseline.retrievedLabelled.n).toBe(0);
  // The round after the CORRECTION round avoids the corrected-away cause.
  expect(engram.adaptations).toEqual([expect.objectContaining({ from: 8, to: 9, avoided: true, verdict: 'adapted' })]);
  // Consolidation ran after rounds 4 and 8: learned facts with their versions, oldest first.
  const facts = report.facts.engram!;
  expect(facts.length).toBeGreaterThan(0);
  for (const f of facts) {
    expect(f.versions.map((v) => v.version)).toEqual([...f.versions.map((v) => v.version)].sort((a, b) => a - b));
    expect(f.versions.filter((v) => v.live).length).toBeLessThanOrEqual(1);
    for (const v of f.versions) expect(v.confidence).toBeGreaterThanOrEqual(0);
  }
  expect(report.facts.baseline).toEqual([]);
}

describe('bench:scenario on the repository\'s scenarios', () => {
  it('rate-limits: Engram ≥ baseline, labelled episodes, adaptation after the correction (library call)', async () => {
    const seen: number[] = [];
    const report = await runScenarioBench({
      scenarioPath: join(FIXTURES, 'rate-limits.json'),
      embedder,
      onRound: (r) => seen.push(r.round),
    });
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    checkRun(report);
    checkEngramLearned(report);
    // The text report shows the same totals as the JSON.
    const text = renderReport(report);
    const total = text.split('\n').find((l) => l.startsWith('TOTAL'))!;
    expect(total).toContain(`${report.summary.engram!.correct.n}/9`);
    expect(total).toContain(`${report.summary.baseline!.correct.n}/9`);
    expect(text).toContain('Engram facts at the end');
  }, 600_000);

  it('disk-pressure: the same through the CLI with --json', async () => {
    const { stdout } = await run(process.execPath, [...nodeArgs(MAIN), '--scenario', join(FIXTURES, 'disk-pressure.json'), '--json'], {
      cwd: root,
      maxBuffer: 64 * 1024 * 1024,
      timeout: 600_000,
    });
    const report = JSON.parse(stdout) as ScenarioReport;
    expect(report.scenario.path).toBe(join(FIXTURES, 'disk-pressure.json'));
    checkRun(report);
    checkEngramLearned(report);
  }, 600_000);

  it('clock-skew: a recurring cause whose reports never name it (library call)', async () => {
    const report = await runScenarioBench({ scenarioPath: join(FIXTURES, 'clock-skew.json'), embedder });
    checkRun(report);
    checkEngramLearned(report);
  }, 600_000);

  it('--corpus runs every scenario of a folder and totals them (CLI, two short scenarios)', async () => {
    const corpus = join(dir, 'corpus');
    mkdirSync(corpus);
    for (const name of ['rate-limits', 'clock-skew']) {
      const full = JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as { rounds: unknown[] };
      writeFileSync(join(corpus, `${name}.json`), JSON.stringify({ ...full, rounds: full.rounds.slice(0, 3) }));
    }
    writeFileSync(join(corpus, 'notes.txt'), 'not a scenario');
    const { stdout } = await run(process.execPath, [...nodeArgs(MAIN), '--corpus', corpus, '--json'], { cwd: root, maxBuffer: 64 * 1024 * 1024, timeout: 600_000 });
    const report = JSON.parse(stdout) as CorpusReport;
    expect(report.rows.map((r) => r.scenario)).toEqual(['clock-skew', 'rate-limits']);
    expect(report.total.rounds).toBe(6);
    for (const a of ['engram', 'baseline'] as const) {
      expect(report.total.correct[a].n).toBe(report.rows.reduce((s, r) => s + r.correct[a].n, 0));
      expect(report.total.learnable[a].of).toBe(report.rows.reduce((s, r) => s + r.learnable[a].of, 0));
    }
    // Round 2 of each recurs round 1's cause: learnable.
    expect(report.total.learnable.engram.of).toBeGreaterThanOrEqual(2);
    expect(renderCorpus(report)).toContain('precedent@1 (learnable)');
  }, 600_000);

  it('the CLI rejects a malformed scenario file with exit code 2, naming the failing path', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ pool_patterns: ['x'], rounds: [{ round_num: 1, service: 's', bug_report: 'r', actual_root_cause: 'c', outcome: 'maybe' }] }));
    const err = await run(process.execPath, [...nodeArgs(MAIN), '--scenario', bad, '--json'], { cwd: root }).then(
      () => undefined,
      (e: { code: number; stderr: string }) => e,
    );
    expect(err?.code).toBe(2);
    const body = JSON.parse(err!.stderr.trim().split('\n').pop()!) as { error: { code: string; issues: { path: string }[] } };
    expect(body.error.code).toBe('VALIDATION');
    expect(body.error.issues.map((i) => i.path)).toContain('rounds.0.outcome');
  }, 120_000);
});
