import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createHeuristicReranker, heuristicScores } from './heuristic.js';

/** Candidate ids sorted by score, best first. */
function ranking(query: string, texts: Record<string, string>): string[] {
  const scores = heuristicScores(
    query,
    Object.entries(texts).map(([id, text]) => ({ id, text })),
  );
  return [...scores].sort((a, b) => b.score - a.score).map((s) => s.id);
}

function scoreOf(query: string, texts: Record<string, string>): Record<string, number> {
  const scores = heuristicScores(
    query,
    Object.entries(texts).map(([id, text]) => ({ id, text })),
  );
  return Object.fromEntries(scores.map((s) => [s.id, s.score]));
}

describe('heuristic reranker', () => {
  it('returns one score per candidate, in input order, within 0..1, deterministically', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), fc.array(fc.string({ maxLength: 200 }), { maxLength: 12 }), (query, texts) => {
        const candidates = texts.map((text, i) => ({ id: `c${i}`, text }));
        const scores = heuristicScores(query, candidates);
        expect(scores.map((s) => s.id)).toEqual(candidates.map((c) => c.id));
        for (const s of scores) {
          expect(s.score).toBeGreaterThanOrEqual(0);
          expect(s.score).toBeLessThanOrEqual(1);
        }
        expect(heuristicScores(query, candidates)).toEqual(scores);
      }),
      { numRuns: 300 },
    );
  });

  it('weights query terms by how rare they are among the candidates', () => {
    // Every candidate says "database"; only one says "timeout", which is what the question is about.
    const texts = {
      repeat: 'The database database migration touched the database schema.',
      timeout: 'A timeout hit the database during the nightly job.',
      other: 'The database was backed up.',
    };
    expect(ranking('database timeout', texts)[0]).toBe('timeout');
  });

  it('prefers the query words in order and as a phrase', () => {
    const s = scoreOf('reset the password', {
      ordered: 'To reset the password, open settings.',
      skipping: 'Reset your password from the settings page.',
      reversed: 'The password field has a reset button.',
    });
    expect(s.ordered).toBeGreaterThan(s.skipping!);
    expect(s.skipping).toBeGreaterThan(s.reversed!);
  });

  it('prefers query terms close together over the same terms far apart', () => {
    const filler = 'and then we went on to discuss several unrelated matters at length before returning';
    const s = scoreOf('invoice currency', {
      near: `The invoice currency was wrong. ${filler}.`,
      far: `The invoice was sent. ${filler} to the currency question.`,
    });
    expect(s.near).toBeGreaterThan(s.far!);
  });

  it('rewards exact numbers, identifiers and error codes, and does not accept near misses', () => {
    const texts = {
      right: 'The build failed with error[E0425]: cannot find value `cfg`.',
      wrong: 'The build failed with error[E0433]: failed to resolve a path.',
      prefix: 'Version 1.2.3 shipped on Friday.',
    };
    expect(ranking('what does E0425 mean', texts)[0]).toBe('right');
    const s = scoreOf('error E0425 build', texts);
    expect(s.right).toBeGreaterThan(s.wrong! + 0.2);
    const v = scoreOf('release 1.2', { prefix: texts.prefix, exact: 'Release 1.2 was yanked.' });
    expect(v.exact).toBeGreaterThan(v.prefix!);
  });

  it('does not let a long text win on the query words it covers only by being long', () => {
    const advice = 'Build weekly distance slowly. Keep easy runs easy. Rest days matter. Strength work helps. Taper before a race. Practise race-day food on long runs. ';
    const s = scoreOf('what race am I training for', {
      said: 'I am training for the Porto race in October.',
      answer: `${advice.repeat(6)}Training for a race takes patience.`,
      other: 'My sister lives in Braga.',
    });
    expect(s.said).toBeGreaterThan(s.answer!);
  });

  it('matches across inflections and letter case', () => {
    const s = scoreOf('Configuring the PROXY', {
      inflected: 'We configured the proxy yesterday.',
      unrelated: 'We configured the printer yesterday.',
    });
    expect(s.inflected).toBeGreaterThan(0.8);
    expect(s.inflected).toBeGreaterThan(s.unrelated!);
  });

  it('handles text written without spaces', () => {
    expect(ranking('東京の天気', { tokyo: '今日の東京の天気は晴れです', kyoto: '京都の天気は雨です', none: 'hello' })).toEqual([
      'tokyo',
      'kyoto',
      'none',
    ]);
  });

  it('scores nothing for an empty query and nothing when there are no candidates', async () => {
    const reranker = createHeuristicReranker();
    expect(reranker.name).toBe('heuristic');
    expect(await reranker.rerank('anything', [])).toEqual([]);
    expect(await reranker.rerank('  ', [{ id: 'a', text: 'some text' }])).toEqual([{ id: 'a', score: 0 }]);
  });

  it('scores the same through its memo of analysed texts as a fresh call, whatever it scored before', async () => {
    const reranker = createHeuristicReranker();
    const vocab = ['redis', 'pool', 'deploy', 'rollback', 'the', 'timeout', 'E0425', 'v1.2.3', 'café', 'reset', 'password'];
    const text = fc.array(fc.constantFrom(...vocab), { minLength: 1, maxLength: 8 }).map((w) => w.join(' '));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(text, fc.array(text, { minLength: 1, maxLength: 6 })), { minLength: 1, maxLength: 5 }), async (calls) => {
        for (const [query, texts] of calls) {
          const candidates = texts.map((t, i) => ({ id: `c${i}`, text: t }));
          expect(await reranker.rerank(query, candidates)).toEqual(heuristicScores(query, candidates));
        }
      }),
      { numRuns: 50 },
    );
  });
});
