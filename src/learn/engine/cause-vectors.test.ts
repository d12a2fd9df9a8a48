/**
 * Root causes are embedded when their episodes close, not when they are read: the learner stores each closed
 * episode's cause vector under `causeVectorKey`, the read path's case step takes it from the store, and a
 * forgotten episode's vector goes with it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHeuristicReranker } from '../../adapters/rerankers/heuristic.js';
import { openSqliteStorage } from '../../adapters/storage/sqlite/index.js';
import { causeVectorKey } from '../../core/docs-learn.js';
import { contentHash } from '../../core/text.js';
import type { Episode } from '../../core/types.js';
import { createMemory, type Memory } from '../../memory.js';
import type { Embedder } from '../../ports/embedder.js';
import type { Storage } from '../../ports/storage.js';
import { sharedEmbedder } from '../../../testing/memory-fixture.js';
import { causeVectors } from '../../read/cases.js';
import { allRoundEvents, ROUNDS, tickingClock } from './fixtures.test-support.js';
import { loadCauseVectors, storeCauseVectors } from './cause-vectors.js';

const QUERY = 'Nightly ETL job for the shipping warehouse failed with out-of-memory errors on spark executors';

/** The shared (deterministic) embedder, with every text it is asked to embed recorded. */
function countingEmbedder(seen: string[]): Embedder {
  const real = sharedEmbedder();
  return {
    get model() {
      return real.model;
    },
    get dimension() {
      return real.dimension;
    },
    init: () => real.init(),
    embed: (texts, o) => {
      seen.push(...texts);
      return real.embed(texts, o);
    },
    close: async () => undefined,
  };
}

describe('root-cause vectors stored at close', () => {
  const seen: string[] = [];
  let dir: string;
  let storage: Storage;
  let memory: Memory;
  let episodes: Episode[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'engram-cause-'));
    storage = await openSqliteStorage({ path: join(dir, 'engram.db') });
    memory = await createMemory({
      storage,
      embedder: countingEmbedder(seen),
      reranker: createHeuristicReranker(),
      config: { retention: { sweepIntervalMinutes: 0 }, learn: { engine: { background: false, reflect: false } } },
      clock: tickingClock(),
    });
    await memory.logEvents(allRoundEvents());
    await memory.flush();
    episodes = await memory.learn.episodes({ order: 'asc' });
  });
  afterAll(async () => {
    await memory.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores each closed episode’s cause vector, the one the embedder makes of the cause alone', async () => {
    const causes = [...new Set(episodes.filter((e) => e.closed && e.rootCause).map((e) => e.rootCause!))];
    expect(causes.length).toBeGreaterThanOrEqual(ROUNDS.length - 1);
    const stored = await storage.getEmbeddings(causes.map(causeVectorKey));
    expect(stored.size).toBe(causes.length);
    for (const cause of causes) {
      const [direct] = await sharedEmbedder().embed([cause]);
      expect([...stored.get(causeVectorKey(cause))!]).toEqual([...direct!]);
    }
    // A namespace of its own: a doc whose text is the cause has another key.
    expect(causeVectorKey(causes[0]!)).not.toBe(contentHash(causes[0]!));
  });

  it('a read after close embeds no root cause: only its query', async () => {
    const before = seen.length;
    const r = await memory.getContext(QUERY, { episodic_window: { mode: 'none' }, semantic_retrieval: { top_k: 5, kinds: ['episode', 'fact'] } });
    // The case step ran over several closed cases with causes (it reads their vectors) ...
    expect(r.items.filter((i) => i.kind === 'episode' && i.episode?.rootCause).length).toBeGreaterThanOrEqual(2);
    // ... and the only text embedded during the read is the query.
    expect(seen.slice(before)).toEqual([QUERY]);
  });

  it('stores nothing twice: a second store of the same episodes embeds nothing', async () => {
    const before = seen.length;
    const n = await storeCauseVectors({ storage, embedder: countingEmbedder(seen), onError: (e) => { throw e; } }, episodes);
    expect(n).toBe(0);
    expect(seen.length).toBe(before);
  });

  it('a corrected cause is stored and read under its own text, never with the corrected-away vector', async () => {
    const ep = episodes.find((e) => e.closed && e.rootCause)!;
    const corrected = { ...ep, rootCause: 'The read replica lagged behind the primary after a failover.' };
    const n = await storeCauseVectors({ storage, embedder: countingEmbedder(seen), onError: (e) => { throw e; } }, [corrected]);
    expect(n).toBe(1);
    const [own] = await sharedEmbedder().embed([corrected.rootCause]);
    const deps = { storage, embedQuery: async () => { throw new Error('a stored cause is not embedded again'); } } as unknown as Parameters<typeof causeVectors>[0];
    const read = await causeVectors(deps, [corrected.rootCause]);
    expect([...read.get(corrected.rootCause)!]).toEqual([...own!]);
    const [old] = (await storage.getEmbeddings([causeVectorKey(ep.rootCause!)])).values();
    expect([...own!]).not.toEqual([...old!]);
  });

  it('forgetting an episode drops its cause vector', async () => {
    const ep = episodes.find((e) => e.closed && e.rootCause && episodes.filter((o) => o.rootCause === e.rootCause).length === 1)!;
    expect((await storage.getEmbeddings([causeVectorKey(ep.rootCause!)])).size).toBe(1);
    await memory.forget({ ids: [ep.id] });
    expect((await storage.getEmbeddings([causeVectorKey(ep.rootCause!)])).size).toBe(0);
  });
});

describe('causeVectors (read path)', () => {
  const v = (x: number) => new Float32Array([x, 1 - x]);
  it('takes stored vectors and embeds only the causes without one', async () => {
    const asked: string[] = [];
    const stored = new Map([[causeVectorKey('stored cause'), v(1)]]);
    const deps = {
      storage: { getEmbeddings: async (hashes: readonly string[]) => new Map(hashes.flatMap((h) => (stored.has(h) ? [[h, stored.get(h)!] as const] : []))) },
      embedQuery: async (t: string) => {
        asked.push(t);
        return v(0);
      },
    } as unknown as Parameters<typeof causeVectors>[0];
    const out = await causeVectors(deps, ['stored cause', 'older cause']);
    expect(asked).toEqual(['older cause']);
    expect([...out.get('stored cause')!]).toEqual([1, 0]);
    expect([...out.get('older cause')!]).toEqual([0, 1]);
  });

  it('embeds nothing and asks the store nothing for no causes', async () => {
    let calls = 0;
    const deps = {
      storage: { getEmbeddings: async () => (calls++, new Map()) },
      embedQuery: async () => (calls++, undefined),
    } as unknown as Parameters<typeof causeVectors>[0];
    expect((await causeVectors(deps, [])).size).toBe(0);
    expect(calls).toBe(0);
  });
});

describe('loadCauseVectors (learn path)', () => {
  const v = (x: number) => new Float32Array([x, 1 - x]);
  const storageWith = (stored: Map<string, Float32Array>) =>
    ({ getEmbeddings: async (hashes: readonly string[]) => new Map(hashes.flatMap((h) => (stored.has(h) ? [[h, stored.get(h)!] as const] : []))) }) as unknown as Storage;
  const embedderOf = (asked: string[], fail = false) =>
    ({
      embed: async (texts: string[]) => {
        if (fail) throw new Error('model down');
        asked.push(...texts);
        return texts.map(() => v(0));
      },
    }) as unknown as Embedder;

  it('takes stored vectors, embeds each missing cause once, and stores nothing', async () => {
    const asked: string[] = [];
    const stored = new Map([[causeVectorKey('stored cause'), v(1)]]);
    const out = await loadCauseVectors({ storage: storageWith(stored), embedder: embedderOf(asked), onError: (e) => { throw e; } }, ['stored cause', 'new cause', 'new cause']);
    expect(asked).toEqual(['new cause']);
    expect([...out.get('stored cause')!]).toEqual([1, 0]);
    expect([...out.get('new cause')!]).toEqual([0, 1]);
    expect(stored.size).toBe(1);
  });

  it('is empty without an embedder, and reports a failure instead of throwing', async () => {
    const errors: unknown[] = [];
    const storage = storageWith(new Map([[causeVectorKey('stored cause'), v(1)]]));
    expect((await loadCauseVectors({ storage, embedder: undefined, onError: (e) => errors.push(e) }, ['stored cause'])).size).toBe(0);
    const failed = await loadCauseVectors({ storage, embedder: embedderOf([], true), onError: (e) => errors.push(e) }, ['stored cause', 'new cause']);
    expect(failed.size).toBe(0);
    expect(errors).toHaveLength(1);
  });
});
