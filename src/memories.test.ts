import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isEngramError } from './core/errors.js';
import { openTestMemory, type TestMemory } from '../testing/memory-fixture.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2025, 5, 1);

describe('memories: Mem0-style CRUD and reads at a time', () => {
  let tm: TestMemory;
  let now = T0;
  beforeEach(async () => {
    now = T0;
    tm = await openTestMemory({}, { now: () => now });
  });
  afterEach(() => tm.cleanup());

  it('updates by any version id: a new version of the same lineage, the old one closed and gone from search', async () => {
    const m = tm.memory;
    const v1 = await m.remember({ text: 'Erin lives in Montreal.', userId: 'erin', tags: ['home'] });
    now += DAY;
    const v2 = await m.memories.update(v1.fact.id, { text: 'Erin lives in Toronto.' });
    expect(v2.status).toBe('versioned');
    expect(v2.fact).toMatchObject({ key: v1.fact.key, version: 2, supersedes: v1.fact.id, userId: 'erin', tags: ['home'] });
    // POST /v1/facts with `key` set to a version id does the same (here the old version's id again).
    now += DAY;
    const v3 = await m.remember({ key: v1.fact.id, text: 'Erin lives in Vancouver.', userId: 'erin' });
    expect(v3.fact).toMatchObject({ key: v1.fact.key, version: 3, supersedes: v2.fact.id });
    expect((await m.getFact(v1.fact.id)).expiredAt).toBe(T0 + DAY);
    await m.flush();
    const hits = await m.search({ query: 'where does Erin live', userId: 'erin', k: 10 });
    expect(hits.map((h) => h.doc.text)).toEqual(['Erin lives in Vancouver.']);
    // History from any version id, or by key.
    for (const ref of [v1.fact.id, v2.fact.id, v3.fact.id, v1.fact.key]) {
      expect((await m.factHistory(ref)).map((f) => f.version)).toEqual([1, 2, 3]);
    }
    expect((await m.memories.history(v2.fact.id)).map((f) => f.text)).toEqual(['Erin lives in Montreal.', 'Erin lives in Toronto.', 'Erin lives in Vancouver.']);
  });

  it('lists with filters and cursor pagination, and deletes a whole lineage by id', async () => {
    const m = tm.memory;
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      now += 1000;
      ids.push((await m.remember({ text: `Carol note number ${i}.`, userId: 'carol', kind: i % 2 ? 'preference' : 'fact' })).fact.id);
    }
    await m.remember({ text: 'Dave note.', userId: 'dave' });
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await m.list({ userId: 'carol', limit: 3, ...(cursor ? { cursor } : {}) });
      seen.push(...page.memories.map((f) => f.id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(ids);
    expect((await m.list({ userId: 'carol', kinds: ['preference'] })).memories).toHaveLength(3);
    await expect(m.list({ cursor: 'nonsense' })).rejects.toSatisfy((e) => isEngramError(e) && e.code === 'VALIDATION');

    const updated = await m.memories.update(ids[0]!, { text: 'Carol note number zero, revised.' });
    const report = await m.memories.delete(ids[0]!);
    expect(report.facts).toBe(2); // both versions of the lineage
    expect((await m.list({ userId: 'carol' })).memories.map((f) => f.id)).not.toContain(updated.fact.id);
    await expect(m.memories.delete(ids[0]!)).rejects.toSatisfy((e) => isEngramError(e) && e.code === 'NOT_FOUND');
  });

  it('as_of and known_at: the version that held then, what was known then; ended facts are not current', async () => {
    const m = tm.memory;
    const v1 = await m.remember({ text: 'Frank works at Initech.', subject: 'Frank', predicate: 'works at', validFrom: T0 });
    now = T0 + 10 * DAY;
    await m.remember({ text: 'Frank works at Globex.', subject: 'Frank', predicate: 'works at', validFrom: T0 + 10 * DAY });
    now = T0 + 20 * DAY;
    await m.remember({ text: 'The office coffee machine is broken.', validTo: T0 + 25 * DAY });
    now = T0 + 30 * DAY;

    const current = await m.list({});
    expect(current.memories.map((f) => f.text)).toEqual(['Frank works at Globex.']); // the coffee machine fact ended
    expect((await m.list({ asOf: T0 + 5 * DAY })).memories.map((f) => f.text)).toEqual(['Frank works at Initech.']);
    expect((await m.list({ asOf: new Date(T0 + 22 * DAY).toISOString() })).memories.map((f) => f.text).sort()).toEqual(['Frank works at Globex.', 'The office coffee machine is broken.']);
    // Known at day 5: only the first version had been recorded.
    expect((await m.list({ knownAt: T0 + 5 * DAY })).memories.map((f) => f.text)).toEqual(['Frank works at Initech.']);
    expect((await m.memories.get(v1.fact.id, { asOf: T0 + 12 * DAY })).text).toBe('Frank works at Globex.');

    await m.flush();
    const at = async (opts: { asOf?: number; knownAt?: number }) =>
      (await m.search({ query: 'where does Frank work', k: 5, kinds: ['fact'], ...opts })).map((h) => h.doc.text);
    expect(await at({})).toEqual(['Frank works at Globex.']);
    expect(await at({ asOf: T0 + 5 * DAY })).toEqual(['Frank works at Initech.']);
    expect(await at({ knownAt: T0 + 5 * DAY })).toEqual(['Frank works at Initech.']);
    const coffee = async (cfg: Record<string, unknown>) => (await m.getContext('is the coffee machine broken', { semantic_retrieval: { kinds: ['fact'] }, ...cfg })).items.map((i) => i.text);
    expect((await coffee({})).join('\n')).not.toMatch(/coffee/);
    expect((await coffee({ as_of: T0 + 22 * DAY })).join('\n')).toMatch(/coffee machine is broken/);
  });

  it('the episodic window and lastN follow event time, not write order; event reads take as_of and known_at', async () => {
    const m = tm.memory;
    now = T0 + 100_000;
    await m.logEvent({ content: 'first turn', sessionId: 's', ts: T0 + 1000 });
    await m.logEvent({ content: 'third turn', sessionId: 's', ts: T0 + 3000 });
    now = T0 + 200_000;
    // Logged late, but it happened last.
    await m.logEvent({ content: 'fourth turn, logged late', sessionId: 's', ts: T0 + 4000 });
    await m.logEvent({ content: 'second turn, logged late', sessionId: 's', ts: T0 + 2000 });
    const last2 = await m.fetchEvents({ sessionId: 's', lastN: 2 });
    expect(last2.map((e) => e.content)).toEqual(['third turn', 'fourth turn, logged late']);
    expect((await m.fetchEvents({ sessionId: 's', lastN: 2, asOf: T0 + 2500 })).map((e) => e.content)).toEqual(['first turn', 'second turn, logged late']);
    expect((await m.fetchEvents({ sessionId: 's', knownAt: T0 + 150_000 })).map((e) => e.content)).toEqual(['first turn', 'third turn']);
    const ctx = await m.getContext('turn', { scope: { session_id: 's' }, episodic_window: { n: 2 }, semantic_retrieval: { top_k: 1 } });
    expect(ctx.items.filter((i) => i.section === 'episodic_recent').map((i) => i.text)).toEqual(['third turn', 'fourth turn, logged late']);
  });
});
