import { describe, expect, it } from 'vitest';
import { cosine } from '../learn/vector.js';
import { jaccard, mmrSelect, statesOtherValues, type MmrItem } from './mmr.js';
import { wordSet } from './text.js';
import { parseContextConfig } from '../core/config.js';

const vec = (...xs: number[]) => Float32Array.from(xs);

describe('cosine / jaccard', () => {
  it('computes cosine on unnormalised vectors and 0 for mismatched or zero ones', () => {
    expect(cosine(vec(1, 0), vec(2, 0))).toBeCloseTo(1, 12);
    expect(cosine(vec(1, 0), vec(0, 3))).toBeCloseTo(0, 12);
    expect(cosine(vec(1, 1), vec(1))).toBe(0);
    expect(cosine(vec(0, 0), vec(1, 0))).toBe(0);
  });

  it('computes token-set Jaccard', () => {
    expect(jaccard(wordSet('a b c'), wordSet('b c d'))).toBeCloseTo(2 / 4, 12);
    expect(jaccard(wordSet(''), wordSet(''))).toBe(0);
  });
});

describe('mmrSelect', () => {
  const items: MmrItem[] = [
    { key: 'a', score: 1.0, text: 'x', vector: vec(1, 0, 0) },
    { key: 'a-copy', score: 0.98, text: 'y', vector: vec(0.99, 0.14, 0) },
    { key: 'b', score: 0.8, text: 'z', vector: vec(0, 1, 0) },
    { key: 'c', score: 0.5, text: 'w', vector: vec(0, 0, 1) },
  ];

  it('with λ = 1 is plain ranking', () => {
    expect(mmrSelect(items, 3, 1).map((i) => i.key)).toEqual(['a', 'a-copy', 'b']);
  });

  it('skips a near-duplicate of what is already picked', () => {
    expect(mmrSelect(items, 3, 0.5).map((i) => i.key)).toEqual(['a', 'b', 'c']);
  });

  it('falls back to Jaccard when a vector is missing', () => {
    const texts: MmrItem[] = [
      { key: 'p1', score: 1, text: 'rollback requires on-call approval in prod' },
      { key: 'p2', score: 0.95, text: 'rollback requires on-call approval in prod clusters', vector: vec(1, 0) },
      { key: 'q', score: 0.7, text: 'refunds for annual plans are prorated' },
    ];
    expect(mmrSelect(texts, 2, 0.6).map((i) => i.key)).toEqual(['p1', 'q']);
  });

  it('returns at most k items, each once, the best first', () => {
    const picked = mmrSelect(items, 10, 0.3);
    expect(picked).toHaveLength(4);
    expect(new Set(picked.map((i) => i.key)).size).toBe(4);
    expect(picked[0]!.key).toBe('a');
    expect(mmrSelect(items, 0, 0.5)).toEqual([]);
    expect(mmrSelect([], 3, 0.5)).toEqual([]);
  });
});

describe('near-duplicates', () => {
  const dup = { cosine: 0.6, jaccard: 0.35, textOnly: 0.6 };
  it('drops a paraphrase of a picked item but keeps facts that state other values', () => {
    const v = vec(1, 0.1, 0);
    const items: MmrItem[] = [
      { key: 'a', score: 1, text: 'Annual plans are refunded in full within 30 days.', vector: v },
      { key: 'a2', score: 0.95, text: 'Yearly plans get a full refund within 30 days.', vector: v },
      { key: 'b', score: 0.9, text: 'Monthly plans are not refunded.', vector: v },
      { key: 'c', score: 0.85, text: 'Erin speaks English.', vector: v },
      { key: 'd', score: 0.8, text: 'Erin speaks French.', vector: v },
    ];
    expect(mmrSelect(items, 5, 1, dup).map((i) => i.key)).toEqual(['a', 'b', 'c', 'd']);
    expect(mmrSelect(items, 5, 1).map((i) => i.key)).toEqual(['a', 'a2', 'b', 'c', 'd']);
  });

  it('tells values apart: numbers, names, negation', () => {
    expect(statesOtherValues('Refunds within 30 days.', 'Refunds within 14 days.')).toBe(true);
    expect(statesOtherValues('Erin lives in Berlin.', 'Erin lives in Munich.')).toBe(true);
    expect(statesOtherValues('Deploys run on Tuesdays.', 'Deploys do not run on Tuesdays.')).toBe(true);
    expect(statesOtherValues('The user prefers dark mode.', 'User likes the dark theme.')).toBe(false);
  });

  it('tells a substituted value apart from a rewording', () => {
    expect(statesOtherValues('The payments service deploys with blue-green.', 'The payments service deploys with canary.')).toBe(true);
    expect(statesOtherValues('The user likes dark mode.', 'The user really likes dark mode.')).toBe(false);
    expect(statesOtherValues('Annual plans are refunded in full.', 'Annual plans get a full refund.')).toBe(false);
  });
});

describe('the default MMR trade-off', () => {
  it('keeps a memory on the same topic as a pick ahead of a less relevant one about something else', () => {
    // b is not a near-duplicate of a (cosine 0.85, other words), only on its topic; c is about something else and less relevant.
    const items: MmrItem[] = [
      { key: 'a', score: 1.0, text: 'login timed out: pool capped at 5', vector: vec(1, 0, 0) },
      { key: 'b', score: 0.88, text: 'database upgrade deferred until load tests', vector: vec(0.85, Math.sqrt(1 - 0.85 ** 2), 0) },
      { key: 'c', score: 0.8, text: 'weekly team lunch on Fridays', vector: vec(0, 0, 1) },
    ];
    const lambda = parseContextConfig({}).diversity.mmr_lambda;
    expect(mmrSelect(items, 3, lambda).map((i) => i.key)).toEqual(['a', 'b', 'c']);
    // A stronger discount would push it behind: novelty outweighing a relevance gap of 0.08.
    expect(mmrSelect(items, 3, 0.9).map((i) => i.key)).toEqual(['a', 'c', 'b']);
  });
});
