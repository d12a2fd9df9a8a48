import { describe, expect, it } from 'vitest';
import { classifyOutcome, parseCorrection } from './cues.js';
import { episodeDocText } from '../core/docs-learn.js';
import { describeEpisode, HeuristicSummarizer } from './describe-episode.js';
import { incidentStream, makeEvent, ROUNDS, T0 } from './fixtures.test-support.js';

const { perRound } = incidentStream();

describe('describeEpisode on a failed, corrected round', () => {
  const d = describeEpisode(perRound[0]!);

  it('reads outcome, root cause, decision, assumption and correction', () => {
    expect(d.outcome).toBe('FAILURE');
    expect(d.rootCause).toBe('Outbound HTTP client hit its max connections per host under peak traffic');
    expect(d.decisions).toEqual(['Restarted the checkout pods, assuming a memory leak']);
    expect(d.assumptions).toEqual(['a memory leak']);
    expect(d.corrections).toEqual(['Was actually the outbound HTTP client connection cap, not a memory leak']);
    expect(d.situation).toBe(ROUNDS[0]!.report.replace(/\.$/, ''));
    expect(d.method).toBe('heuristic');
  });

  it('summarises situation → tried → outcome → correction within the bound', () => {
    expect(d.summary.length).toBeLessThanOrEqual(420);
    const order = ['Checkout API returning 503s', 'Tried: Restarted the checkout pods', 'Outcome: FAILURE — root cause: Outbound HTTP client', 'Correction: Was actually'];
    const at = order.map((s) => d.summary.indexOf(s));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  it('raises importance for a failure with a correction', () => {
    expect(d.importance).toBeCloseTo(0.7, 5); // peak 0.5 + 0.1 failure + 0.1 correction
    expect(describeEpisode(perRound[1]!).importance).toBeCloseTo(0.5, 5);
  });
});

describe('describeEpisode on a successful round', () => {
  it('has SUCCESS, its root cause, and no corrections or assumptions', () => {
    const d = describeEpisode(perRound[1]!);
    expect(d.outcome).toBe('SUCCESS');
    expect(d.rootCause).toBe('HTTP client max connections per host exhausted under peak traffic');
    expect(d.corrections).toEqual([]);
    expect(d.assumptions).toEqual([]);
    expect(d.summary).toContain('Outcome: SUCCESS');
  });
});

describe('outcome cues', () => {
  it.each([
    ['Tests passed on the second run', 'SUCCESS'],
    ['CI green after the retry', 'SUCCESS'],
    ['The restart did not fix the latency', 'FAILURE'],
    ['Still timing out after the change', 'FAILURE'],
    ['Partially mitigated by shedding load', 'PARTIAL'],
    ['Outcome: success — the wrong key had been rotated', 'SUCCESS'],
    ['Outcome: failure. Root cause: cache fixed at the wrong size', 'FAILURE'],
    ['We shipped it on Tuesday', 'UNKNOWN'],
  ] as const)('%s → %s', (text, label) => {
    expect(classifyOutcome(text)).toBe(label);
  });

  it('explicit metadata.outcome beats the wording', () => {
    const d = describeEpisode([makeEvent(1, 'message', 'x', T0), makeEvent(2, 'outcome', 'Tests passed', T0, { metadata: { outcome: 'failure' } })]);
    expect(d.outcome).toBe('FAILURE');
    expect(d.outcomeDetails).toBe('Tests passed');
  });

  it('is UNKNOWN without outcome events, and the summary then claims no outcome', () => {
    const d = describeEpisode([makeEvent(1, 'message', 'Disk usage on the build agents is at 91%.', T0), makeEvent(2, 'decision', 'Decided to prune old images.', T0)]);
    expect(d.outcome).toBe('UNKNOWN');
    expect(d.summary).not.toContain('Outcome');
    expect(d.summary).toContain('Tried: Decided to prune old images');
  });
});

describe('root cause, assumptions and corrections from phrasing', () => {
  it('takes the root cause from "was actually X, not Y" and the mistaken belief as the assumption', () => {
    const d = describeEpisode([
      makeEvent(1, 'message', 'Intermittent 502s from the edge.', T0),
      makeEvent(2, 'outcome', 'Outcome: failure.', T0),
      makeEvent(3, 'correction', 'Correction: It was actually a stale DNS entry, not the load balancer.', T0),
    ]);
    expect(d.rootCause).toBe('a stale DNS entry');
    expect(d.assumptions).toEqual(['the load balancer']);
  });

  it('reads the "Not Y: X" correction shape', () => {
    expect(parseCorrection('Not the cache: the job ran twice because of a retry storm.')).toEqual({
      mistaken: 'the cache',
      actual: 'the job ran twice because of a retry storm',
    });
  });

  it('metadata.root_cause and metadata.assumption win over phrasing', () => {
    const d = describeEpisode([
      makeEvent(1, 'message', 'Queue backlog growing; I thought it was the consumer deploy.', T0, { metadata: { assumption: 'consumer deploy broke acking' } }),
      makeEvent(2, 'outcome', 'Fixed. Root cause: partition rebalance loop', T0, { metadata: { root_cause: 'rebalance loop after broker upgrade' } }),
    ]);
    expect(d.rootCause).toBe('rebalance loop after broker upgrade');
    expect(d.assumptions).toEqual(['consumer deploy broke acking', 'the consumer deploy']);
    expect(d.outcome).toBe('SUCCESS');
  });

  it('finds decisions stated in agent messages', () => {
    const d = describeEpisode([
      makeEvent(1, 'message', 'Builds are slow.', T0),
      makeEvent(2, 'message', 'Looked at the cache hit rate. Decided to pin the runner image.', T0, { actor: 'agent' }),
    ]);
    expect(d.decisions).toEqual(['Decided to pin the runner image']);
  });
});

describe('summary bounds', () => {
  it('keeps the outcome visible even when the report is very long', () => {
    const long = `The nightly export job is slow. ${'Every table is scanned again and again. '.repeat(60)}`;
    const d = describeEpisode(
      [makeEvent(1, 'message', long, T0), makeEvent(2, 'decision', 'Added an index on updated_at.', T0), makeEvent(3, 'outcome', 'Outcome: failure. Root cause: the export ignores the index', T0)],
      { maxSummaryChars: 300 },
    );
    expect(d.summary.length).toBeLessThanOrEqual(300);
    expect(d.summary).toContain('Outcome: FAILURE — root cause: the export ignores the index');
    expect(d.summary).toContain('Tried: Added an index');
    expect(d.summary.startsWith('The nightly export job is slow.')).toBe(true);
  });

  it('HeuristicSummarizer returns the same description', async () => {
    expect(await new HeuristicSummarizer().summarize(perRound[2]!)).toEqual(describeEpisode(perRound[2]!));
  });

  it('says each thing once: an outcome-only episode, a root cause its correction states', () => {
    const only = describeEpisode([makeEvent(1, 'outcome', 'Outcome: FAILURE.', T0, { metadata: { outcome: 'FAILURE' } })]);
    expect(only.summary).toBe('Outcome: FAILURE.');
    const corrected = describeEpisode([
      makeEvent(1, 'message', 'The node 22 upgrade broke the build.', T0),
      makeEvent(2, 'correction', 'Correction: the lockfile was stale, not node 22.', T0 + 1),
      makeEvent(3, 'outcome', 'Outcome: FAILURE.', T0 + 2, { metadata: { outcome: 'FAILURE' } }),
    ]);
    expect(corrected.rootCause).toBe('the lockfile was stale');
    expect(corrected.summary).toBe('The node 22 upgrade broke the build. Outcome: FAILURE. Correction: the lockfile was stale, not node 22.');
    expect(episodeDocText(corrected)).toBe(corrected.summary);
    expect(episodeDocText(only)).toBe('Outcome: FAILURE.');
  });
});
