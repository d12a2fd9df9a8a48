import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isEngramError } from '../core/errors.js';
import { parseFilter } from '../core/filter.js';
import type { Embedder } from '../ports/embedder.js';
import { T0, DAY } from './fixtures.test-support.js';
import { embedWith, indexPending, newEvent, openTestStore, putFacts, readDeps, realEmbedder, type TestStore } from './e2e.test-support.js';
import { search } from './search.js';
import type { ReadDeps } from './types.js';

const NOW = T0 + DAY;

/** Agent memories in one tenant; the two targets are worded so each is reachable by one signal only. */
const MEMORIES = [
  // Paraphrase target: the query below shares no word with it.
  'The nightly build broke because the CI runner ran out of disk space while caching Docker layers; clearing /var/lib/docker fixed it.',
  // Rare-code target: three checkout/sale memories are semantically closer to the query than it is.
  'Postgres answered ERR_PG_53300 (too many clients already); putting pgbouncer in transaction mode in front of it fixed it.',
  'The weekly report job queue backed up because the scheduler was paused by a config flag.',
  'Checkout service errors during the sale were caused by an exhausted connection pool in the cart service.',
  'The checkout service returned 500s during the Black Friday sale because of a bad deploy.',
  'Checkout latency during the holiday sale came from a slow payment provider.',
  'Login requests were slow because the session cache evicted keys too early.',
  'The flaky test in payments relied on the system clock; we now inject a fake time source.',
  'Webhook deliveries were duplicated because retries ignored idempotency keys.',
  'The mobile app crashed on startup when the feature flag service timed out.',
  'The search index rebuild failed because Elasticsearch ran out of heap.',
  'Deploys to staging failed with a 403 because the service account token had expired.',
];

describe('search (SQLite + USE-lite)', () => {
  let embedder: Embedder;
  let store: TestStore;
  let deps: ReadDeps;

  beforeAll(async () => {
    embedder = await realEmbedder();
  });
  afterAll(async () => {
    await embedder.close();
  });

  beforeEach(async () => {
    store = await openTestStore(embedder.model, embedder.dimension);
    await putFacts(
      store.storage,
      MEMORIES.map((text, i) => ({ text, recordedAt: T0 - i * 3_600_000, source: 'notes.md', tags: i % 2 ? ['ops'] : [] })),
    );
    await indexPending(store.storage, embedder);
    deps = readDeps(store.storage, NOW, embedWith(embedder));
  });
  afterEach(async () => {
    await store.close();
  });

  const paraphrase = "automated overnight compilation died when our worker machine's hard drive was full";
  const errorCode = 'Seeing ERR_PG_53300 in the checkout service during the sale again';

  it('finds a paraphrased memory through the vector signal where lexical search cannot', async () => {
    const lexical = await search(deps, { tenant: 't1', query: paraphrase, k: 3, mode: 'lexical' });
    expect(lexical.map((h) => h.doc.text)).not.toContain(MEMORIES[0]);
    const hybrid = await search(deps, { tenant: 't1', query: paraphrase, k: 3 });
    expect(hybrid[0]!.doc.text).toBe(MEMORIES[0]);
    expect(hybrid[0]!.scores.vector).toBeGreaterThan(0.5);
    expect(hybrid[0]!.scores.lexical).toBe(0);
  });

  it('finds a rare exact term lexically when the vector alone misses it', async () => {
    const vector = await search(deps, { tenant: 't1', query: errorCode, k: 1, mode: 'vector' });
    expect(vector[0]!.doc.text).not.toBe(MEMORIES[1]);
    const hybrid = await search(deps, { tenant: 't1', query: errorCode, k: 3 });
    expect(hybrid[0]!.doc.text).toBe(MEMORIES[1]);
    expect(hybrid[0]!.scores.lexical).toBeGreaterThan(0.5);
  });

  it('degrades to lexical search when no query vector is available, and refuses vector-only search', async () => {
    const down = { ...deps, embedQuery: async () => undefined };
    const hits = await search(down, { tenant: 't1', query: 'Elasticsearch heap', k: 2 });
    expect(hits[0]!.doc.text).toBe(MEMORIES[10]);
    expect(hits[0]!.scores.vector).toBeNull();
    expect(hits[0]!.scores.lexical).toBeGreaterThan(0);
    const err = await search(down, { tenant: 't1', query: 'Elasticsearch heap', k: 2, mode: 'vector' }).catch((e: unknown) => e);
    expect(isEngramError(err, 'UNAVAILABLE')).toBe(true);
  });

  it('honours kinds, filters, scope and tenant', async () => {
    await store.storage.appendEvents([
      newEvent({ tenant: 't1', content: 'Elasticsearch heap alarm fired on search-3.', ts: T0, sessionId: 's1', type: 'observation' }),
      newEvent({ tenant: 't2', content: 'Elasticsearch heap settings for tenant two.', ts: T0 }),
    ]);
    await indexPending(store.storage, embedder);
    const query = 'Elasticsearch heap';
    const events = await search(deps, { tenant: 't1', query, k: 5, kinds: ['event'] });
    expect(events.map((h) => h.doc.text)).toEqual(['Elasticsearch heap alarm fired on search-3.']);
    const ops = await search(deps, { tenant: 't1', query, k: 20, filter: parseFilter({ tags: ['ops'] }) });
    expect(ops.length).toBeGreaterThan(0);
    expect(ops.every((h) => h.doc.tags.includes('ops'))).toBe(true);
    const strict = await search(deps, { tenant: 't1', query, k: 20, scope: { sessionId: 's1' }, scopeMode: 'strict' });
    expect(strict.map((h) => h.doc.kind)).toEqual(['event']);
    // Layered (the default): the session's event plus the tenant-shared memories, each labelled.
    const scoped = await search(deps, { tenant: 't1', query, k: 20, scope: { sessionId: 's1' } });
    expect(scoped.filter((h) => h.layer === 'session').map((h) => h.doc.kind)).toEqual(['event']);
    expect(scoped.length).toBeGreaterThan(1);
    expect(scoped.filter((h) => h.layer !== 'session').every((h) => h.layer === 'shared' && h.doc.userId === undefined && h.doc.sessionId === undefined)).toBe(true);
    const other = await search(deps, { tenant: 't2', query, k: 20 });
    expect(other.map((h) => h.doc.text)).toEqual(['Elasticsearch heap settings for tenant two.']);
  });

  it('reranks on request and records the reranker score', async () => {
    const plain = await search(deps, { tenant: 't1', query: 'token expired 403 staging deploy', k: 3 });
    expect(plain.every((h) => h.scores.rerank === null)).toBe(true);
    const reranked = await search(deps, { tenant: 't1', query: 'token expired 403 staging deploy', k: 3, rerank: true });
    expect(reranked[0]!.doc.text).toBe(MEMORIES[11]);
    const top = reranked[0]!.scores;
    expect(top.rerank).toBeGreaterThan(reranked[1]!.scores.rerank!);
    // relevance = (1 − α) fused + α rerank with the adaptive α of rerank.ts (0 < α ≤ ½); the fused part is
    // what the plain search reported.
    const fused = plain.find((h) => h.doc.docId === reranked[0]!.doc.docId)!.scores.relevance!;
    const alpha = (top.relevance! - fused) / (top.rerank! - fused);
    expect(alpha).toBeGreaterThan(0);
    expect(alpha).toBeLessThanOrEqual(0.5 + 1e-12);
    expect(reranked.map((h) => h.score)).toEqual([...reranked.map((h) => h.score)].sort((a, b) => b - a));
  });

  it('rejects a bad request naming the field', async () => {
    const err = await search(deps, { tenant: 't1', query: 'x', k: 0 }).catch((e: unknown) => e);
    expect(isEngramError(err, 'VALIDATION')).toBe(true);
    expect((err as { issues: { path: string }[] }).issues[0]!.path).toBe('k');
    const empty = await search(deps, { tenant: 't1', query: '  ', k: 1 }).catch((e: unknown) => e);
    expect((empty as { issues: { path: string }[] }).issues[0]!.path).toBe('query');
  });
});
