/**
 * Conflict strategies per predicate on the write path (core/predicates.ts), on a real SQLite memory; the `llm`
 * strategy against an OpenAI-compatible server on loopback.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { strategyFor } from '../core/predicates.js';
import { llmMemories } from '../learn/llm-memory.test-support.js';
import type { TestMemory } from '../../testing/memory-fixture.js';

const memories = llmMemories();
afterEach(() => memories.cleanup());
const open = memories.open;

const live = async (t: TestMemory) => (await t.memory.storage.listFacts({ tenant: 'default', now: Date.now() + 1000 })).map((f) => f.text).sort();

describe('conflict strategies per predicate', () => {
  it('defaults: lives_in is single-valued, speaks multi-valued; predicates match after normalisation', () => {
    expect(strategyFor(undefined, 'lives_in')).toBe('single');
    expect(strategyFor(undefined, 'Lives in')).toBe('single');
    expect(strategyFor(undefined, 'speaks')).toBe('multi');
    expect(strategyFor(undefined, 'owns a')).toBe('single');
    expect(strategyFor({ predicates: { 'Owns a': 'multi' }, defaultStrategy: 'single' }, 'owns_a')).toBe('multi');
    expect(strategyFor({ predicates: {}, defaultStrategy: 'merge' }, 'anything')).toBe('merge');
  });

  it('single: a new value replaces the old one, whose version is closed but kept', async () => {
    const t = await open();
    const a = await t.memory.remember({ text: 'Erin lives in Berlin.', subject: 'Erin', predicate: 'lives_in', value: 'Berlin' });
    const b = await t.memory.remember({ text: 'Erin lives in Munich.', subject: 'Erin', predicate: 'lives_in', value: 'Munich' });
    expect(b).toMatchObject({ status: 'versioned', supersededId: a.fact.id });
    expect(await live(t)).toEqual(['Erin lives in Munich.']);
    const history = await t.memory.factHistory(b.fact.key);
    expect(history.map((f) => f.value)).toEqual(['Berlin', 'Munich']);
    expect(history[0]!.validTo).toBeDefined();
  });

  it('multi: "speaks French" does not supersede "speaks English"; the same value again is a duplicate', async () => {
    const t = await open();
    const en = await t.memory.remember({ text: 'Erin speaks English.', subject: 'Erin', predicate: 'speaks', value: 'English' });
    const fr = await t.memory.remember({ text: 'Erin speaks French.', subject: 'Erin', predicate: 'speaks', value: 'French' });
    expect(fr.status).toBe('created');
    expect(fr.fact.key).not.toBe(en.fact.key);
    expect(await live(t)).toEqual(['Erin speaks English.', 'Erin speaks French.']);
    expect((await t.memory.remember({ text: 'Erin speaks English.', subject: 'Erin', predicate: 'speaks', value: 'English' })).status).toBe('duplicate');
  });

  it('merge: the new version carries the old and the new values', async () => {
    const t = await open({ facts: { predicates: { diet: 'merge' } } });
    await t.memory.remember({ text: 'Sam avoids gluten.', subject: 'Sam', predicate: 'diet', value: 'no gluten' });
    const r = await t.memory.remember({ text: 'Sam avoids dairy.', subject: 'Sam', predicate: 'diet', value: 'no dairy' });
    expect(r).toMatchObject({ status: 'versioned' });
    expect(r.fact.value).toBe('no gluten; no dairy');
    expect(r.fact.text).toBe('Sam avoids gluten. Sam avoids dairy.');
    expect(await live(t)).toEqual(['Sam avoids gluten. Sam avoids dairy.']);
  });

  it('llm: the configured model chooses keep-both or replace per new value, over the real protocol', async () => {
    const asked: string[] = [];
    const t = await open({ facts: { predicates: { hobby: 'llm' } } }, (body) => {
      const prompt = (body.messages as { role: string; content: string }[]).find((m) => m.role === 'user')!.content;
      asked.push(prompt);
      return { say: JSON.stringify({ action: prompt.includes('chess') ? 'keep_both' : 'replace' }) };
    });
    await t.memory.remember({ text: 'Ana plays tennis.', subject: 'Ana', predicate: 'hobby', value: 'tennis' });
    const chess = await t.memory.remember({ text: 'Ana plays chess.', subject: 'Ana', predicate: 'hobby', value: 'chess' });
    expect(chess.status).toBe('created');
    expect(await live(t)).toEqual(['Ana plays chess.', 'Ana plays tennis.']);
    expect(asked[0]).toContain('Stored: Ana plays tennis.');
    expect(asked[0]).toContain('New: Ana plays chess.');
    const golf = await t.memory.remember({ text: 'Ana plays golf.', subject: 'Ana', predicate: 'hobby', value: 'golf' });
    expect(golf.status).toBe('versioned');
    expect(asked).toHaveLength(2);
  });

  it('llm: without an answer (server error) the strategy acts as single', async () => {
    const t = await open({ facts: { predicates: { hobby: 'llm' } } }, () => ({ fail: 400, message: 'bad request' }));
    await t.memory.remember({ text: 'Ana plays tennis.', subject: 'Ana', predicate: 'hobby', value: 'tennis' });
    const r = await t.memory.remember({ text: 'Ana plays golf.', subject: 'Ana', predicate: 'hobby', value: 'golf' });
    expect(r.status).toBe('versioned');
  });
});
