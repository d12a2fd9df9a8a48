import { describe, expect, it } from 'vitest';
import { analyzeHeuristically } from './analyze.js';
import { normalizeRole, readConversations, type Turn } from './conversations.js';
import { DOCKER_SESSION, sixJudgedConversations } from './conversation.test-support.js';
import type { TurnInput } from './input.js';

const turns = (input: TurnInput[]): Turn[] => input.map((t) => ({ role: normalizeRole(t.role), content: t.content, tool: t.tool }));

describe('heuristic conversation analysis on a scripted session with a correction', () => {
  const pairs = analyzeHeuristically(turns(DOCKER_SESSION));

  it('finds exactly the judged pairs: the wrong answer, the corrected answer, and the JSON answer', () => {
    expect(pairs.map((p) => [p.polarity, p.query, p.response])).toEqual([
      ['negative', 'How do I list all running Docker containers?', 'Use `docker ps -a`.'],
      ['positive', 'How do I list all running Docker containers?', 'Use `docker ps` without flags: it lists only running containers.'],
      ['positive', 'How do I remove unused images?', '{"steps": ["docker image prune -a", "confirm with y"]}'],
    ]);
  });

  it('keeps the original query through a correction and through a format follow-up', () => {
    expect(pairs[1]).toMatchObject({ queryTurn: 0, responseTurn: 3, feedbackTurn: 4 });
    // The format request ("as a JSON list") is not a query: the JSON answer is judged against the original ask.
    expect(pairs[2]).toMatchObject({ queryTurn: 4, responseTurn: 8, feedbackTurn: 9 });
  });

  it('says why, quoting the user, and keeps the tools a successful answer used', () => {
    expect(pairs[0]!.reason).toContain('"That\'s wrong, -a shows stopped ones too.');
    expect(pairs[0]!.reason).toMatch(/^explicit negative feedback/);
    expect(pairs[2]!.reason).toContain('Tools used: search_docs.');
  });

  it('ignores conversations the user moved on from, and the one not yet judged', () => {
    expect(pairs.some((p) => /France|Germany/.test(p.query))).toBe(false);
    expect(readConversations(turns(DOCKER_SESSION)).map((c) => c.query)).toEqual([
      'How do I list all running Docker containers?',
      'How do I remove unused images?',
      'What is the capital of France?',
      'What is the capital of Germany?',
    ]);
  });

  it("does not let the agent's reply to a thank-you replace the judged answer", () => {
    const extra = turns([...DOCKER_SESSION.slice(0, 11), { role: 'user', content: 'Really, thank you so much.' }]);
    const last = analyzeHeuristically(extra).at(-1)!;
    expect(last.response).toBe('{"steps": ["docker image prune -a", "confirm with y"]}');
  });
});

describe('analysis window', () => {
  it('reads only the latest four conversations', () => {
    const pairs = analyzeHeuristically(turns(sixJudgedConversations()));
    expect(pairs.map((p) => p.query)).toEqual([
      'How do I parse JSON in Rust?',
      'How do I read a file in Java?',
      'How do I open a socket in C?',
      'How do I format a date in Ruby?',
    ]);
    expect(pairs.map((p) => p.polarity)).toEqual(['positive', 'negative', 'positive', 'negative']);
  });

  it('never treats a greeting or meta request as a query worth learning from', () => {
    const pairs = analyzeHeuristically(
      turns([
        { role: 'user', content: 'What can you do?' },
        { role: 'assistant', content: 'I can answer questions about your infrastructure.' },
        { role: 'user', content: 'Great, thanks!' },
      ]),
    );
    expect(pairs).toEqual([]);
  });

  it('lets a later judgement of the same answer win', () => {
    const pairs = analyzeHeuristically(
      turns([
        { role: 'user', content: 'How do I rotate the TLS certificate on the ingress?' },
        { role: 'assistant', content: 'Run `kubectl rollout restart deploy/ingress`.' },
        { role: 'user', content: 'Thanks!' },
        { role: 'assistant', content: 'Glad to help.' },
        { role: 'user', content: "Hmm, that didn't work, the old certificate is still served." },
      ]),
    );
    expect(pairs).toHaveLength(1);
    expect(pairs[0]).toMatchObject({ polarity: 'negative', response: 'Run `kubectl rollout restart deploy/ingress`.' });
  });
});
