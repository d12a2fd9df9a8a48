import { describe, expect, it } from 'vitest';
import { parseContextConfig } from '../core/config.js';
import { createTokenCounter } from '../core/tokens.js';
import type { Episode, Outcome } from '../core/types.js';
import { fitBudget } from './budget.js';
import { majorityOutcome, pickCounterExample } from './counter.js';
import { candidate, makeDoc, makeFact, T0 } from './fixtures.test-support.js';
import { episodeBody, episodeView, factBody, lessonValue, OUTCOME_WEIGHT } from './outcome.js';
import { itemBody } from './render.js';
import { scoreCandidate } from './score.js';
import { COUNTER_EXAMPLE_SECTION, resolveSections } from './sections.js';
import type { Candidate } from './types.js';

const scoring = parseContextConfig({}).scoring;
const tokens = createTokenCounter('cl100k_base');

function episode(over: Partial<Episode> & { id: string; outcome: Outcome }): Episode {
  return {
    tenant: 't1',
    streamKey: 's',
    startSeq: 1,
    endSeq: 2,
    startTs: T0,
    endTs: T0,
    eventIds: [],
    summary: `Summary of ${over.id}.`,
    decisions: [],
    assumptions: [],
    corrections: [],
    importance: 0.5,
    closed: true,
    metadata: {},
    recordedAt: T0,
    ...over,
  };
}

function episodeCandidate(e: Episode, relevance: number, final?: number): Candidate {
  const doc = makeDoc({
    kind: 'episode',
    refId: e.id,
    text: e.summary,
    type: e.outcome,
    metadata: { corrected: e.corrections.length > 0, hasRootCause: e.rootCause !== undefined },
  });
  const scores = scoreCandidate(doc, { vector: relevance, lexical: null, relevance }, scoring, T0);
  return { ...candidate(doc, { scores, final: final ?? scores.final }), episode: e };
}

describe('outcome-aware scoring', () => {
  it('ranks lesson value: corrected > failed with cause > failed > success > unknown', () => {
    const doc = (type: Outcome, metadata = {}) => ({ kind: 'episode' as const, type, metadata });
    const values = [
      lessonValue(doc('FAILURE', { corrected: true })),
      lessonValue(doc('FAILURE', { hasRootCause: true })),
      lessonValue(doc('FAILURE')),
      lessonValue(doc('SUCCESS')),
      lessonValue(doc('UNKNOWN')),
    ];
    expect([...values].sort((a, b) => b - a)).toEqual(values);
    expect(values.at(-1)).toBe(0);
    expect(lessonValue({ kind: 'fact', type: 'heuristic', metadata: { corrected: true } })).toBe(0);
  });

  it('makes a relevant corrected failure outrank an equally relevant success, but never an irrelevant one', () => {
    const failed = episodeCandidate(episode({ id: 'eps_f', outcome: 'FAILURE', corrections: ['not X'] }), 0.8);
    const succeeded = episodeCandidate(episode({ id: 'eps_s', outcome: 'SUCCESS' }), 0.8);
    expect(failed.scores.final).toBeGreaterThan(succeeded.scores.final);
    expect(failed.scores.outcome).toBeCloseTo(OUTCOME_WEIGHT * 0.8 * 1, 10);
    const irrelevantFailure = episodeCandidate(episode({ id: 'eps_i', outcome: 'FAILURE', corrections: ['not X'] }), 0);
    expect(irrelevantFailure.scores.outcome).toBe(0);
    expect(irrelevantFailure.scores.final).toBeLessThan(succeeded.scores.final);
  });

  it('scales a learned fact by its confidence, leaves written facts alone', () => {
    const at = (type: string, confidence: number) =>
      scoreCandidate(makeDoc({ text: 'x', kind: 'fact', type, confidence }), { vector: 0.6, lexical: null, relevance: 0.6 }, scoring, T0).final;
    expect(at('heuristic', 0.4)).toBeLessThan(at('heuristic', 0.9));
    // Written facts: only the small confidence term moves.
    expect(at('fact', 0.9) - at('fact', 0.4)).toBeCloseTo(scoring.weights.confidence * 0.5, 10);
  });
});

describe('rendering episodes and facts', () => {
  it('leads every episode with its outcome label and adds what the summary leaves out', () => {
    const e = episode({
      id: 'eps_1',
      outcome: 'FAILURE',
      summary: 'Billing ETL failed with OOM. Tried: more memory.',
      rootCause: 'skewed join key',
      assumptions: ['input volume grew'],
      corrections: ['Was actually join key skew, not input volume'],
    });
    expect(episodeBody(e)).toBe(
      '[OUTCOME: FAILURE] Billing ETL failed with OOM. Tried: more memory. Root cause: skewed join key. Initial assumption: input volume grew. Correction: Was actually join key skew, not input volume.',
    );
    const c = episodeCandidate(e, 0.5);
    expect(itemBody(c)).toBe(episodeBody(e));
    // Nothing is repeated when the summary already says it.
    const said = episode({ id: 'eps_2', outcome: 'SUCCESS', summary: 'Fixed it. Outcome: SUCCESS — root cause: bad config.', rootCause: 'bad config' });
    expect(episodeBody(said)).toBe('[OUTCOME: SUCCESS] Fixed it. Outcome: SUCCESS — root cause: bad config.');
  });

  it('a case that stands for a recurring cause says how many cases, in the text and on the episode view', () => {
    const e = episode({ id: 'eps_5', outcome: 'FAILURE', summary: 'Checkout timed out.', rootCause: 'connection pool exhausted' });
    expect(episodeBody(e, 3)).toBe('[OUTCOME: FAILURE] Checkout timed out. Root cause: connection pool exhausted. Recurring cause: 3 similar cases.');
    // One case is no recurrence.
    expect(episodeBody(e, 1)).toBe(episodeBody(e));
    const c = { ...episodeCandidate(e, 0.5), cases: 3 };
    expect(itemBody(c)).toContain('Recurring cause: 3 similar cases.');
    expect(episodeView(e, [], 3).recurringCases).toBe(3);
    expect(episodeView(e, []).recurringCases).toBeUndefined();
  });

  it('says the outcome, an action and a correction once', () => {
    const e = episode({
      id: 'eps_3',
      outcome: 'FAILURE',
      summary:
        'Updated session.test.ts to use SESSION_TTL_SECONDS. Tried: Updated session.test.ts to use SESSION_TTL_SECONDS. Outcome: FAILURE — root cause: It was the OpenSSL legacy provider. Correction: It was the OpenSSL legacy provider, not the test runner.',
      rootCause: 'It was the OpenSSL legacy provider',
      assumptions: ['the test runner'],
      corrections: ['It was the OpenSSL legacy provider, not the test runner'],
    });
    const body = episodeBody(e);
    expect(body).toBe(
      '[OUTCOME: FAILURE] Updated session.test.ts to use SESSION_TTL_SECONDS. Correction: It was the OpenSSL legacy provider, not the test runner.',
    );
    const bare = episode({ id: 'eps_4', outcome: 'FAILURE', summary: 'Outcome: FAILURE. Outcome: FAILURE. Correction: use the v2 API. Correction: use the v2 API.', corrections: ['use the v2 API'] });
    expect(episodeBody(bare)).toBe('[OUTCOME: FAILURE] Correction: use the v2 API.');
    expect(episodeBody(bare).match(/FAILURE/g)).toHaveLength(1);
  });

  it('shows a learned fact with confidence, evidence counts and version', () => {
    const f = makeFact({ text: 'When X, check Y.', kind: 'heuristic', confidence: 0.4444, supportCount: 2, contradictCount: 4, version: 2 });
    expect(factBody(f, f.text)).toBe('When X, check Y. (confidence 0.44; supported by 2 episodes, contradicted by 4; v2)');
    const plain = makeFact({ text: 'The office is in Lyon.', supportCount: 1 });
    expect(factBody(plain, plain.text)).toBe('The office is in Lyon.');
  });
});

describe('counter-example slot', () => {
  const f1 = episodeCandidate(episode({ id: 'eps_f1', outcome: 'FAILURE' }), 0.9);
  const f2 = episodeCandidate(episode({ id: 'eps_f2', outcome: 'FAILURE' }), 0.8);
  const s1 = episodeCandidate(episode({ id: 'eps_s1', outcome: 'SUCCESS' }), 0.5);
  const s2 = episodeCandidate(episode({ id: 'eps_s2', outcome: 'SUCCESS' }), 0.1);
  const u = episodeCandidate(episode({ id: 'eps_u', outcome: 'UNKNOWN' }), 0.9);

  it('is the best episode whose outcome differs from the majority selected, and relevant enough', () => {
    expect(majorityOutcome([f1, f2, s1])).toBe('FAILURE');
    expect(pickCounterExample([f1, f2], [f1, f2, s1, s2, u])?.doc.refId).toBe('eps_s1');
    expect(pickCounterExample([f1, f2], [f1, f2, s2])).toBeUndefined();
    expect(pickCounterExample([u], [u, s1])).toBeUndefined();
  });

  it('never takes the best selected item: the answer stays at the top, the next one that went the other way is the counter-example', () => {
    const top = episodeCandidate(episode({ id: 'eps_top', outcome: 'SUCCESS' }), 0.95);
    const s3 = episodeCandidate(episode({ id: 'eps_s3', outcome: 'SUCCESS' }), 0.4);
    expect(majorityOutcome([top, f1, f2])).toBe('FAILURE');
    expect(pickCounterExample([top, f1, f2], [top, f1, f2, s3])?.doc.refId).toBe('eps_s3');
    expect(pickCounterExample([top, f1, f2], [top, f1, f2])).toBeUndefined();
  });

  it('is admitted before anything else and survives a budget too small for the rest', () => {
    const { specs } = resolveSections(['semantic'], {});
    const counter = { ...s1, role: 'counter_example' as const };
    const all = [...specs, COUNTER_EXAMPLE_SECTION];
    const sections = all.map((spec) => ({ spec, items: [f1, f2, counter].filter((c) => spec.accepts(c)) }));
    const counterLine = `## ${COUNTER_EXAMPLE_SECTION.title}\n<memory>\n- ${itemBody(counter)} [episode:SUCCESS · 2025-09-20]\n</memory>`;
    const budget = tokens.count(counterLine) + 2;
    const withSlot = fitBudget({ sections, notes: [], budget, tokens, render: { provenanceInline: true }, reserved: new Set(['eps_s1']) });
    expect(withSlot.sections.flatMap((s) => s.entries.map((e) => e.candidate.doc.refId))).toEqual(['eps_s1']);
    expect(withSlot.text).toBe(counterLine);
    const without = fitBudget({ sections, notes: [], budget, tokens, render: { provenanceInline: true } });
    expect(without.sections.flatMap((s) => s.entries.map((e) => e.candidate.doc.refId))).not.toContain('eps_s1');
  });

  it('admits a causal-chain line only when one of its episodes is in and it fits', () => {
    const { specs } = resolveSections(['semantic'], {});
    const sections = specs.map((spec) => ({ spec, items: [f1].filter((c) => spec.accepts(c)) }));
    const chains = [
      { text: 'A [FAILURE] → B [SUCCESS]', episodeIds: ['eps_f1', 'eps_x'] },
      { text: 'C [FAILURE] → D [SUCCESS]', episodeIds: ['eps_c', 'eps_d'] },
    ];
    const r = fitBudget({ sections, notes: [], budget: 1000, tokens, render: { provenanceInline: false }, chains });
    expect(r.chains).toEqual([0]);
    expect(r.text.endsWith('## Causal chain\n<memory>\n- A [FAILURE] → B [SUCCESS]\n</memory>')).toBe(true);
    const alone = `## Relevant memory\n<memory>\n- ${itemBody(f1)}\n</memory>`;
    const tight = fitBudget({ sections, notes: [], budget: tokens.count(alone), tokens, render: { provenanceInline: false }, chains });
    expect(tight.chains).toEqual([]);
    expect(tokens.count(tight.text)).toBeLessThanOrEqual(tokens.count(alone));
  });
});
