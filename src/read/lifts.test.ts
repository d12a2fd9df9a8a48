import { describe, expect, it } from 'vitest';
import { isLift, LIFT_NAMES, liftsOf, liftTotal, withoutLifts } from './lifts.js';
import type { ScoreBreakdown } from './types.js';

const base: ScoreBreakdown = { vector: 0.5, lexical: null, relevance: 0.5, recency: 0.2, importance: 0.3, confidence: 0.4, rerank: null, outcome: null, final: 0.7 };

describe('the lifts registry', () => {
  it('names the parts after the weighted sum in the order they add up', () => {
    expect(LIFT_NAMES).toEqual(['graph', 'superseded', 'corrected', 'situation', 'findings']);
    expect(isLift('situation')).toBe(true);
    expect(isLift('relevance')).toBe(false);
    expect(isLift('toString')).toBe(false);
  });

  it('keeps the lifts that applied, in registry order, and splits them from the rest', () => {
    const s: ScoreBreakdown = { ...base, findings: -0.01, graph: null, corrected: 0.05, situation: undefined };
    expect(Object.entries(liftsOf(s))).toEqual([
      ['corrected', 0.05],
      ['findings', -0.01],
    ]);
    expect(withoutLifts(s)).toEqual(base);
    expect(liftTotal(s)).toBeCloseTo(0.04, 12);
    expect(liftTotal(base)).toBe(0);
  });
});
