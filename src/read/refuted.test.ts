import { describe, expect, it } from 'vitest';
import { candidate, factCandidate, makeDoc, makeFact } from './fixtures.test-support.js';
import { isRefutedRule, withoutRefutedRules } from './refuted.js';
import type { Candidate } from './types.js';

const closedCase = (id: string): Candidate => candidate(makeDoc({ kind: 'episode', refId: id, text: `episode ${id}`, type: 'FAILURE' }));
const rule = (id: string, kind: string, supportCount: number, contradictCount: number): Candidate =>
  factCandidate(makeFact({ id, text: `rule ${id}`, kind: kind as never, supportCount, contradictCount }));
const ids = (cs: Candidate[]) => cs.map((c) => c.doc.refId);

describe('isRefutedRule', () => {
  it('a learned rule contradicted at least as often as supported is refuted', () => {
    expect(isRefutedRule(rule('a', 'insight', 1, 1))).toBe(true);
    expect(isRefutedRule(rule('b', 'heuristic', 0, 1))).toBe(true);
    expect(isRefutedRule(rule('c', 'heuristic', 3, 1))).toBe(false);
    expect(isRefutedRule(rule('d', 'insight', 2, 0))).toBe(false);
  });

  it('only learned rules: a stated fact with contradictions is not one, nor a fact without its record', () => {
    expect(isRefutedRule(rule('e', 'fact', 0, 2))).toBe(false);
    expect(isRefutedRule(rule('p', 'preference', 1, 3))).toBe(false);
    const bare = candidate(makeDoc({ kind: 'fact', refId: 'x', text: 'rule x', type: 'heuristic' }));
    expect(isRefutedRule(bare)).toBe(false);
  });
});

describe('withoutRefutedRules', () => {
  it('with a closed case among the candidates, refuted rules leave and the rest stay in order', () => {
    const pool = [closedCase('ep1'), rule('bad', 'insight', 1, 1), rule('good', 'heuristic', 3, 0), closedCase('ep2')];
    expect(ids(withoutRefutedRules(pool))).toEqual(['ep1', 'good', 'ep2']);
  });

  it('with no closed case to speak instead, a refuted rule stays', () => {
    const open = candidate(makeDoc({ kind: 'episode', refId: 'open', text: 'episode open', type: 'UNKNOWN' }));
    const pool = [open, rule('bad', 'heuristic', 0, 2)];
    expect(ids(withoutRefutedRules(pool))).toEqual(['open', 'bad']);
  });
});
