import { describe, expect, it } from 'vitest';
import { createHeuristicReranker } from '../adapters/rerankers/heuristic.js';
import type { Reranker } from '../ports/reranker.js';
import { candidate, makeDoc } from './fixtures.test-support.js';
import { RERANK_BLEND, abstainedScore, adaptiveBlend, normaliseScores, rerankCandidates } from './rerank.js';
import type { Candidate } from './types.js';

const withRelevance = (text: string, relevance: number): Candidate =>
  candidate(makeDoc({ text }), { final: relevance, scores: { relevance } });

describe('normaliseScores', () => {
  it('keeps scores already in 0..1 as they are', () => {
    expect(normaliseScores([0.61, 0.6, 0.05])).toEqual([0.61, 0.6, 0.05]);
    expect(normaliseScores([0.3, Number.NaN])).toEqual([0.3, 0]);
  });

  it('min-max scales other scores (logits), maps ties to 0.5 and missing scores to 0', () => {
    expect(normaliseScores([2, 4, 3])).toEqual([0, 1, 0.5]);
    expect(normaliseScores([-1.5, 2.5])).toEqual([0, 1]);
    expect(normaliseScores([7, 7])).toEqual([0.5, 0.5]);
    expect(normaliseScores([1, Number.NaN, 3])).toEqual([0, 0, 1]);
    expect(normaliseScores([Number.NaN])).toEqual([0.5]);
  });
});

describe('adaptiveBlend', () => {
  const signals = (lexical: number, vector: number): Candidate => candidate(makeDoc({ text: 'x' }), { final: 0.5, scores: { lexical, vector, relevance: 0.5 } });

  it('gives the reranker its full share where lexical evidence carries the head, less where vectors do', () => {
    expect(adaptiveBlend(Array.from({ length: 10 }, () => signals(0.6, 0.4)))).toBe(RERANK_BLEND);
    expect(adaptiveBlend(Array.from({ length: 10 }, () => signals(0.5, 0.5)))).toBe(RERANK_BLEND);
    expect(adaptiveBlend(Array.from({ length: 10 }, () => signals(0.1, 0.9)))).toBeCloseTo(RERANK_BLEND * 0.2, 12);
    // Only the head counts: a lexical tail does not raise it.
    const head = [...Array.from({ length: 10 }, () => signals(0, 0.8)), ...Array.from({ length: 20 }, () => signals(1, 0))];
    expect(adaptiveBlend(head)).toBe(0);
  });

  it('keeps the fixed share when a signal did not run (lexical-only or no query vector)', () => {
    expect(adaptiveBlend([candidate(makeDoc({ text: 'x' }), { final: 0.5, scores: { lexical: 0.3, vector: null, relevance: 0.3 } })])).toBe(RERANK_BLEND);
  });
});

describe('rerankCandidates', () => {
  const query = 'how do we reset a user password';
  const ranked = [
    withRelevance('User accounts are stored in Postgres with bcrypt hashes.', 0.6),
    withRelevance('Our office wifi password rotates monthly.', 0.55),
    withRelevance('To reset a user password, send the reset link from the admin console.', 0.5),
    withRelevance('Unrelated note about lunch.', 0.1),
  ];
  const rescore = (_c: Candidate, relevance: number) => relevance;

  it('blends the normalised rerank score into relevance and re-sorts the window', async () => {
    const out = await rerankCandidates(createHeuristicReranker(), ranked, { query, window: 3, rescore });
    expect(out[0]!.doc.text).toMatch(/^To reset a user password/);
    for (const c of out.slice(0, 3)) {
      const before = ranked.find((r) => r.doc.refId === c.doc.refId)!.scores.relevance!;
      expect(c.scores.rerank).toBeGreaterThanOrEqual(0);
      expect(c.scores.rerank).toBeLessThanOrEqual(1);
      expect(c.scores.relevance).toBeCloseTo((1 - RERANK_BLEND) * before + RERANK_BLEND * c.scores.rerank!, 12);
      expect(c.scores.final).toBe(c.scores.relevance);
    }
    // Heuristic scores are already 0..1: passed through, so the best is not forced to 1.
    expect(out[0]!.scores.rerank).toBeGreaterThan(out[1]!.scores.rerank!);
  });

  it('keeps items beyond the window after the reranked ones, unscored by the reranker', async () => {
    const out = await rerankCandidates(createHeuristicReranker(), ranked, { query, window: 2, rescore });
    expect(out.slice(2).map((c) => c.doc.refId)).toEqual([ranked[2]!.doc.refId, ranked[3]!.doc.refId]);
    expect(out[2]!.scores.rerank).toBeNull();
  });

  it('passes the configured model through to the reranker', async () => {
    const models: (string | undefined)[] = [];
    const heuristic = createHeuristicReranker();
    const recording: Reranker = {
      name: 'recording',
      rerank: (q, cands, opts) => {
        models.push(opts?.model);
        return heuristic.rerank(q, cands, opts);
      },
    };
    await rerankCandidates(recording, ranked, { query, window: 4, model: 'cross_encoder_mini', rescore });
    expect(models).toEqual(['cross_encoder_mini']);
  });

  it('does not call the reranker for an empty window', async () => {
    let calls = 0;
    const counting: Reranker = { name: 'c', rerank: async () => (calls++, []) };
    expect(await rerankCandidates(counting, ranked, { query, window: 0, rescore })).toEqual(ranked);
    expect(calls).toBe(0);
  });
});

describe('the reranker abstains where it has no evidence', () => {
  const signals = (text: string, lexical: number | null, vector: number, relevance: number): Candidate =>
    candidate(makeDoc({ text }), { final: relevance, scores: { lexical, vector, relevance } });

  it('a candidate sharing no word with the query (lexical 0, rerank 0) takes the head level, capped at its own relevance', () => {
    expect(abstainedScore(signals('a', 0, 0.8, 0.8), 0, 0.3)).toBe(0.3);
    expect(abstainedScore(signals('a', 0, 0.2, 0.2), 0, 0.3)).toBe(0.2);
    // A word of next to no weight (a BM25 share of 1e-7) is no lexical evidence either.
    expect(abstainedScore(signals('a', 1e-7, 0.2, 0.2), 0, 0.3)).toBe(0.2);
    // A lexical match, a rerank score above 0, or no lexical signal at all: judged as the reranker says.
    expect(abstainedScore(signals('a', 0.1, 0.8, 0.8), 0, 0.3)).toBe(0);
    expect(abstainedScore(signals('a', 0, 0.8, 0.8), 0.05, 0.3)).toBe(0.05);
    expect(abstainedScore(signals('a', null, 0.8, 0.8), 0, 0.3)).toBe(0);
  });

  it('keeps a vector-only answer ahead of word matches the reranker scores low, while a word match it scores 0 still falls', async () => {
    const ranked = [
      signals('I practise Duolingo Portuguese every morning before work.', 0, 0.8, 0.8),
      signals('Learning a language takes practice; which one are you practising?', 0.4, 0.3, 0.58),
      signals('A practising musician needs a language of rehearsal.', 0.3, 0.2, 0.44),
      signals('Language settings live under the profile menu.', 0.2, 0.1, 0.28),
    ];
    const scores = [0, 0.5, 0.3, 0];
    const fixed: Reranker = { name: 'fixed', rerank: async (_q, cands) => cands.map((c, i) => ({ id: c.id, score: scores[i]! })) };
    const out = await rerankCandidates(fixed, ranked, { query: 'Which language am I practising?', window: 4, rescore: (_c, r) => r });
    const alpha = adaptiveBlend(ranked);
    const level = (0.5 + 0.3 + 0 + 0) / 4;
    const byText = (re: RegExp) => out.find((c) => re.test(c.doc.text))!;
    expect(byText(/Duolingo/).scores.relevance).toBeCloseTo((1 - alpha) * 0.8 + alpha * level, 12);
    expect(byText(/Duolingo/).scores.rerank).toBe(0);
    expect(byText(/settings/).scores.relevance).toBeCloseTo((1 - alpha) * 0.28, 12);
    expect(out[0]!.doc.text).toMatch(/Duolingo/);
    // Blended with 0 as before, it would fall behind the word match the reranker prefers.
    expect((1 - alpha) * 0.8).toBeLessThan((1 - alpha) * 0.58 + alpha * 0.5);
  });
});
