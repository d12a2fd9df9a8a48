import { describe, expect, it } from 'vitest';
import { candidate, makeDoc } from './fixtures.test-support.js';
import { causeGroups, sameCause, SAME_CAUSE_COSINE, withCounts } from './recurrence.js';
import type { Candidate } from './types.js';

function episode(id: string, final: number, type = 'FAILURE'): Candidate {
  return candidate(makeDoc({ kind: 'episode', refId: id, text: `episode ${id}`, type }), { scores: { relevance: final }, final });
}

const causes: Record<string, string> = {
  a: 'Database connection pool too small for peak traffic.',
  b: 'The connection pool was exhausted at peak hours.',
  c: 'Connection pool to the cache saturated at peak load.',
  herring: 'A query added by the release scans the whole orders table.',
};
const causeOf = (id: string) => causes[id];

describe('causeGroups', () => {
  it('groups the cases whose causes say the same thing, each with itself', () => {
    const g = causeGroups([episode('a', 0.9), episode('b', 0.8), episode('c', 0.7), episode('herring', 0.6)], causeOf);
    expect(g.get('a')!.sort()).toEqual(['a', 'b', 'c']);
    expect(g.get('herring')).toEqual(['herring']);
  });

  it('is not transitive: a chain of look-alikes does not join the ends', () => {
    const chain: Record<string, string> = { x: 'alpha beta gamma', y: 'beta gamma delta epsilon', z: 'delta epsilon zeta' };
    const g = causeGroups([episode('x', 0.9), episode('y', 0.8), episode('z', 0.7)], (id) => chain[id]);
    expect(g.get('y')!.sort()).toEqual(['x', 'y', 'z']);
    expect(g.get('x')!.sort()).toEqual(['x', 'y']);
    expect(g.get('z')!.sort()).toEqual(['y', 'z']);
  });

  it('an unknown cause is a group of one', () => {
    const g = causeGroups([episode('a', 0.9), episode('nocause', 0.8)], causeOf);
    expect(g.get('nocause')).toEqual(['nocause']);
    expect(g.get('a')).toEqual(['a']);
  });
});

describe('sameCause', () => {
  it('shared specific words, or embeddings at least SAME_CAUSE_COSINE close', () => {
    expect(sameCause(causes.a!, causes.b!)).toBe(true);
    expect(sameCause(causes.a!, causes.herring!)).toBe(false);
    const v = (x: number, y: number) => new Float32Array([x, y]);
    const near = new Map([[causes.a!, v(1, 0)], [causes.herring!, v(SAME_CAUSE_COSINE + 0.01, Math.sqrt(1 - (SAME_CAUSE_COSINE + 0.01) ** 2))]]);
    expect(sameCause(causes.a!, causes.herring!, (t) => near.get(t))).toBe(true);
    const far = new Map([[causes.a!, v(1, 0)], [causes.herring!, v(0.5, Math.sqrt(0.75))]]);
    expect(sameCause(causes.a!, causes.herring!, (t) => far.get(t))).toBe(false);
  });
});

describe('withCounts', () => {
  it('the first-ranked case of a recurring cause carries the count; the others and single causes do not', () => {
    const pool = [episode('herring', 0.95), episode('b', 0.8), episode('a', 0.9), episode('c', 0.7)];
    const out = withCounts(pool, causeGroups(pool, causeOf));
    const cases = Object.fromEntries(out.map((c) => [c.doc.refId, c.cases]));
    expect(cases).toEqual({ herring: undefined, a: 3, b: undefined, c: undefined });
    // The order is left as it was.
    expect(out.map((c) => c.doc.refId)).toEqual(['herring', 'b', 'a', 'c']);
  });

  it('counts the cases a collapse left out: the one that stays stands for them', () => {
    const pool = [episode('a', 0.9), episode('b', 0.8), episode('c', 0.7)];
    const groups = causeGroups(pool, causeOf);
    const out = withCounts([pool[0]!], groups);
    expect(out[0]!.cases).toBe(3);
  });

  it('episodes without a known outcome are no cases', () => {
    const pool = [episode('a', 0.9, 'UNKNOWN'), episode('b', 0.8, 'UNKNOWN')];
    expect(withCounts(pool, causeGroups(pool, causeOf)).every((c) => c.cases === undefined)).toBe(true);
  });
});
