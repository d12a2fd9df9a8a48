/**
 * Test support (not a test): a data-platform team's incident log, written for these tests. Two ETL failures
 * share a cause (a skewed join key), one look-alike had another cause (a halved executor memory limit), one
 * incident is unrelated (a dropped metrics scrape config), and one retries the first. Each round runs report →
 * notes → decision → outcome → (correction), in ONE stream, a few minutes apart: only the outcome signals can
 * split it (no state labels, no long pauses).
 */
import type { Clock } from '../../ports/clock.js';

export interface Round {
  report: string;
  notes: string[];
  decision: string;
  outcome: 'success' | 'failure';
  rootCause: string;
  correction?: string;
}

export const ROUNDS: readonly Round[] = [
  {
    report: 'Nightly ETL job for the billing warehouse failed with out-of-memory errors on the spark executors.',
    notes: ['Executor logs show OOM kills during the join stage.', 'Input volume is only slightly above last week.'],
    decision: 'Increased executor memory from 8g to 16g, assuming the input volume grew.',
    outcome: 'failure',
    rootCause: 'A skewed join key (null customer ids) sent most rows to one spark executor.',
    correction: 'Was actually join key skew on null customer ids, not input volume.',
  },
  {
    report: 'Grafana dashboards show no data for the checkout service since this morning.',
    notes: ['Prometheus scrape target for checkout is missing.', 'The checkout pods themselves are healthy.'],
    decision: 'Restored the scrape config that a config refactor removed.',
    outcome: 'success',
    rootCause: 'The prometheus scrape config for checkout was removed in a config refactor.',
  },
  {
    report: 'Nightly ETL job for the orders warehouse failed with executor OOM during the join stage.',
    notes: ['One executor holds most of the shuffle data.', 'Most rows have a null customer id.'],
    decision: 'Salted the join key and filtered null customer ids before the join.',
    outcome: 'success',
    rootCause: 'Skewed join key: null customer ids piled onto one spark executor.',
  },
  {
    report: 'Nightly ETL job for the payments warehouse failed with out-of-memory errors on the spark executors right after the cluster upgrade.',
    notes: ['Shuffle data is spread evenly across executors.', 'Executor memory limit shows 4g instead of 8g.'],
    decision: 'Salted the join key, assuming a skewed join key again.',
    outcome: 'failure',
    rootCause: 'The cluster upgrade halved the executor memory limit to 4g.',
    correction: 'Not join key skew: the cluster upgrade halved the executor memory limit.',
  },
];

export const MINUTE = 60_000;
export const T0 = Date.parse('2025-06-02T02:00:00Z');

/** The events of one round, `startTs` onwards one minute apart, in one session. */
export function roundEvents(r: Round, startTs: number, scope: Record<string, unknown> = { sessionId: 'ops' }): Record<string, unknown>[] {
  let t = startTs;
  const next = () => (t += MINUTE);
  return [
    { ...scope, type: 'message', actor: 'user', content: r.report, ts: startTs },
    ...r.notes.map((n) => ({ ...scope, type: 'observation', content: n, ts: next() })),
    { ...scope, type: 'decision', content: r.decision, ts: next() },
    { ...scope, type: 'outcome', content: `Outcome: ${r.outcome}. Root cause: ${r.rootCause}`, metadata: { outcome: r.outcome }, ts: next() },
    ...(r.correction ? [{ ...scope, type: 'correction', content: `Correction: ${r.correction}`, ts: next() }] : []),
  ];
}

/** All rounds, ten minutes apart (far below the 30-minute gap). */
export function allRoundEvents(rounds: readonly Round[] = ROUNDS, scope?: Record<string, unknown>): Record<string, unknown>[] {
  return rounds.flatMap((r, i) => roundEvents(r, T0 + i * 10 * MINUTE, scope));
}

/** A clock that moves forward one millisecond per reading, so every write has its own time. */
export function tickingClock(start = Date.parse('2025-06-03T00:00:00Z')): Clock {
  let t = start;
  return { now: () => ++t };
}
