import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { conversationSchema, parseContextConfig } from '../core/config.js';
import { newEvent, openTestStore, readDeps, type TestStore } from './e2e.test-support.js';
import { T0 } from './fixtures.test-support.js';
import { search } from './search.js';
import { informationPrior } from './turns.js';

const OFF = conversationSchema.parse({ information_weight: 0, answer_share: 0, context_share: 0 });

describe('the conversation steps in the config', () => {
  it('defaults to the tuned values, and a context config can set each', () => {
    expect(parseContextConfig({}).semantic_retrieval.conversation).toEqual({
      information_weight: 0.04,
      information_reference: 15,
      answer_share: 0.5,
      context_share: 0.2,
      context_reach: 2,
    });
    expect(parseContextConfig({ semantic_retrieval: { conversation: { answer_share: 0 } } }).semantic_retrieval.conversation.answer_share).toBe(0);
  });

  describe('through hybrid search (SQLite, lexical signal only)', () => {
    let store: TestStore;
    const now = T0 + 60_000;
    beforeEach(async () => {
      store = await openTestStore('test-model', 4);
      await store.storage.appendEvents([
        newEvent({ id: 'evt_q', sessionId: 'S1', name: 'Ann', content: 'What kind of art do you make these days?', ts: T0 }),
        newEvent({ id: 'evt_a', sessionId: 'S1', name: 'Bo', content: 'Pottery, mostly, and a little weaving on weekends with my sister.', ts: T0 + 1 }),
        newEvent({ id: 'evt_x', sessionId: 'S2', name: 'Cy', content: 'The build pipeline is green again after the cache fix.', ts: T0 + 2 }),
      ]);
    });
    afterEach(async () => {
      await store.close();
    });

    it('lowers the question by its prior and lifts its reply with the defaults, and does neither when off', async () => {
      const deps = readDeps(store.storage, now, async () => undefined);
      const query = 'what kind of art do you make';
      const relevanceOf = async (conversation?: typeof OFF) => {
        const hits = await search(deps, { tenant: 't1', query, k: 5, rerank: false, ...(conversation ? { conversation } : {}) });
        return Object.fromEntries(hits.map((h) => [h.doc.refId, h.scores.relevance!]));
      };
      const on = await relevanceOf();
      const off = await relevanceOf(OFF);
      expect(on.evt_q).toBeCloseTo(off.evt_q! + informationPrior('Ann: What kind of art do you make these days?', { informationWeight: 0.04, informationReference: 15 }));
      expect(on.evt_a).toBeGreaterThan(off.evt_a!);
    });
  });
});
