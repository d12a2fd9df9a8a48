import { afterEach, describe, expect, it } from 'vitest';
import { openTestMemory, type TestMemory } from '../surfaces/mcp/memory.test-support.js';
import { querySpans } from './graph.js';

let t: TestMemory | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const NO_WINDOW = { episodic_window: { mode: 'none' as const } };

describe('graph-aware retrieval', () => {
  it('seed 002: with "Alice manages Bob." and "Carol manages Alice." stored, "Who is Alice\'s manager?" puts Carol\'s relation first', async () => {
    t = await openTestMemory();
    const [, carol] = await t.memory.logEvents([
      { type: 'note', content: 'Alice manages Bob.', ts: '2025-01-01T10:00:00Z' },
      { type: 'note', content: 'Carol manages Alice.', ts: '2025-01-02T10:00:00Z' },
    ]);
    await t.memory.flush();
    const ctx = await t.memory.getContext("Who is Alice's manager?", NO_WINDOW);
    expect(ctx.entities?.[0]).toMatchObject({ text: 'Carol manages Alice', type: 'manages', source: { name: 'Carol' }, target: { name: 'Alice' }, hop: 1 });
    // Only what the question asks for is shown: Alice's own reports are not her manager.
    expect(ctx.entities!.map((e) => e.text)).not.toContain('Alice manages Bob');
    // The statement behind Carol's relation is the first memory, and the section renders first, with provenance.
    expect(ctx.entities![0]!.provenance.eventIds).toEqual([carol!.id]);
    expect(ctx.items[0]!.text).toContain('Carol manages Alice.');
    expect(ctx.text.startsWith('## Entities')).toBe(true);
    const line = `- Carol manages Alice (since 2025-01-02; from ${carol!.id})`;
    expect(ctx.text).toContain(line);
    expect(ctx.text.indexOf(line)).toBeLessThan(ctx.text.indexOf('Alice manages Bob.'));
    // The other direction is a different question.
    const reports = await t.memory.getContext('Who does Alice manage?', NO_WINDOW);
    expect(reports.entities?.[0]?.text).toBe('Alice manages Bob');
    expect(reports.items[0]!.text).toContain('Alice manages Bob.');
    // Word order tells a verb's direction: the one managing Alice, the one reporting to Carol, Alice's own manager.
    expect((await t.memory.getContext('Who manages Alice?', NO_WINDOW)).entities?.[0]?.text).toBe('Carol manages Alice');
    expect((await t.memory.getContext('Who reports to Carol?', NO_WINDOW)).entities?.[0]?.text).toBe('Carol manages Alice');
    expect((await t.memory.getContext('Who does Bob report to?', NO_WINDOW)).entities?.[0]?.text).toBe('Alice manages Bob');
  });

  it('two hops: "Where does Alice\'s manager live?" reaches Carol\'s home; a move is history, a time reads it back', async () => {
    t = await openTestMemory();
    await t.memory.logEvents([
      { type: 'message', name: 'Carol', content: 'I live in Lisbon.', ts: '2024-01-10T10:00:00Z' },
      { type: 'note', content: 'Carol manages Alice.', ts: '2024-02-01T10:00:00Z' },
      { type: 'message', name: 'Carol', content: 'Last week I moved to Porto.', ts: '2025-03-01T10:00:00Z' },
    ]);
    await t.memory.flush();
    const ctx = await t.memory.getContext("Where does Alice's manager live?", NO_WINDOW);
    const texts = ctx.entities!.map((e) => e.text);
    expect(texts.slice(0, 2)).toEqual(['Carol manages Alice', 'Carol lives in Porto']);
    const lisbon = ctx.entities!.find((e) => e.text === 'Carol lives in Lisbon');
    expect(lisbon === undefined || lisbon.expired).toBe(true);
    const then = await t.memory.getContext('Where did Carol live in June 2024?', NO_WINDOW);
    expect(then.entities![0]).toMatchObject({ text: 'Carol lives in Lisbon', expired: true });
    // as_of: what held then, and only what was said by then.
    const asOf = await t.memory.getContext('Where does Carol live?', { ...NO_WINDOW, as_of: '2024-06-01T00:00:00Z' });
    expect(asOf.entities![0]).toMatchObject({ text: 'Carol lives in Lisbon' });
    expect(asOf.items.map((i) => i.text).join(' ')).not.toContain('Porto');
    expect(asOf.items[0]!.text).toContain('I live in Lisbon.');
  });

  it('search gains the graph too: the statement answering the relation asked comes first; a query naming no entity is unchanged', async () => {
    t = await openTestMemory();
    const [, , carol] = await t.memory.logEvents([
      { type: 'note', content: "Alice's manager review meeting moved to Friday.", ts: '2025-01-01T09:00:00Z' },
      { type: 'note', content: 'Alice manages Bob.', ts: '2025-01-01T10:00:00Z' },
      { type: 'note', content: 'Carol manages Alice.', ts: '2025-01-02T10:00:00Z' },
      { type: 'note', content: 'The meeting notes were shared with the whole team.', ts: '2025-01-03T10:00:00Z' },
    ]);
    await t.memory.flush();
    const hits = await t.memory.search({ query: "Who is Alice's manager?", k: 3 });
    expect(hits[0]!.doc.refId).toBe(carol!.id);
    const neutral = async () => (await t!.memory.search({ query: 'what were the meeting notes about', k: 4 })).map((h) => [h.doc.refId, h.score]);
    const before = await neutral();
    await t.memory.graph.deleteEntities(['Alice', 'Bob', 'Carol']);
    expect((await t.memory.graph.readGraph()).entities).toEqual([]);
    expect(await neutral()).toEqual(before);
  });

  it('"I" and "my" in a question are the one speaker of the user\'s turns; with two speakers, nobody', async () => {
    t = await openTestMemory();
    await t.memory.logEvents([
      { type: 'message', name: 'Dana', content: 'My boss is Helen Park.', ts: '2025-01-01T10:00:00Z' },
      { type: 'message', name: 'Dana', content: 'Helen lives in Bilbao.', ts: '2025-01-02T10:00:00Z' },
    ]);
    await t.memory.flush();
    const ctx = await t.memory.getContext('Where does my manager live?', NO_WINDOW);
    expect(ctx.entities!.map((e) => e.text).slice(0, 2)).toEqual(['Helen Park manages Dana', 'Helen Park lives in Bilbao']);
    await t.memory.logEvents([{ type: 'message', name: 'Eli', content: 'My boss is Carol.', ts: '2025-01-03T10:00:00Z' }]);
    await t.memory.flush();
    expect((await t.memory.getContext('Where does my manager live?', NO_WINDOW)).entities ?? []).toEqual([]);
  });

  it('extended kin is asked for: "Who is Lena\'s uncle?" finds the relative_of relation and its statement', async () => {
    t = await openTestMemory();
    const [uncle] = await t.memory.logEvents([
      { type: 'note', content: "Tomas is Lena's uncle.", ts: '2025-01-01T10:00:00Z' },
      { type: 'note', content: 'Lena works at Halden Bank.', ts: '2025-01-02T10:00:00Z' },
    ]);
    await t.memory.flush();
    const ctx = await t.memory.getContext("Who is Lena's uncle?", NO_WINDOW);
    expect(ctx.entities?.[0]).toMatchObject({ type: 'relative_of' });
    expect(ctx.entities![0]!.provenance.eventIds).toEqual([uncle!.id]);
    expect(ctx.entities!.map((e) => e.type)).not.toContain('works_at');
  });

  it('looks up every 1–4-word span that is not only stop words', () => {
    expect(querySpans('Who runs Salt & Ember now?')).toContain('Salt & Ember');
    expect(new Set(querySpans("Who is Alice's manager?"))).toEqual(new Set(["Who is Alice's", "Who is Alice's manager", "is Alice's", "is Alice's manager", "Alice's", "Alice's manager", 'manager']));
  });
});
