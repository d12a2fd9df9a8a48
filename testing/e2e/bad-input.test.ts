/** Bad input gets a typed error naming the field, and nothing is written. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngramError } from '../../src/core/errors.js';
import { openTestMemory, type TestMemory } from '../memory-fixture.js';

const LONE_SURROGATE = 'broken \uD800 text';

async function counts(t: TestMemory) {
  const events = await t.memory.fetchEvents({ limit: 10_000 });
  const facts = await t.memory.storage.listFacts({ tenant: 'default', includeExpired: true, now: Date.now() });
  return { events: events.length, facts: facts.length };
}

async function expectRejected(p: Promise<unknown>, code: string, path?: string | RegExp): Promise<void> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(EngramError);
  const e = err as EngramError;
  expect(e.code).toBe(code);
  if (path !== undefined) expect(e.issues.map((i) => i.path).join(' ')).toMatch(path);
}

describe('bad input', () => {
  let t: TestMemory;
  beforeAll(async () => {
    t = await openTestMemory({ limits: { maxContentChars: 1000 } });
    await t.memory.logEvent({ content: 'a valid event' });
  });
  afterAll(() => t.cleanup());

  const badEvents: [string, unknown, string | RegExp][] = [
    ['missing content', { type: 'message' }, /content/],
    ['wrong type of content', { content: 42 }, /content/],
    ['unknown event type', { content: 'x', type: 'telepathy' }, /type/],
    ['unknown field', { content: 'x', colour: 'red' }, /^$|colour|event/],
    ['oversize content', { content: 'x'.repeat(1001) }, /content/],
    ['invalid UTF-8 (lone surrogate)', { content: LONE_SURROGATE }, /content/],
    ['invalid UTF-8 in tool args', { type: 'tool_call', tool: 'x', args: { q: LONE_SURROGATE } }, /args\.q/],
    ['importance out of range', { content: 'x', importance: 7 }, /importance/],
    ['bad timestamp', { content: 'x', ts: 'yesterday-ish' }, /ts/],
    ['malformed id', { content: 'x', id: 'evt_nope' }, /id/],
    ['non-object', 'just a string', /event/],
  ];

  for (const [name, input, path] of badEvents) {
    it(`logEvent rejects ${name}`, async () => {
      const before = await counts(t);
      await expectRejected(t.memory.logEvent(input as never), 'VALIDATION', path);
      expect(await counts(t)).toEqual(before);
    });
  }

  it('a batch with one bad event writes none of it, and names the item', async () => {
    const before = await counts(t);
    await expectRejected(t.memory.logEvents([{ content: 'fine' }, { content: 'fine too' }, { content: 12 } as never]), 'VALIDATION', /events\.2\.content/);
    expect(await counts(t)).toEqual(before);
  });

  it('remember rejects missing text, bad tags and invalid Unicode', async () => {
    const before = await counts(t);
    await expectRejected(t.memory.remember({} as never), 'VALIDATION', /text/);
    await expectRejected(t.memory.remember({ text: 'ok', tags: 'policy' } as never), 'VALIDATION', /tags/);
    await expectRejected(t.memory.remember({ text: LONE_SURROGATE }), 'VALIDATION', /text/);
    await expectRejected(t.memory.remember({ text: 'ok', validFrom: '2025-02-01', validTo: '2025-01-01' }), 'VALIDATION', /validTo/);
    expect(await counts(t)).toEqual(before);
  });

  it('unknown filter operators and bad context config name the path', async () => {
    await expectRejected(t.memory.search({ query: 'x', filter: { importance: { $regex: 'a' } } }), 'VALIDATION', /filter\.importance\.\$regex/);
    await expectRejected(t.memory.search({ query: 'x', filter: { or: 'nope' } }), 'VALIDATION', /filter\.or/);
    await expectRejected(t.memory.fetchEvents({ filter: { ts: { gte: 'not a time' } } }), 'VALIDATION', /filter\.ts\.gte/);
    await expectRejected(t.memory.getContext('x', { semantic_retrieval: { top_k: 0 } }), 'VALIDATION', /semantic_retrieval\.top_k/);
    await expectRejected(t.memory.getContext('x', { semantic_retrieval: { conversation: { answer_share: -0.5 } } }), 'VALIDATION', /semantic_retrieval\.conversation\.answer_share/);
    await expectRejected(t.memory.search({ query: 'x', conversation: { context_reach: 0 } }), 'VALIDATION', /conversation\.context_reach/);
    await expectRejected(t.memory.search({ query: 'x', conversation: { question_discount: 1.5 } }), 'VALIDATION', /conversation\.question_discount/);
    await expectRejected(t.memory.getContext('x', { semantic_retrieval: { conversation: { author_bonus: -0.1 } } }), 'VALIDATION', /conversation\.author_bonus/);
    await expectRejected(t.memory.search({ query: 'x', conversation: { share: 1 } } as never), 'VALIDATION', /conversation/);
    await expectRejected(t.memory.getContext('x', { merge_policy: { token_budget: 'lots' } } as never), 'VALIDATION', /merge_policy\.token_budget/);
    await expectRejected(t.memory.getContext('x', { surprise: true } as never), 'VALIDATION');
    await expectRejected(t.memory.getContext('x', { episodic_window: { filters: { tags: { near: 'x' } } } }), 'VALIDATION', /episodic_window\.filters\.tags\.near/);
  });

  it('lookups with malformed or unknown ids are typed errors', async () => {
    await expectRejected(t.memory.getFact('fct_123'), 'VALIDATION');
    await expectRejected(t.memory.getFact('fct_01ARZ3NDEKTSV4RRFFQ69G5FAV'), 'NOT_FOUND');
    await expectRejected(t.memory.redact('evt_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'x'), 'NOT_FOUND');
    await expectRejected(t.memory.forget({ ids: ['rm -rf'] }), 'VALIDATION');
  });
});
