import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenarioFile } from './format.js';
import { appliesRecurringCause, correctedCauseTerms, isCorrect, isRecurringRound, keywordHits } from './score.js';

const POOL = ['alpha beta', 'gamma'];
const round = (correct: string[], incorrect: string[]) => ({ correct_keywords: correct, incorrect_keywords: incorrect });

describe('isCorrect (the prototype _is_correct)', () => {
  it('any incorrect keyword makes the decision wrong, even when a correct one is present too', () => {
    expect(isCorrect('Investigate: delta and gamma', round(['delta'], ['gamma']), POOL)).toBe(false);
  });

  it('with correct keywords, it is correct iff any of them is a substring', () => {
    expect(isCorrect('Investigate: the deltas', round(['delta', 'epsilon'], []), POOL)).toBe(true);
    expect(isCorrect('Investigate: gamma', round(['delta', 'epsilon'], []), POOL)).toBe(false);
  });

  it('without correct keywords, it falls back to the pool patterns', () => {
    expect(isCorrect('Investigate: Alpha Beta exhaustion', round([], []), POOL)).toBe(true);
    expect(isCorrect('Investigate: alpha, beta', round([], []), POOL)).toBe(false);
    expect(isCorrect('Investigate: anything', round([], []), [])).toBe(false);
  });

  it('is case-insensitive on the decision and the keywords', () => {
    expect(isCorrect('INVESTIGATE: DELTA', round(['Delta'], []), POOL)).toBe(true);
    expect(isCorrect('investigate: gamma', round(['delta'], ['GAMMA']), POOL)).toBe(false);
  });

  it('a decision that names the true cause scores correct in every round of the repository\'s scenarios', async () => {
    const paths = [join(import.meta.dirname, 'fixtures', 'clock-skew.json'), join(import.meta.dirname, 'fixtures', 'rate-limits.json'), join(import.meta.dirname, 'fixtures', 'disk-pressure.json')];
    for (const path of paths) {
      const s = await loadScenarioFile(path);
      for (const r of s.rounds) expect(isCorrect(`Investigate: ${r.actual_root_cause}`, r, s.pool_patterns), `${path} round ${r.round_num}`).toBe(true);
    }
  });
});

describe('round judgements', () => {
  it('recurring rounds are those whose true cause names a pool pattern; applications are decisions that name one', () => {
    const s = { pool_patterns: POOL };
    expect(isRecurringRound({ actual_root_cause: 'Gamma ran out' }, s)).toBe(true);
    expect(isRecurringRound({ actual_root_cause: 'Delta misconfigured' }, s)).toBe(false);
    expect(appliesRecurringCause('Investigate: alpha beta', s)).toBe(true);
    expect(appliesRecurringCause('Investigate: delta', s)).toBe(false);
  });

  it('the corrected cause is the incorrect keywords, else the assumption', () => {
    expect(correctedCauseTerms({ incorrect_keywords: ['gamma'], assumption: 'delta' })).toEqual(['gamma']);
    expect(correctedCauseTerms({ incorrect_keywords: [], assumption: 'Delta Drift' })).toEqual(['delta drift']);
    expect(correctedCauseTerms({ incorrect_keywords: [], assumption: '' })).toEqual([]);
  });

  it('keyword hits count expected keywords found in context + decision', () => {
    expect(keywordHits('Context: Alpha. Investigate: beta', { expected_keywords: ['alpha', 'beta', 'gamma'] })).toBe(2);
  });
});
