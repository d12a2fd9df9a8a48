import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { conversationSchema, parseContextConfig } from '../core/config.js';
import { newEvent, openTestStore, readDeps, type TestStore } from './e2e.test-support.js';
import { T0 } from './fixtures.test-support.js';
import { search } from './search.js';
import { indexPending } from './e2e.test-support.js';
import { informationPrior } from './turns.js';

const OFF = conversationSchema.parse({ information_weight: 0, answer_share: 0, context_share: 0, author_bonus: 0 });

describe('the conversation steps in the config', () => {
  it('defaults to the tuned values, and a context config can set each', () => {
    expect(parseContextConfig({}).semantic_retrieval.conversation).toEqual({
      information_weight: 0.04,
      information_reference: 15,
      answer_share: 0.5,
      context_share: 0.2,
      context_reach: 2,
      author_bonus: 0.15,
      question_discount: 1,
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

  describe('the question discount, through vector search (SQLite, fixed vectors)', () => {
    let store: TestStore;
    const now = T0 + 60_000;
    const axis = (i: number) => Float32Array.from({ length: 4 }, (_, j) => (j === i ? 1 : 0.05));
    beforeEach(async () => {
      store = await openTestStore('test-model', 4);
      await store.storage.appendEvents([
        newEvent({ id: 'evt_q', sessionId: 'S1', name: 'Ann', content: 'What do you like to paint these days?', ts: T0 }),
        newEvent({ id: 'evt_s', sessionId: 'S1', name: 'Bo', content: 'Sunsets over the lake, mostly in oils.', ts: T0 + 1 }),
        // Turns of the same two people: the question form applies only to a store that reads as a conversation.
        ...[1, 2, 3, 1, 2, 3].map((_, i) => newEvent({ id: `evt_f${i}`, sessionId: 'S2', name: i % 2 ? 'Ann' : 'Bo', content: `Unrelated note number ${i}.`, ts: T0 + 2 + i })),
      ]);
      // Both turns point the same way as the query; the notes elsewhere.
      await indexPending(store.storage, {
        model: 'test-model',
        dimension: 4,
        init: async () => ({ dimension: 4 }),
        close: async () => undefined,
        embed: async (texts) => texts.map((t) => (t.includes('paint') || t.includes('Sunsets') ? axis(0) : axis(1 + (t.length % 3)))),
      });
    });
    afterEach(async () => {
      await store.close();
    });

    const vectorOf = async (query: string, conversation?: { question_discount: number }) => {
      const deps = readDeps(store.storage, now, async () => axis(0));
      const hits = await search(deps, { tenant: 't1', query, k: 8, mode: 'vector', ...(conversation ? { conversation: conversationSchema.parse(conversation) } : {}) });
      return Object.fromEntries(hits.map((h) => [h.doc.refId, h.scores.vector!]));
    };

    it("takes a question's vector evidence away when the query asks, and keeps a statement's", async () => {
      const on = await vectorOf('What does Bo like to paint?');
      const off = await vectorOf('What does Bo like to paint?', { question_discount: 0 });
      expect(off.evt_q).toBeGreaterThan(0.5);
      expect(off.evt_q).toBeCloseTo(off.evt_s!, 12);
      expect(on.evt_q).toBe(0);
      expect(on.evt_s).toBeCloseTo(off.evt_s!, 12);
      const half = await vectorOf('What does Bo like to paint?', { question_discount: 0.5 });
      expect(half.evt_q).toBeCloseTo(off.evt_q! / 2, 12);
    });

    it("leaves every memory's vector evidence as it is when the query does not ask", async () => {
      const stated = await vectorOf('Bo paints sunsets');
      expect(stated.evt_q).toBeGreaterThan(0.5);
      expect(stated.evt_q).toBeCloseTo(stated.evt_s!, 12);
    });
  });
});
