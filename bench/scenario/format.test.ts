import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EngramError } from '../../src/index.js';
import { loadScenarioFile, parseScenario, roundType } from './format.js';

const FIXTURES = join(import.meta.dirname, 'fixtures');
const dir = mkdtempSync(join(tmpdir(), 'engram-scenario-format-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A fresh, mutable copy of a held-out fixture. */
function fixture(name = 'rate-limits'): Record<string, unknown> & { rounds: Record<string, unknown>[] } {
  return JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as Record<string, unknown> & { rounds: Record<string, unknown>[] };
}

function failure(input: unknown): EngramError {
  try {
    parseScenario(input);
  } catch (e) {
    if (e instanceof EngramError) return e;
    throw e;
  }
  throw new Error('expected the scenario to be rejected');
}

describe('scenario format', () => {
  it('parses both held-out fixtures, filling defaults', async () => {
    for (const name of ['rate-limits', 'disk-pressure']) {
      const s = await loadScenarioFile(join(FIXTURES, `${name}.json`));
      expect(s.rounds).toHaveLength(9);
      expect(s.pool_patterns.length).toBeGreaterThan(0);
      // Round 5 of each omits attempted_fix / assumption / correction / keywords: defaults apply.
      const r5 = s.rounds[4]!;
      expect(r5.attempted_fix).toBe('');
      expect(r5.correction).toBe('');
      expect(r5.correct_keywords).toEqual([]);
      expect(r5.trigger_fact_extraction).toBe(false);
      expect(roundType(s.rounds[0]!)).toBe('LEARN');
      expect(roundType(s.rounds[7]!)).toBe('CORRECTION');
    }
  });

  it('parses the repository\'s scenarios', async () => {
    const s = await loadScenarioFile(join(import.meta.dirname, 'fixtures', 'clock-skew.json'));
    expect(s.rounds.length).toBeGreaterThan(0);
    expect(s.rounds.every((r) => r.bug_report.length > 0 && r.actual_root_cause.length > 0)).toBe(true);
  });

  it('lowercases keywords and the outcome', () => {
    const f = fixture();
    f.rounds[2]!.correct_keywords = ['Memory Leak'];
    f.rounds[2]!.outcome = 'SUCCESS';
    const s = parseScenario(f);
    expect(s.rounds[2]!.correct_keywords).toEqual(['memory leak']);
    expect(s.rounds[2]!.outcome).toBe('success');
  });

  it.each([
    ['a bad outcome', (f: ReturnType<typeof fixture>) => (f.rounds[3]!.outcome = 'exploded'), 'rounds.3.outcome'],
    ['a missing bug report', (f: ReturnType<typeof fixture>) => delete f.rounds[0]!.bug_report, 'rounds.0.bug_report'],
    ['an empty root cause', (f: ReturnType<typeof fixture>) => (f.rounds[1]!.actual_root_cause = '  '), 'rounds.1.actual_root_cause'],
    ['a note that is not text', (f: ReturnType<typeof fixture>) => (f.rounds[2]!.investigation_notes = ['ok', 7]), 'rounds.2.investigation_notes.1'],
    ['a keyword list that is a string', (f: ReturnType<typeof fixture>) => (f.rounds[7]!.incorrect_keywords = 'quota'), 'rounds.7.incorrect_keywords'],
    ['an unknown round field', (f: ReturnType<typeof fixture>) => (f.rounds[4]!.severity = 'high'), 'rounds.4'],
    ['an unknown top-level field', (f: ReturnType<typeof fixture>) => (f.rounds_count = 9), ''],
    ['a duplicate round number', (f: ReturnType<typeof fixture>) => (f.rounds[5]!.round_num = 5), 'rounds.5.round_num'],
    ['rounds out of order', (f: ReturnType<typeof fixture>) => f.rounds.reverse(), 'rounds.1.round_num'],
    ['no rounds', (f: ReturnType<typeof fixture>) => (f.rounds = []), 'rounds'],
    ['a trigger flag that is not boolean', (f: ReturnType<typeof fixture>) => (f.rounds[3]!.trigger_fact_extraction = 'yes'), 'rounds.3.trigger_fact_extraction'],
  ])('rejects %s, naming the failing path', (_what, mutate, path) => {
    const f = fixture();
    mutate(f);
    const err = failure(f);
    expect(err.code).toBe('VALIDATION');
    expect(err.issues.map((i) => i.path)).toContain(path);
    expect(err.message).toContain(path || '(root)');
  });

  it('rejects a round that could never be scored correct: no correct keywords and no pool_patterns', () => {
    const f = fixture();
    f.pool_patterns = [];
    const err = failure(f);
    // Rounds 1, 2, 4–7 rely on pool_patterns in this fixture.
    expect(err.issues.map((i) => i.path)).toEqual(expect.arrayContaining(['rounds.0.correct_keywords', 'rounds.6.correct_keywords']));
    expect(err.issues.map((i) => i.path)).not.toContain('rounds.2.correct_keywords');
  });

  it('reports a file that is not JSON as VALIDATION and a missing file as NOT_FOUND', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{ "rounds": [ ');
    await expect(loadScenarioFile(bad)).rejects.toMatchObject({ code: 'VALIDATION' });
    await expect(loadScenarioFile(join(dir, 'absent.json'))).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
