import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Embedder } from '../ports/embedder.js';
import { DAY, HOUR, T0 } from './fixtures.test-support.js';
import { INCIDENT_MEMORIES, INCIDENT_QUERIES } from './incidents.test-support.js';
import { embedWith, indexPending, newEvent, openTestStore, readDeps, realEmbedder, type TestStore } from './e2e.test-support.js';
import { parseContextConfig } from '../core/config.js';
import { buildContext } from './context.js';
import { CALIBRATION_DEPTH, CONTEXT_HEAD_TOP_K } from './pool.js';
import { search } from './search.js';
import type { ContextItem, ReadDeps, RetrievalMode } from './types.js';

/**
 * Asking for more results must not change the first ones: for the same query and data, the first m hits of
 * search(k) are the first m of search(k') for m ≤ k ≤ k'. The store holds more memories than the smallest pool
 * (pool.ts: CALIBRATION_DEPTH), so a larger k fetches a deeper pool from each index.
 */
const MEMORIES = INCIDENT_MEMORIES;
const QUERIES = INCIDENT_QUERIES;
// 100 and 120 go past the reranker's fixed window (CALIBRATION_DEPTH): what lies past it is appended unreranked.
const KS = [5, 10, 20, 30, 60, 100, 120];
/** getContext's top_k from CONTEXT_HEAD_TOP_K (below it the pool, 4·top_k, still grows into the calibration head) to the maximum. */
const TOP_KS = [CONTEXT_HEAD_TOP_K, 25, 30, 40, 60, 120, 200];
const MODES: [RetrievalMode, boolean][] = [
  ['lexical', false],
  ['vector', false],
  ['hybrid', false],
  ['hybrid', true],
];

describe('search: the head does not depend on the k asked (SQLite + USE-lite)', () => {
  let embedder: Embedder;
  let store: TestStore;
  let deps: ReadDeps;

  beforeAll(async () => {
    embedder = await realEmbedder();
    store = await openTestStore(embedder.model, embedder.dimension);
    await store.storage.appendEvents(
      MEMORIES.map((content, i) => newEvent({ id: `evt_${i}`, sessionId: `S${i % 7}`, name: i % 2 ? 'assistant' : 'user', content, ts: T0 + i * HOUR })),
    );
    await indexPending(store.storage, embedder);
    deps = readDeps(store.storage, T0 + 100 * DAY, embedWith(embedder));
  }, 60_000);
  afterAll(async () => {
    await store.close();
    await embedder.close();
  });

  it('holds more memories than the smallest pool', () => {
    expect(MEMORIES.length).toBeGreaterThan(CALIBRATION_DEPTH);
  });

  it('reranks a fixed window whatever k asks: a k above it adds candidates the reranker did not see', async () => {
    for (const query of QUERIES) {
      const at = async (k: number) => search(deps, { tenant: 't1', query, k, mode: 'hybrid', rerank: true });
      const [k60, k100, k120] = [await at(60), await at(100), await at(120)];
      const reranked = (hits: typeof k60) => hits.filter((h) => h.scores.rerank !== null).map((h) => h.doc.refId);
      expect(k120.length, query).toBeGreaterThan(CALIBRATION_DEPTH);
      // The window is full (more memories than it holds) and no wider at k 120 than at k 100.
      expect(reranked(k120).length, query).toBe(CALIBRATION_DEPTH);
      expect(reranked(k120), query).toEqual(reranked(k100));
      expect(reranked(k60).every((id) => reranked(k100).includes(id)), query).toBe(true);
    }
  }, 60_000);

  for (const [mode, rerank] of MODES) {
    it(`${mode}${rerank ? ' with rerank' : ''}: search(k) is a prefix of search(k') for k ≤ k'`, async () => {
      for (const query of QUERIES) {
        const lists = [];
        for (const k of KS) lists.push((await search(deps, { tenant: 't1', query, k, mode, rerank })).map((h) => h.doc.refId));
        for (let i = 1; i < KS.length; i++) {
          const shorter = lists[i - 1]!;
          expect(lists[i]!.slice(0, shorter.length), `${query} at k ${KS[i - 1]} vs ${KS[i]}`).toEqual(shorter);
        }
      }
    }, 60_000);
  }

  for (const rerank of [true, false]) {
    it(`getContext${rerank ? '' : ' without the reranker'}: the context at top_k ${CONTEXT_HEAD_TOP_K} is the head of the context at every larger top_k, with the same scores`, async () => {
      const semantic = (items: readonly ContextItem[]) => items.filter((i) => i.section !== 'episodic_recent');
      const recent = (items: readonly ContextItem[]) => items.filter((i) => i.section === 'episodic_recent');
      for (const query of QUERIES) {
        const contexts = [];
        for (const top_k of TOP_KS) {
          // A budget that holds every item: only retrieval and selection differ.
          const config = parseContextConfig({ semantic_retrieval: { top_k, reranker: { enabled: rerank } }, merge_policy: { token_budget: 1_000_000 } });
          contexts.push((await buildContext(deps, { tenant: 't1', query, config })).items);
        }
        const base = contexts[0]!;
        for (let i = 1; i < TOP_KS.length; i++) {
          const larger = contexts[i]!;
          const at = `${query} at top_k ${TOP_KS[0]} vs ${TOP_KS[i]}`;
          expect(recent(larger), at).toEqual(recent(base));
          const head = semantic(larger).slice(0, semantic(base).length);
          expect(head.map((x) => x.id), at).toEqual(semantic(base).map((x) => x.id));
          head.forEach((x, j) => expect(x.scores.final, `${at}: ${x.id}`).toBeCloseTo(semantic(base)[j]!.scores.final, 8));
        }
        // The fixture asks for more than the head holds: the larger contexts do add items.
        expect(semantic(contexts.at(-1)!).length, query).toBeGreaterThan(semantic(base).length);
      }
    }, 120_000);
  }
});
