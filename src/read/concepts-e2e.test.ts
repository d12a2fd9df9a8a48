import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseContextConfig } from '../core/config.js';
import { fetchSemantic } from './semantic.js';
import { indexPending, newEvent, openTestStore, type TestStore } from './e2e.test-support.js';
import { T0 } from './fixtures.test-support.js';

describe('concept evidence in hybrid candidates (SQLite, fixed vectors)', () => {
  let store: TestStore;
  const axis = (i: number) => Float32Array.from({ length: 4 }, (_, j) => (j === i ? 1 : 0.05));
  beforeEach(async () => {
    store = await openTestStore('test-model', 4);
    await store.storage.appendEvents([
      newEvent({ id: 'evt_pet', sessionId: 'S1', name: 'user', content: 'Our beagle hides in the bathtub during thunderstorms.', ts: T0 }),
      newEvent({ id: 'evt_x', sessionId: 'S1', name: 'user', content: 'The build pipeline is green again after the cache fix.', ts: T0 + 1 }),
      newEvent({ id: 'evt_y', sessionId: 'S2', name: 'user', content: 'We repainted the kitchen walls last weekend.', ts: T0 + 2 }),
    ]);
    await indexPending(store.storage, {
      model: 'test-model',
      dimension: 4,
      init: async () => ({ dimension: 4 }),
      close: async () => undefined,
      embed: async (texts) => texts.map((t) => axis(t.length % 4)),
    });
  });
  afterEach(async () => {
    await store.close();
  });

  const relevance = async (query: string, concepts?: boolean) => {
    const sem = await fetchSemantic(store.storage, { tenant: 't1', query, vector: axis(3), k: 50, mode: 'hybrid', now: T0 + 60_000, concepts });
    return Object.fromEntries(sem.docs.map((d) => [d.refId, sem.fused.get(d.docId)!.relevance!]));
  };

  it('lifts the memory naming a member of the category the query asks about, and only that one', async () => {
    const on = await relevance('Which animals live with us?');
    const off = await relevance('Which animals live with us?', false);
    // The concept evidence c of the noisy-OR: 1 − (1 − on) / (1 − off), at most the concept weight 0.4.
    const c = 1 - (1 - on.evt_pet!) / (1 - off.evt_pet!);
    expect(c).toBeGreaterThan(0.1);
    expect(c).toBeLessThanOrEqual(0.4);
    expect(on.evt_x).toBe(off.evt_x);
    expect(on.evt_y).toBe(off.evt_y);
  });

  it('is on by default in the context config and can be turned off', () => {
    expect(parseContextConfig({}).semantic_retrieval.concepts).toBe(true);
    expect(parseContextConfig({ semantic_retrieval: { concepts: false } }).semantic_retrieval.concepts).toBe(false);
    expect(() => parseContextConfig({ semantic_retrieval: { concepts: 'yes' } })).toThrow();
  });
});
