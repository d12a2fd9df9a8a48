/** Import/export round trip, fact versions, TTL and forget on the facade. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/ports/clock.js';
import { openTestMemory, type TestMemory } from '../memory-fixture.js';

const DAY = 86_400_000;

describe('memory lifecycle', () => {
  let t: TestMemory;
  let now = Date.parse('2026-01-10T12:00:00Z');
  const clock: Clock = { now: () => now };

  beforeAll(async () => {
    t = await openTestMemory({ retention: { episodicTtlDays: 30, sweepIntervalMinutes: 0 } }, clock);
  });
  afterAll(() => t.cleanup());

  it('remembering a key again makes a new version; the old one stays queryable', async () => {
    const v1 = await t.memory.remember({ key: 'plan_price', text: 'The Pro plan costs 20 dollars a month.', source: 'pricing.md' });
    now += DAY;
    const v2 = await t.memory.remember({ key: 'plan_price', text: 'The Pro plan costs 25 dollars a month.', source: 'pricing.md' });
    const again = await t.memory.remember({ key: 'plan_price', text: 'The Pro plan costs 25 dollars a month.', source: 'pricing.md' });
    expect([v1.status, v2.status, again.status]).toEqual(['created', 'versioned', 'duplicate']);
    expect(v2.fact.version).toBe(2);
    expect(v2.fact.supersedes).toBe(v1.fact.id);
    const history = await t.memory.factHistory('plan_price');
    expect(history.map((f) => f.text)).toEqual([v1.fact.text, v2.fact.text]);
    expect(history[0]!.expiredAt).toBeDefined();
    await t.memory.flush();
    const hits = await t.memory.search({ query: 'how much is the Pro plan', k: 5, kinds: ['fact'] });
    expect(hits.map((h) => h.doc.refId)).toContain(v2.fact.id);
    expect(hits.map((h) => h.doc.refId)).not.toContain(v1.fact.id);
  });

  it('subject+predicate upserts close the old value in valid time', async () => {
    const a = await t.memory.remember({ text: 'Alice lives in Montreal.', subject: 'Alice', predicate: 'lives in', value: 'Montreal', validFrom: '2024-01-01' });
    const b = await t.memory.remember({ text: 'Alice lives in Toronto.', subject: 'alice', predicate: 'lives in', value: 'Toronto', validFrom: '2025-06-01' });
    expect(b.status).toBe('versioned');
    const old = await t.memory.getFact(a.fact.id);
    expect(old.validTo).toBe(Date.parse('2025-06-01'));
  });

  it('events past their TTL disappear from reads at once and from the file at the sweep', async () => {
    const old = await t.memory.logEvent({ taskId: 'ttl', content: 'an old observation about zebras', ts: now - 40 * DAY });
    const fresh = await t.memory.logEvent({ taskId: 'ttl', content: 'a fresh observation about zebras', ts: now - DAY });
    expect(old.expiresAt).toBe(old.ts + 30 * DAY);
    const events = await t.memory.fetchEvents({ taskId: 'ttl' });
    expect(events.map((e) => e.id)).toEqual([fresh.id]);
    const hits = await t.memory.search({ query: 'zebras', k: 5, mode: 'lexical' });
    expect(hits.map((h) => h.doc.refId)).toEqual([fresh.id]);
    expect(await t.memory.sweep()).toBeGreaterThanOrEqual(1);
    expect(await t.memory.storage.getEvents('default', [old.id])).toEqual([]);
  });

  it('export then import into a fresh database reproduces events and facts; importing twice adds nothing', async () => {
    await t.memory.flush();
    await t.memory.logEvent({ taskId: 'exp', type: 'tool_call', tool: 'kubectl', args: { ns: 'payments' }, result: { ok: true } });
    const lines: string[] = [];
    for await (const rec of t.memory.exportRecords()) lines.push(JSON.stringify(rec));
    const file = join(t.dir, 'export.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);

    const other = await openTestMemory({}, clock);
    try {
      const first = await other.memory.importJsonl(file);
      const second = await other.memory.importJsonl(file);
      const exportedEvents = lines.filter((l) => l.startsWith('{"kind":"event"')).length;
      expect(first.events).toBe(exportedEvents);
      expect(second.events + second.facts).toBe(0);
      expect(second.duplicates).toBe(first.lines - 2);
      expect(first.records!.fact.written).toBe(lines.filter((l) => l.startsWith('{"kind":"fact"')).length);
      const kubectl = (await other.memory.fetchEvents({ taskId: 'exp' }))[0]!;
      expect(kubectl.args).toEqual({ ns: 'payments' });
      expect((await other.memory.factHistory('plan_price')).length).toBe(2);
    } finally {
      await other.cleanup();
    }
  });

  it('import rejects a file with a bad line and writes nothing', async () => {
    const file = join(t.dir, 'bad.jsonl');
    writeFileSync(file, '{"content":"good line","task_id":"imp"}\n{"content":5}\nnot json\n');
    await expect(t.memory.importJsonl(file)).rejects.toMatchObject({ code: 'VALIDATION' });
    expect(await t.memory.fetchEvents({ taskId: 'imp' })).toEqual([]);
  });

  it('forget deletes a user everywhere: rows, search results and cached embeddings', async () => {
    await t.memory.logEvent({ userId: 'bob', content: 'Bob prefers tea over coffee in the mornings.' });
    await t.memory.remember({ userId: 'bob', text: 'Bob is allergic to peanuts.' });
    await t.memory.logEvent({ userId: 'carol', content: 'Carol prefers coffee.' });
    await t.memory.flush();
    const report = await t.memory.forget({ scope: { userId: 'bob' } });
    expect(report.events).toBe(1);
    expect(report.facts).toBe(1);
    expect(report.embeddings).toBeGreaterThanOrEqual(2);
    // The admin-style read (strict, no scope: the whole tenant); an anonymous layered read sees no user's records.
    const hits = await t.memory.search({ query: 'what does Bob prefer, peanuts tea', k: 10, scopeMode: 'strict' });
    expect(hits.some((h) => h.doc.userId === 'bob')).toBe(false);
    expect(hits.some((h) => h.doc.userId === 'carol')).toBe(true);
  });
});
