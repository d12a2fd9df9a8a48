import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isEngramError } from '../../core/errors.js';
import { createExamplesApi, type ExamplesApi } from './api.js';
import { DOCKER_SESSION } from './conversation.test-support.js';
import { openTestLearn, type TestLearn } from './deps.test-support.js';

let t: TestLearn;
let api: ExamplesApi;

beforeAll(async () => {
  t = await openTestLearn();
  api = createExamplesApi(t.deps);
});
afterAll(async () => t.close());

const pair = { userId: 'u1', query: 'How do I undo the last git commit?', response: 'Run `git reset --soft HEAD~1`.' };

describe('feedback toggle rules (seed 003)', () => {
  it('creates, deletes on the same feedback again, and flips on the other feedback', async () => {
    const first = await api.giveFeedback({ ...pair, feedback: 'positive', reason: 'clear' });
    expect(first.action).toBe('created');
    expect(first.example).toMatchObject({ polarity: 'positive', origin: 'feedback', reason: 'clear', userId: 'u1' });
    expect(await api.list({ userId: 'u1' })).toHaveLength(1);

    const flipped = await api.giveFeedback({ ...pair, feedback: 'negative' });
    expect(flipped.action).toBe('flipped');
    expect(flipped.example.id).toBe(first.example.id);
    expect((await api.list({ userId: 'u1' })).map((e) => e.polarity)).toEqual(['negative']);

    const deleted = await api.giveFeedback({ ...pair, feedback: 'negative' });
    expect(deleted.action).toBe('deleted');
    expect(await api.list({ userId: 'u1' })).toEqual([]);

    const again = await api.giveFeedback({ ...pair, feedback: 'negative' });
    expect(again.action).toBe('created');
    expect(again.example.id).not.toBe(first.example.id);
    await api.delete(again.example.id);
  });

  it('treats the same pair with other whitespace as the same pair, and another scope as another pair', async () => {
    const a = await api.giveFeedback({ ...pair, feedback: 'positive' });
    const b = await api.giveFeedback({ ...pair, query: `  ${pair.query.replace(/ /g, '  ')} `, feedback: 'positive' });
    expect([a.action, b.action]).toEqual(['created', 'deleted']);
    const other = await api.giveFeedback({ ...pair, userId: 'u2', feedback: 'positive' });
    expect(other.action).toBe('created');
    await api.giveFeedback({ ...pair, userId: 'u2', feedback: 'positive' });
  });

  it('scrubs PII out of the stored pair', async () => {
    const r = await api.giveFeedback({ userId: 'u3', query: 'Email the report to jane.doe@example.com', response: 'Sent to jane.doe@example.com.', feedback: 'positive' });
    expect(r.example.query).not.toContain('jane.doe@example.com');
    expect(r.example.response).not.toContain('jane.doe@example.com');
    await api.delete(r.example.id);
  });

  it('resolves two racing clicks on a new pair as two clicks (created, then deleted)', async () => {
    const p = { userId: 'race', query: 'Which port does Postgres listen on?', response: '5432.', feedback: 'positive' as const };
    const results = await Promise.all([api.giveFeedback(p), api.giveFeedback(p)]);
    expect(results.map((r) => r.action).sort()).toEqual(['created', 'deleted']);
    expect(await api.list({ userId: 'race' })).toEqual([]);
  });

  it('rejects bad input naming the field', async () => {
    const err = await api.giveFeedback({ ...pair, feedback: 'meh' as 'positive' }).catch((e: unknown) => e);
    expect(isEngramError(err, 'VALIDATION')).toBe(true);
    expect((err as { issues: { path: string }[] }).issues[0]!.path).toBe('feedback');
    const blank = await api.giveFeedback({ ...pair, response: '   ', feedback: 'positive' }).catch((e: unknown) => e);
    expect((blank as { issues: { path: string }[] }).issues[0]!.path).toBe('response');
  });
});

describe('conversation analysis through the API', () => {
  it('stores the judged pairs once, and re-running the analysis changes nothing', async () => {
    const scope = { userId: 'u9', sessionId: 's-docker' };
    const report = await api.analyzeConversations({ ...scope, turns: DOCKER_SESSION });
    expect(report.analyzer).toBe('heuristic');
    expect(report.conversations).toBe(4);
    expect(report.examples.map((e) => [e.polarity, e.action])).toEqual([
      ['negative', 'created'],
      ['positive', 'created'],
      ['positive', 'created'],
    ]);
    const stored = await api.list(scope);
    expect(stored.map((e) => e.origin)).toEqual(['analysis', 'analysis', 'analysis']);
    expect(t.notified()).toBeGreaterThan(0);

    const again = await api.analyzeConversations({ ...scope, turns: DOCKER_SESSION });
    expect(again.examples.map((e) => e.action)).toEqual(['unchanged', 'unchanged', 'unchanged']);
    expect(await api.list(scope)).toHaveLength(3);
  });

  it("never overrides the user's own click", async () => {
    const scope = { userId: 'u10', sessionId: 's-click' };
    // The user marked the corrected answer negative themselves; the analysis reads "Perfect, thanks!" as positive.
    await api.giveFeedback({ ...scope, query: DOCKER_SESSION[0]!.content, response: DOCKER_SESSION[3]!.content, feedback: 'negative' });
    const report = await api.analyzeConversations({ ...scope, turns: DOCKER_SESSION });
    expect(report.examples[1]).toMatchObject({ polarity: 'positive', action: 'kept_user_feedback' });
    const stored = await api.list({ ...scope, polarity: 'negative' });
    expect(stored.map((e) => e.response)).toContain(DOCKER_SESSION[3]!.content);
  });

  it('reads the session from the timeline when no turns are given', async () => {
    const tenant = 'timeline';
    const now = t.deps.clock.now();
    await t.deps.storage.appendEvents(
      DOCKER_SESSION.map((turn, i) => ({
        id: `evt_01J0000000000000000000${String(i).padStart(4, '0')}`.slice(0, 30),
        tenant,
        sessionId: 's-tl',
        ts: now + i,
        recordedAt: now + i,
        type: turn.role === 'tool' ? ('tool_call' as const) : ('message' as const),
        actor: turn.role === 'user' ? ('user' as const) : ('agent' as const),
        content: turn.content,
        tool: turn.tool,
        tags: [],
        importance: 0.5,
        metadata: {},
        contentHash: `h${i}`,
        pii: { scrubbed: false, counts: {} },
      })),
    );
    const report = await api.analyzeConversations({ tenant, sessionId: 's-tl', store: false });
    expect(report.examples.map((e) => e.polarity)).toEqual(['negative', 'positive', 'positive']);
    expect(report.examples[2]!.reason).toContain('Tools used: search_docs.');
    expect(await api.list({ tenant })).toEqual([]);
  });

  it('needs turns or a session', async () => {
    const err = await api.analyzeConversations({ userId: 'x' }).catch((e: unknown) => e);
    expect(isEngramError(err, 'VALIDATION')).toBe(true);
  });
});
