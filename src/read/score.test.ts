import { describe, expect, it } from 'vitest';
import { parseContextConfig } from '../core/config.js';
import { candidate, DAY, HOUR, makeDoc, T0 } from './fixtures.test-support.js';
import { atRelevance, docScore, generativeScore, recencyScore, scoreCandidate } from './score.js';

const scoring = parseContextConfig({}).scoring;

describe('recencyScore', () => {
  it('halves every half-life and is 1 for now or the future', () => {
    expect(recencyScore(T0, T0, 72)).toBe(1);
    expect(recencyScore(T0 + HOUR, T0, 72)).toBe(1);
    expect(recencyScore(T0 - 72 * HOUR, T0, 72)).toBeCloseTo(0.5, 12);
    expect(recencyScore(T0 - 144 * HOUR, T0, 72)).toBeCloseTo(0.25, 12);
  });

  it("matches seed 002's 0.99^hours at a half-life of ln 0.5 / ln 0.99 hours", () => {
    const halfLife = Math.log(0.5) / Math.log(0.99);
    expect(recencyScore(T0 - 30 * HOUR, T0, halfLife)).toBeCloseTo(0.99 ** 30, 10);
  });
});

describe('generativeScore', () => {
  it('is the weighted sum of relevance, recency, importance and confidence', () => {
    const s = { ...scoring, weights: { relevance: 2, recency: 0.5, importance: 0.25, confidence: 0.1 }, recency_half_life_hours: 24 };
    const r = generativeScore({ relevance: 0.8, ts: T0 - DAY, importance: 0.4, confidence: 0.9 }, s, T0);
    expect(r.recency).toBeCloseTo(0.5, 12);
    expect(r.final).toBeCloseTo(2 * 0.8 + 0.5 * 0.5 + 0.25 * 0.4 + 0.1 * 0.9, 12);
  });

  it('treats a missing relevance as 0 but keeps it null in the breakdown', () => {
    const r = generativeScore({ relevance: null, ts: T0, importance: 0, confidence: 0 }, scoring, T0);
    expect(r.relevance).toBeNull();
    expect(r.final).toBeCloseTo(scoring.weights.recency, 12);
  });

  it('applies the route recency factor and kind boost', () => {
    const base = generativeScore({ relevance: 0.5, ts: T0, importance: 0.5, confidence: 0.5 }, scoring, T0);
    const boosted = generativeScore({ relevance: 0.5, ts: T0, importance: 0.5, confidence: 0.5 }, scoring, T0, { boost: 1.2, recencyFactor: 2 });
    expect(boosted.final).toBeCloseTo((base.final + scoring.weights.recency) * 1.2, 12);
  });

  it('clamps out-of-range inputs so one bad field cannot dominate', () => {
    const r = generativeScore({ relevance: 7, ts: T0, importance: -3, confidence: Number.NaN }, scoring, T0);
    expect([r.relevance, r.importance, r.confidence]).toEqual([1, 0, 0]);
  });
});

describe('scoreCandidate', () => {
  it('carries the fused signals into the breakdown', () => {
    const b = scoreCandidate({ ts: T0, importance: 0.5, confidence: 1 }, { vector: 0.7, lexical: 0.2, relevance: 0.76 }, scoring, T0);
    expect(b).toMatchObject({ vector: 0.7, lexical: 0.2, relevance: 0.76, rerank: null });
    expect(JSON.parse(JSON.stringify(b))).toEqual(b);
  });
});

describe('atRelevance', () => {
  const rescore = (c: Parameters<typeof atRelevance>[0], relevance: number) => docScore(c.doc, relevance, scoring, T0).final;

  it("restates an episode's outcome bonus with its new relevance, so the breakdown still accounts for final", () => {
    const doc = makeDoc({ kind: 'episode', type: 'FAILURE', refId: 'e', text: 'a failed case', ts: T0, metadata: { hasRootCause: true } });
    const before = candidate(doc, { scores: scoreCandidate(doc, { vector: null, lexical: null, relevance: 0.8 }, scoring, T0) });
    const after = atRelevance(before, 0.4, rescore);
    expect(after.relevance).toBe(0.4);
    expect(after.outcome).toBeCloseTo(before.scores.outcome! / 2, 12);
    expect(after).toEqual({ ...before.scores, ...docScore(doc, 0.4, scoring, T0) });
  });

  it('leaves the outcome of other kinds as it was', () => {
    const doc = makeDoc({ kind: 'event', refId: 'v', text: 'an event', ts: T0 });
    const before = candidate(doc, { scores: { relevance: 0.8, outcome: null } });
    expect(atRelevance(before, 0.4, rescore)).toMatchObject({ relevance: 0.4, outcome: null, final: rescore(before, 0.4) });
  });
});
