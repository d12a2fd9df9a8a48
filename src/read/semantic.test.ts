import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DocHit, Storage } from '../ports/storage.js';
import { makeDoc } from './fixtures.test-support.js';
import { CALIBRATION_DEPTH } from './pool.js';
import { fetchSemantic, withinWindow } from './semantic.js';
import { newEvent, openTestStore, readDeps, type TestStore } from './e2e.test-support.js';
import { search } from './search.js';
import { queryTimeWindow } from './time-window.js';

const DAY = 86_400_000;
const NAMED = Date.UTC(2023, 9, 24, 12); // 24 October 2023, noon
const EARLIER = Date.UTC(2023, 5, 1);
const NOW = Date.UTC(2024, 0, 1);
const QUERY = 'What did we deploy on October 24, 2023?';

describe('memories from the time a query names join the candidates', () => {
  let store: TestStore;
  beforeEach(async () => {
    store = await openTestStore('test-model', 4);
    await store.storage.appendEvents([
      // Twelve earlier notes that match the query's words better than the dated one does.
      ...Array.from({ length: 12 }, (_, i) => newEvent({ id: `evt_old${i}`, content: `deploy deploy of the payments service, run ${i}`, ts: EARLIER + i * DAY })),
      // Unrelated notes keep "deploy" from being a word of half the store.
      ...Array.from({ length: 20 }, (_, i) => newEvent({ id: `evt_misc${i}`, content: `lunch order number ${i} for the team`, ts: EARLIER + i * DAY })),
      newEvent({ id: 'evt_dated', content: 'Shipped the billing deploy after the long review meeting with finance and legal.', ts: NAMED }),
    ]);
  });
  afterEach(() => store.close());

  /** Candidate ids; `dated: false` leaves out the window the query names. */
  const candidates = async (mode: 'hybrid' | 'lexical', dated = true) => {
    const timeWindow = dated ? queryTimeWindow(QUERY, NOW) : undefined;
    const sem = await fetchSemantic(store.storage, { tenant: 't1', query: QUERY, k: 5, mode, now: NOW, timeWindow });
    return sem.docs.map((d) => d.refId);
  };

  it('searches the named time as well as the whole store, in hybrid mode', async () => {
    expect(await candidates('hybrid', false)).not.toContain('evt_dated');
    const dated = await candidates('hybrid');
    expect(dated).toContain('evt_dated');
    // The pool is the main search's plus the dated hits: nothing of the main pool is lost.
    expect(dated.filter((id) => id !== 'evt_dated')).toEqual(await candidates('hybrid', false));
  });

  it('leaves the single-signal modes to their signal alone', async () => {
    expect(await candidates('lexical')).not.toContain('evt_dated');
  });

  it('lets search rank the dated memory first once the time factor lifts it', async () => {
    const deps = readDeps(store.storage, NOW, async () => undefined);
    const hits = await search(deps, { tenant: 't1', query: QUERY, k: 3, rerank: false });
    expect(hits[0]?.doc.refId).toBe('evt_dated');
    const undated = await search(deps, { tenant: 't1', query: 'What did we deploy?', k: 3, rerank: false });
    expect(undated.map((h) => h.doc.refId)).not.toContain('evt_dated');
  });

  it('narrows a caller filter to the window rather than replacing it', () => {
    const own = { op: 'cmp', field: { kind: 'column', name: 'type' }, cmp: 'eq', value: 'note' } as const;
    const node = withinWindow(own, { start: 10, end: 20 });
    expect(node).toEqual({
      op: 'and',
      children: [own, { op: 'cmp', field: { kind: 'column', name: 'ts' }, cmp: 'gte', value: 10 }, { op: 'cmp', field: { kind: 'column', name: 'ts' }, cmp: 'lt', value: 20 }],
    });
  });
});

describe('the head of each signal', () => {
  // Every hit ties and the ids arrive descending (the index's tie-break): the one past CALIBRATION_DEPTH is deep,
  // whatever its id.
  const tied: DocHit[] = Array.from({ length: CALIBRATION_DEPTH + 1 }, (_, i) => ({ docId: CALIBRATION_DEPTH + 1 - i, score: 0.5 }));
  const storage = {
    lexicalSearch: async (q: { k: number }) => tied.slice(0, q.k),
    vectorSearch: async (q: { k: number }) => tied.slice(0, q.k),
    getDocs: async (_tenant: string, ids: readonly number[]) => ids.map((docId) => makeDoc({ docId, contentHash: `h${docId}`, text: `note ${docId} on the deploy` })),
    getEmbeddings: async () => new Map<string, Float32Array>(),
  } as unknown as Storage;

  it('is the first CALIBRATION_DEPTH lexical hits as the index returned them', async () => {
    const sem = await fetchSemantic(storage, { tenant: 't1', query: 'deploy', k: 100, mode: 'lexical', now: NOW });
    expect([...(sem.deep ?? [])]).toEqual([1]);
  });

  it('is the first CALIBRATION_DEPTH vector hits as the index returned them', async () => {
    const sem = await fetchSemantic(storage, { tenant: 't1', query: 'deploy', vector: Float32Array.from([1, 0]), k: 100, mode: 'vector', now: NOW });
    expect([...(sem.deep ?? [])]).toEqual([1]);
  });
});
