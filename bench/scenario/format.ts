/**
 * The learning-scenario file format (documented in docs/scenario-format.md): a list of rounds, each a bug
 * report an agent must diagnose, followed by what the investigation found and what the cause really was.
 * Parsed once at the edge with zod; every error names the failing path (`rounds.3.outcome`).
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { EngramError } from '../../src/index.js';

const text = z.string().trim().min(1);
const optionalText = z.string().trim().default('');
const keywords = z.array(text.transform((s) => s.toLowerCase())).max(200).default([]);

export const SCENARIO_OUTCOMES = ['success', 'failure', 'partial', 'unknown'] as const;

export const roundSchema = z
  .object({
    round_num: z.number().int().min(1),
    service: text,
    /** The query: what the agent is told before it decides. */
    bug_report: text,
    investigation_notes: z.array(text).max(100).default([]),
    attempted_fix: optionalText,
    actual_root_cause: text,
    /** How the attempted fix went (the scenario's scripted outcome). */
    outcome: z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.enum(SCENARIO_OUTCOMES)),
    /** What the investigator believed before the correction; empty when nothing was assumed. */
    assumption: optionalText,
    correction: optionalText,
    state_label: optionalText,
    is_test_round: z.boolean().default(false),
    /** Only feed the keyword hit count of the report; never the score. */
    expected_keywords: keywords,
    correct_keywords: keywords,
    incorrect_keywords: keywords,
    /** Free-form type shown in the table (RED HERRING, CORRECTION …); empty means a learning round. */
    round_label: z.string().trim().max(64).default(''),
    /** Consolidate memory (distil facts) after this round's data is ingested. */
    trigger_fact_extraction: z.boolean().default(false),
    /** The earlier rounds whose lesson answers this one; derived from the root causes when absent (learnable.ts). */
    taught_by: z.array(z.number().int().min(1)).max(100).optional(),
  })
  .strict();

export const scenarioSchema = z
  .object({
    source: z.string().optional(),
    scoring_note: z.string().optional(),
    name: z.string().optional(),
    description: z.string().optional(),
    /** The recurring cause: what a round without `correct_keywords` must name to count as correct. */
    pool_patterns: keywords,
    rounds: z.array(roundSchema).min(1).max(1000),
  })
  .strict()
  .superRefine((s, ctx) => {
    const seen = new Set<number>();
    s.rounds.forEach((r, i) => {
      if (seen.has(r.round_num)) ctx.addIssue({ code: 'custom', path: ['rounds', i, 'round_num'], message: `duplicate round_num ${r.round_num}` });
      seen.add(r.round_num);
      if (i > 0 && r.round_num <= s.rounds[i - 1]!.round_num) {
        ctx.addIssue({ code: 'custom', path: ['rounds', i, 'round_num'], message: 'rounds must be in ascending round_num order' });
      }
      for (const t of r.taught_by ?? []) {
        if (t >= r.round_num || !s.rounds.some((o) => o.round_num === t)) {
          ctx.addIssue({ code: 'custom', path: ['rounds', i, 'taught_by'], message: `round ${t} is not an earlier round of this scenario` });
        }
      }
      // Such a round could never be scored correct: the scoring falls back to pool_patterns when it has none.
      if (r.correct_keywords.length === 0 && s.pool_patterns.length === 0) {
        ctx.addIssue({ code: 'custom', path: ['rounds', i, 'correct_keywords'], message: 'empty, and the scenario has no pool_patterns to fall back on' });
      }
    });
  });

export type ScenarioInput = z.input<typeof scenarioSchema>;
export type Scenario = z.output<typeof scenarioSchema>;
export type ScenarioRound = z.output<typeof roundSchema>;

export function parseScenario(input: unknown): Scenario {
  const result = scenarioSchema.safeParse(input);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  throw new EngramError('VALIDATION', `invalid scenario: ${issues[0]!.path || '(root)'}: ${issues[0]!.message}`, { issues });
}

/** Reads and validates a scenario file; JSON syntax errors and schema errors both come back as VALIDATION. */
export async function loadScenarioFile(path: string): Promise<Scenario> {
  let raw: string;
  try {
    raw = await readFile(path, 'utf8');
  } catch (cause) {
    throw new EngramError('NOT_FOUND', `cannot read scenario file ${path}`, { cause, issues: [{ path: 'scenario', message: 'file not readable' }] });
  }
  let json: unknown;
  try {
    json = JSON.parse(raw) as unknown;
  } catch (cause) {
    throw new EngramError('VALIDATION', `scenario file ${path} is not valid JSON`, { cause, issues: [{ path: '', message: 'invalid JSON' }] });
  }
  return parseScenario(json);
}

/** The label shown in the table: the file's `round_label`, or LEARN for a round without one. */
export function roundType(r: ScenarioRound): string {
  return r.round_label || 'LEARN';
}
