import { describe, expect, it } from 'vitest';
import type { Episode } from '../core/types.js';
import { candidate, makeDoc } from './fixtures.test-support.js';
import { correctionsAboveOverturned, CORRECTED_RATIO, mistakenOf, overturns } from './corrected.js';
import type { Candidate } from './types.js';

function item(id: string, relevance: number, final = relevance): Candidate {
  return candidate(makeDoc({ kind: 'episode', refId: id, text: `episode ${id}`, type: 'FAILURE' }), { scores: { relevance }, final });
}

function episode(id: string, startSeq: number, rootCause: string, corrections: string[] = [], assumptions: string[] = []): Episode {
  return { id, startSeq, rootCause, corrections, assumptions } as unknown as Episode;
}

const order = (out: Candidate[]) => [...out].sort((a, b) => b.scores.final - a.scores.final).map((c) => c.doc.refId);

const episodes = new Map([
  ['old', episode('old', 1, 'The daily rollup buckets orders by UTC date instead of the local day.')],
  ['other', episode('other', 2, 'The extractor was throttled by the API rate limit.')],
  [
    'corrected',
    episode('corrected', 5, 'The provider reports by payout date while the mart counts by order date.', ['Not the UTC day boundary: the provider groups by payout date.'], ['a UTC day boundary']),
  ],
]);
const of = (id: string) => episodes.get(id);

describe('mistakenOf / overturns', () => {
  it('reads what the correction and the assumption held, and the cause that names it', () => {
    const mistaken = mistakenOf(['Not the UTC day boundary: the provider groups by payout date.'], ['a late file']);
    expect([...mistaken]).toEqual(expect.arrayContaining(['utc', 'day', 'boundary', 'lat', 'fil']));
    const boundary = mistakenOf([], ['a UTC day boundary']);
    expect(overturns(boundary, episodes.get('old')!.rootCause)).toBe(true);
    expect(overturns(boundary, episodes.get('other')!.rootCause)).toBe(false);
    // Most of what was held must be named: two words of five are not enough.
    expect(overturns(mistaken, episodes.get('old')!.rootCause)).toBe(false);
    expect(overturns(new Set(), 'anything')).toBe(false);
  });
});

describe('correctionsAboveOverturned', () => {
  it('a corrected case about as close as the earlier case it overturned ranks just above it', () => {
    const pool = [item('old', 0.5, 0.9), item('corrected', 0.5 * CORRECTED_RATIO + 0.01, 0.85), item('other', 0.3, 0.6)];
    expect(order(correctionsAboveOverturned(pool, of))).toEqual(['corrected', 'old', 'other']);
  });

  it('names its lift in the breakdown: the final score is the score before plus `corrected`', () => {
    const pool = [item('old', 0.5, 0.9), item('corrected', 0.5, 0.85), item('other', 0.3, 0.6)];
    const out = correctionsAboveOverturned(pool, of);
    const lifted = out.find((c) => c.doc.refId === 'corrected')!;
    expect(lifted.scores.corrected).toBeCloseTo(0.05, 5);
    expect(lifted.scores.final).toBeCloseTo(0.85 + lifted.scores.corrected!, 12);
    expect(lifted.scores.final).toBeGreaterThan(0.9);
    // The others were not lifted and carry no such field.
    expect(out.filter((c) => c !== lifted).map((c) => c.scores.corrected ?? null)).toEqual([null, null]);
  });

  it('a corrected case much less relevant, or one whose correction names no earlier case, stays where it was', () => {
    const far = [item('old', 0.5, 0.9), item('corrected', 0.5 * CORRECTED_RATIO - 0.05, 0.85)];
    expect(order(correctionsAboveOverturned(far, of))).toEqual(['old', 'corrected']);
    const unrelated = [item('other', 0.5, 0.9), item('corrected', 0.5, 0.85)];
    expect(order(correctionsAboveOverturned(unrelated, of))).toEqual(['other', 'corrected']);
  });

  it('a later case is never overturned by an earlier correction, and scores are never lowered', () => {
    const later = new Map([
      ['old', episode('old', 9, 'The daily rollup buckets orders by UTC date instead of the local day.')],
      ['corrected', episodes.get('corrected')!],
    ]);
    const pool = [item('old', 0.5, 0.9), item('corrected', 0.5, 0.85)];
    const out = correctionsAboveOverturned(pool, (id) => later.get(id));
    expect(out.map((c) => c.scores.final)).toEqual([0.9, 0.85]);
  });
});
