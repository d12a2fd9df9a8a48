/**
 * Fact distillation in consolidation on a real memory (SQLite + USE-lite): deterministic patterns, versions,
 * provenance, idempotence, the schedule, and the LLM reading against an OpenAI-compatible server on loopback.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { TestMemory } from '../../../testing/memory-fixture.js';
import { llmMemories } from '../llm-memory.test-support.js';

const memories = llmMemories();
afterEach(() => memories.cleanup());
const open = memories.open;

const T0 = Date.parse('2026-03-01T10:00:00Z');
const HOUR = 3_600_000;


const say = (t: TestMemory, content: string, at: number, over: Record<string, unknown> = {}) =>
  t.memory.logEvent({ type: 'message', actor: 'user', userId: 'u1', sessionId: 's1', content, ts: at, ...over });

const liveFacts = async (t: TestMemory) =>
  (await t.memory.storage.listFacts({ tenant: 'default', scope: { userId: 'u1' }, now: Date.now() + 1000 })).filter((f) => f.expiredAt === undefined);

describe('consolidation distils what users say about themselves', () => {
  it('turns first-person statements into facts with provenance, and versions a changed single value', async () => {
    const t = await open();
    const montreal = await say(t, 'Hi! I live in Montreal and I need help with my taxes.', T0);
    await say(t, 'I prefer dark mode.', T0 + 1000);
    await say(t, 'By the way, my manager is Sam.', T0 + 2000);
    await say(t, "I'm allergic to peanuts.", T0 + 3000);
    await t.memory.logEvent({ type: 'message', actor: 'agent', userId: 'u1', sessionId: 's1', content: 'I prefer to double-check numbers.', ts: T0 + 4000 });
    const first = await t.memory.learn.consolidate();
    expect(first.distilled!.method).toBe('patterns');
    expect(first.distilled!.facts.map((f) => [f.predicate, f.value])).toEqual([
      ['lives_in', 'Montreal'],
      ['prefers', 'dark mode'],
      ['manager', 'Sam'],
      ['allergic_to', 'peanuts'],
    ]);
    // The agent's "I prefer …" is not a user fact.
    expect((await liveFacts(t)).map((f) => f.text).sort()).toEqual([
      'The user is allergic to peanuts.',
      'The user lives in Montreal.',
      'The user prefers dark mode.',
      "The user's manager is Sam.",
    ]);
    const montrealFact = first.distilled!.facts[0]!;
    expect(montrealFact.eventIds).toEqual([montreal.id]);

    await say(t, 'I live in Montreal.', T0 + HOUR);
    const moved = await say(t, 'Actually, I moved to Toronto last month.', T0 + 2 * HOUR);
    const second = await t.memory.learn.consolidate();
    const lives = second.distilled!.facts.filter((f) => f.predicate === 'lives_in');
    // Restating the live value changes nothing; the move supersedes it.
    expect(lives.map((f) => [f.value, f.status])).toEqual([['Toronto', 'versioned']]);
    expect(lives[0]!.supersededId).toBe(montrealFact.factId);
    lives.unshift(montrealFact);
    expect(lives[1]!.eventIds).toEqual([moved.id]);
    const toronto = await t.memory.getFact(lives[1]!.factId);
    expect(toronto).toMatchObject({ subject: 'u1', predicate: 'lives_in', value: 'Toronto', userId: 'u1', validFrom: T0 + 2 * HOUR, provenance: { origin: 'consolidation', eventIds: [moved.id] } });
    const history = await t.memory.factHistory(toronto.key);
    expect(history.map((f) => f.value)).toEqual(['Montreal', 'Toronto']);
    expect(history[0]!.validTo).toBe(T0 + 2 * HOUR);
    const live = (await liveFacts(t)).map((f) => f.text);
    expect(live).toContain('The user lives in Toronto.');
    expect(live).not.toContain('The user lives in Montreal.');

    // Idempotent: again, nothing new; an older restatement does not bring Montreal back.
    expect((await t.memory.learn.consolidate()).distilled!.facts).toEqual([]);
  });

  it('keeps several values of a multi-valued predicate and names the speaker when there is no user id', async () => {
    const t = await open();
    await t.memory.logEvent({ type: 'message', actor: 'user', name: 'Erin', content: 'I speak English.', ts: T0 });
    await t.memory.logEvent({ type: 'message', actor: 'user', name: 'Erin', content: 'I speak French.', ts: T0 + 1000 });
    const r = await t.memory.learn.consolidate();
    expect(r.distilled!.facts.map((f) => [f.subject, f.text, f.status])).toEqual([
      ['Erin', 'Erin speaks English.', 'created'],
      ['Erin', 'Erin speaks French.', 'created'],
    ]);
  });

  it('can be turned off', async () => {
    const t = await open({ learn: { engine: { background: false, distill: { enabled: false } } } });
    await say(t, 'I prefer dark mode.', T0);
    expect((await t.memory.learn.consolidate()).distilled).toBeNull();
  });

  it('runs on a schedule when configured', async () => {
    const t = await open({ learn: { engine: { background: false, consolidateEveryMinutes: 0.002 } } });
    await say(t, 'I prefer dark mode.', T0);
    for (let i = 0; i < 100 && (await liveFacts(t)).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect((await liveFacts(t)).map((f) => f.text)).toEqual(['The user prefers dark mode.']);
  });

  it('reads turns with the configured LLM when asked to (over the real protocol), the patterns when it fails', async () => {
    const prompts: string[] = [];
    const t = await open({ learn: { engine: { background: false, distill: { method: 'llm' } } } }, (body, n) => {
      const prompt = (body.messages as { role: string; content: string }[]).find((m) => m.role === 'user')!.content;
      if (body.response_format && JSON.stringify(body.response_format).includes('user_facts')) prompts.push(prompt);
      if (!JSON.stringify(body.response_format ?? {}).includes('user_facts')) return { fail: 400, message: 'not this one' };
      return n >= 0 && prompts.length === 1
        ? { say: JSON.stringify({ facts: [{ turn: 1, predicate: 'favorite_editor', value: 'Helix', kind: 'preference' }] }) }
        : { fail: 400, message: 'down' };
    });
    await say(t, 'Honestly nothing beats Helix for editing.', T0);
    const r = await t.memory.learn.consolidate();
    expect(prompts[0]).toContain('1. Honestly nothing beats Helix for editing.');
    expect(r.distilled).toMatchObject({ method: 'llm', facts: [{ predicate: 'favorite_editor', value: 'Helix', text: "The user's favorite editor is Helix." }] });
    await say(t, 'I prefer tabs.', T0 + HOUR);
    const fallback = await t.memory.learn.consolidate();
    expect(fallback.distilled!.method).toBe('patterns');
    expect(fallback.distilled!.facts.map((f) => f.value)).toContain('tabs');
  });
});
