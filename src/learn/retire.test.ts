import { describe, expect, it } from 'vitest';
import { conditionTrial, notDiscriminating, retireVerdict, type TrialCase } from './retire.js';

const kase = (id: string, report: string, sameCause: boolean): TrialCase => ({ id, report: new Set(report.split(' ')), sameCause });

describe('retiring a learned rule', () => {
  it('a condition met by reports of other causes as often as by its own does not discriminate', () => {
    // "When a report mentions orbit, check the expired credentials": every report names the product.
    const cases = [kase('a', 'orbit dashboard stale', false), kase('b', 'orbit search empty', false), kase('c', 'upload reject', true)];
    const t = conditionTrial(new Set(['orbit']), cases, 0.6);
    expect(t).toEqual({ matchedSame: [], matchedOther: ['a', 'b'], same: 1, other: 2 });
    expect(notDiscriminating(t, { minMatched: 2 })).toBe(true);
    expect(retireVerdict(t)?.reason).toBe('condition_not_discriminating');
  });

  it('keeps a rule whose condition is met more often by its own cause, or by too few reports of another', () => {
    const own = [kase('s1', 'orbit upload', true), kase('s2', 'orbit export', true), kase('s3', 'orbit sync', true)];
    const two = [kase('o1', 'orbit dashboard', false), kase('o2', 'orbit search', false), kase('o3', 'billing', false), kase('o4', 'login', false)];
    // 2 of 4 other-cause reports against 3 of 3 of its own: it discriminates.
    expect(notDiscriminating(conditionTrial(new Set(['orbit']), [...own, ...two], 0.6), { minMatched: 2 })).toBe(false);
    // One report of another cause is not enough.
    expect(notDiscriminating(conditionTrial(new Set(['orbit']), [two[0]!], 0.6), { minMatched: 2 })).toBe(false);
    // More of its own than of others among the matches: kept.
    expect(notDiscriminating(conditionTrial(new Set(['orbit']), [...own, two[0]!, two[1]!], 0.6), { minMatched: 2 })).toBe(false);
  });

  it('a condition of several words is met by a report that states enough of them', () => {
    const t = conditionTrial(new Set(['orbit', 'upload', 'reject']), [kase('a', 'orbit upload', false), kase('b', 'orbit', false)], 0.6);
    expect(t.matchedOther).toEqual(['a']);
  });

  it('gives no verdict on a trial with no reports', () => {
    expect(retireVerdict(conditionTrial(new Set(['orbit']), [], 0.6))).toBeUndefined();
  });
});
