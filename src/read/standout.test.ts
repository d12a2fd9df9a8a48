import { describe, expect, it } from 'vitest';
import { candidate, makeDoc } from './fixtures.test-support.js';
import { collapseBehindStandout, saysCause, STANDOUT_RATIO } from './standout.js';
import type { Candidate } from './types.js';

/** A closed episode (outcome FAILURE) or a learned rule (a heuristic fact). */
function item(kind: 'episode' | 'fact', id: string, relevance: number, final = relevance, type = kind === 'episode' ? 'FAILURE' : 'heuristic'): Candidate {
  return candidate(makeDoc({ kind, refId: id, text: `${kind} ${id}`, type }), { scores: { relevance }, final });
}
const ids = (out: Candidate[]) => out.map((c) => c.doc.refId);

describe('collapseBehindStandout', () => {
  it('one episode clearly closest: the look-alikes behind it, episodes and facts, count once (the strongest stays)', () => {
    const pool = [item('episode', 'lesson', 0.6), item('episode', 'r1', 0.4), item('fact', 'f', 0.2), item('episode', 'r2', 0.38), item('episode', 'r3', 0.3)];
    expect(ids(collapseBehindStandout(pool))).toEqual(['lesson', 'r1']);
  });

  it('only what outcomes taught is a case: episodes without an outcome and stated facts are untouched', () => {
    const pool = [item('episode', 'a', 0.6, 0.6, 'UNKNOWN'), item('episode', 'b', 0.2, 0.2, 'UNKNOWN'), item('episode', 'c', 0.2, 0.2, 'UNKNOWN')];
    expect(ids(collapseBehindStandout(pool))).toEqual(['a', 'b', 'c']);
    const stated = [item('episode', 'lesson', 0.6), item('episode', 'r1', 0.4), item('episode', 'r2', 0.3), item('fact', 'pref', 0.1, 0.1, 'preference'), item('fact', 'said', 0.1, 0.1, 'fact')];
    expect(ids(collapseBehindStandout(stated))).toEqual(['lesson', 'r1', 'pref', 'said']);
  });

  it('other kinds are no cases and stay; a fact as close as the best episode keeps every case', () => {
    const event = candidate(makeDoc({ kind: 'event', refId: 'ev', text: 'an event' }), { scores: { relevance: 0.1 }, final: 0.1 });
    const pool = [item('episode', 'lesson', 0.6), item('episode', 'r1', 0.4), item('episode', 'r2', 0.38), event];
    expect(ids(collapseBehindStandout(pool))).toEqual(['lesson', 'r1', 'ev']);
    const close = [...pool, item('fact', 'f', 0.55)];
    expect(ids(collapseBehindStandout(close))).toEqual(ids(close));
  });

  it('a near tie keeps every case: how many agree is then the evidence', () => {
    const pool = [item('episode', 'a', 0.6), item('episode', 'b', 0.6 * STANDOUT_RATIO + 0.01), item('episode', 'c', 0.2), item('episode', 'd', 0.2)];
    expect(ids(collapseBehindStandout(pool))).toEqual(['a', 'b', 'c', 'd']);
  });

  it('the best is the best by final score, the gap is read on relevance', () => {
    // b leads on final (e.g. its outcome) but a is far more relevant: no episode stands out over the leader.
    const pool = [item('episode', 'a', 0.8, 0.7), item('episode', 'b', 0.4, 0.9), item('episode', 'c', 0.1, 0.1)];
    expect(ids(collapseBehindStandout(pool))).toEqual(['a', 'b', 'c']);
  });

  it('fewer than three episodes, or none relevant: nothing to collapse', () => {
    const two = [item('episode', 'a', 0.9), item('episode', 'b', 0.1), item('fact', 'f', 0.1)];
    expect(ids(collapseBehindStandout(two))).toEqual(['a', 'b', 'f']);
    const zero = [item('episode', 'a', 0), item('episode', 'b', 0), item('episode', 'c', 0)];
    expect(ids(collapseBehindStandout(zero))).toEqual(['a', 'b', 'c']);
  });

  it('cases that say the best episode\'s own cause are no counter-vote and stay', () => {
    const causes: Record<string, string> = {
      lesson: 'Database connection pool too small for peak traffic.',
      same: 'The connection pool was exhausted at peak hours.',
      other1: 'A query added by the release scans the whole orders table.',
      other2: 'A missing index made the orders query scan the table.',
    };
    const pool = [item('episode', 'lesson', 0.6), item('episode', 'other1', 0.4), item('episode', 'same', 0.35), item('episode', 'other2', 0.3)];
    expect(ids(collapseBehindStandout(pool, (id) => causes[id]))).toEqual(['lesson', 'other1', 'same']);
    // Without the best episode's cause, every case behind it is another cause's.
    expect(ids(collapseBehindStandout(pool, (id) => (id === 'lesson' ? undefined : causes[id])))).toEqual(['lesson', 'other1']);
  });
});

describe('saysCause', () => {
  it('most of the shorter cause\'s specific words, and at least two', () => {
    expect(saysCause('Connection pool saturated at peak hours', 'Database connection pool exhausted under peak load')).toBe(true);
    expect(saysCause('Intended public bucket for static website assets', 'A module default (public-read ACL) made the new bucket public')).toBe(false);
    expect(saysCause('Pool exhausted', 'The connection pool was fine')).toBe(false);
  });
});
