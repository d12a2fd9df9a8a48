import { describe, expect, it } from 'vitest';
import { candidate, makeDoc } from './fixtures.test-support.js';
import { applySituation, CHANGE_MISMATCH } from './situation.js';
import type { Candidate } from './types.js';

function episode(id: string, relevance: number): Candidate {
  return candidate(makeDoc({ kind: 'episode', refId: id, text: `episode ${id}` }), { scores: { relevance }, final: relevance });
}

const rescore = (_c: Candidate, relevance: number) => relevance;

describe('applySituation', () => {
  const eps = [episode('a', 0.6), episode('b', 0.7), episode('c', 0.5)];
  // a started from a report of trouble after a change; b and c did not; d's situation is unknown.
  const changes = new Map([['a', true], ['b', false], ['c', false]]);

  it('when the query says its trouble followed a change, situations without one fall behind', () => {
    const out = applySituation([...eps, episode('d', 0.4)], changes, true, rescore);
    const rel = new Map(out.map((x) => [x.doc.refId, x.scores.relevance!]));
    expect(rel.get('a')).toBe(0.6);
    expect(rel.get('b')).toBeCloseTo(0.7 * CHANGE_MISMATCH, 9);
    expect(rel.get('a')!).toBeGreaterThan(rel.get('b')!);
    expect(rel.get('d')).toBe(0.4);
    expect(out.map((x) => x.scores.final)).toEqual(out.map((x) => x.scores.relevance));
  });

  it('a query that does not mention a change leaves every episode, and other kinds always, as they were', () => {
    expect(applySituation(eps, changes, false, rescore).map((x) => x.scores.relevance)).toEqual([0.6, 0.7, 0.5]);
    const fact = candidate(makeDoc({ kind: 'fact', refId: 'b', text: 'a fact' }), { scores: { relevance: 0.7 }, final: 0.7 });
    expect(applySituation([fact], changes, true, rescore)[0]).toBe(fact);
  });
});
