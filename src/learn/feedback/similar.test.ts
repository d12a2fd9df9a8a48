import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHeuristicReranker } from '../../adapters/rerankers/heuristic.js';
import { createExamplesApi, type ExamplesApi } from './api.js';
import { openTestLearn, type TestLearn } from './deps.test-support.js';

let t: TestLearn;
let api: ExamplesApi;

const STORED = [
  { query: 'How do I list all running Docker containers?', response: 'Use `docker ps`.', feedback: 'positive' as const, reason: 'short and exact' },
  { query: 'How do I list all running Docker containers?', response: 'Use `docker ps -a`.', feedback: 'negative' as const, reason: '-a lists stopped containers too' },
  { query: 'How do I remove unused Docker images?', response: '{"steps": ["docker image prune -a"]}', feedback: 'positive' as const },
  { query: 'Summarize the quarterly sales report as a table', response: '| Quarter | Sales |', feedback: 'positive' as const },
  { query: 'How do I reset my account password?', response: 'Open Settings → Security → Reset.', feedback: 'positive' as const },
  { query: 'Write a Python function to reverse a string', response: 'def rev(s): return s[::-1]', feedback: 'negative' as const, reason: 'no explanation' },
];

beforeAll(async () => {
  t = await openTestLearn();
  api = createExamplesApi(t.deps);
  for (const s of STORED) await api.giveFeedback({ userId: 'u1', ...s });
  // Another user's example must never be shown to u1.
  await api.giveFeedback({ userId: 'u2', query: 'show me the running docker containers', response: 'u2 secret', feedback: 'positive' });
  await t.index();
});
afterAll(async () => t.close());

describe('similar examples (real USE-lite vectors on SQLite)', () => {
  it('finds the positive and the negative example for a paraphrase, best first', async () => {
    const found = await api.similar({ userId: 'u1', query: 'show me the docker containers that are currently running' });
    expect(found.positive[0]!.example.response).toBe('Use `docker ps`.');
    expect(found.negative[0]!.example.response).toBe('Use `docker ps -a`.');
    expect(found.positive[0]!.scores.vector).toBeGreaterThan(0.5);
    expect(found.positive.every((s, i, a) => i === 0 || a[i - 1]!.rank >= s.rank)).toBe(true);
  });

  it.each([
    ['list running containers in docker', 'How do I list all running Docker containers?'],
    ['clean up old docker images', 'How do I remove unused Docker images?'],
    ['give me a table summarizing the Q3 sales numbers', 'Summarize the quarterly sales report as a table'],
    ['how can I change my password', 'How do I reset my account password?'],
  ])('paraphrase %s → %s', async (query, expected) => {
    const found = await api.similar({ userId: 'u1', query, k: 1 });
    expect(found.positive[0]?.example.query).toBe(expected);
  });

  it('returns nothing for unrelated requests', async () => {
    for (const query of ['what is the weather tomorrow', 'best pizza in town', 'translate good night into Italian']) {
      const found = await api.similar({ userId: 'u1', query });
      expect([...found.positive, ...found.negative], query).toEqual([]);
    }
  });

  it("keeps to the caller's scope", async () => {
    const found = await api.similar({ userId: 'u1', query: 'show me the running docker containers', k: 10 });
    expect([...found.positive, ...found.negative].map((s) => s.example.response)).not.toContain('u2 secret');
    const theirs = await api.similar({ userId: 'u2', query: 'show me the running docker containers', k: 10 });
    expect(theirs.positive.map((s) => s.example.response)).toEqual(['u2 secret']);
  });

  it('still finds lexically close examples when no query vector is available', async () => {
    const noVectors = createExamplesApi({ ...t.deps, embedQuery: async () => undefined });
    const found = await noVectors.similar({ userId: 'u1', query: 'list running Docker containers' });
    expect(found.positive[0]?.example.query).toBe('How do I list all running Docker containers?');
    expect(found.positive[0]!.scores.vector).toBeNull();
  });

  it('reorders with a reranker without letting it hide a paraphrase', async () => {
    const reranked = createExamplesApi({ ...t.deps, reranker: createHeuristicReranker() });
    const found = await reranked.similar({ userId: 'u1', query: 'clean up old docker images', k: 1 });
    expect(found.positive[0]?.example.query).toBe('How do I remove unused Docker images?');
  });
});

describe('guidance for the next answer', () => {
  it('formats similar examples as Follow / Avoid with their reasons', async () => {
    const g = await api.guidance('list the docker containers that are running right now', { userId: 'u1' });
    expect(g.text).toContain('## Guidance from past feedback');
    expect(g.text).toMatch(/Follow \(.*\):\n- Request: "How do I list all running Docker containers\?"\n {2}Answer: "Use `docker ps`\."\n {2}Why: short and exact/);
    expect(g.text).toMatch(/Avoid \(.*\):\n- Request: "How do I list all running Docker containers\?"\n {2}Answer: "Use `docker ps -a`\."/);
    expect(g.followIds).toHaveLength(1);
    expect(g.avoidIds).toHaveLength(1);
    expect(g.tokens).toBe(t.deps.tokens.count(g.text));
  });

  it('stays within its token budget, dropping whole examples', async () => {
    const full = await api.guidance('list the docker containers that are running right now', { userId: 'u1' });
    const tight = await api.guidance('list the docker containers that are running right now', { userId: 'u1', maxTokens: full.tokens - 1 });
    expect(tight.tokens).toBeLessThanOrEqual(full.tokens - 1);
    expect(tight.followIds.length + tight.avoidIds.length).toBe(1);
  });

  it('is empty when nothing similar exists', async () => {
    const g = await api.guidance('best pizza in town', { userId: 'u1' });
    expect(g).toEqual({ text: '', tokens: 0, followIds: [], avoidIds: [] });
  });
});
