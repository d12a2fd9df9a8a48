import { afterEach, describe, expect, it } from 'vitest';
import { openTestMemory, type TestMemory } from '../../testing/memory-fixture.js';
import { makeFact, reviseFact } from '../testing/storage-factories.js';
import type { Fact } from '../core/types.js';
import { RETIRED, withoutRetired } from './retired.js';

let tm: TestMemory | undefined;
afterEach(async () => {
  await tm?.cleanup();
  tm = undefined;
});

const NOW = Date.now();
const QUERY = 'the nightly export files stopped being written';

/** A live note, and retired rules whose closing versions match the query's words better than it does. */
async function seed(): Promise<{ live: Fact; closings: Fact[] }> {
  tm = await openTestMemory({ learn: { engine: { background: false, reflect: false } } });
  const storage = tm.memory.storage;
  const base = { tenant: 'default', kind: 'heuristic' as const, tags: [], recordedAt: NOW - 60_000, validFrom: NOW - 60_000 };
  const live = makeFact({ ...base, kind: 'fact', metadata: {}, text: 'The archive credentials expired, so the export files were not written.' });
  await storage.putFact(live);
  const closings: Fact[] = [];
  for (const [i, cause] of ['the export worker', 'the export schedule', 'the export disk'].entries()) {
    const rule = makeFact({ ...base, metadata: {}, text: `When the nightly export files stopped being written, check ${cause} (${i}).` });
    await storage.putFact(rule);
    const at = NOW - 30_000;
    const closing = reviseFact(rule, `${rule.text} Retired: its condition was met by 2 report(s) of other causes: the nightly export files stopped being written.`, {
      recordedAt: at,
      validFrom: at,
      validTo: at,
      metadata: { retired: { reason: 'condition_not_discriminating' } },
    });
    await storage.putFact(closing);
    closings.push(closing);
  }
  return { live, closings };
}

describe('retired rules leave in the store query', () => {
  it('narrows a read of now only', () => {
    expect(withoutRetired(undefined, {})).toEqual({ op: 'not', child: RETIRED });
    expect(withoutRetired(undefined, { asOf: 1 })).toBeUndefined();
    expect(withoutRetired(undefined, { knownAt: 1 })).toBeUndefined();
  });

  it('a retired rule no longer takes a small pool slot from a live memory', async () => {
    const { live } = await seed();
    const ctx = await tm!.memory.getContext(QUERY, { episodic_window: { mode: 'none' }, semantic_retrieval: { top_k: 1, candidates: 2, kinds: ['fact'] } });
    expect(ctx.items.map((i) => i.id)).toEqual([live.id]);
    const hits = await tm!.memory.search({ query: QUERY, k: 1, kinds: ['fact'] });
    expect(hits.map((h) => h.doc.refId)).toEqual([live.id]);
  });

  it('explain still names a retired rule the query finds, by validity; a read as of before serves the rule', async () => {
    const { closings } = await seed();
    const config = { episodic_window: { mode: 'none' as const }, semantic_retrieval: { top_k: 4, kinds: ['fact' as const] } };
    const ctx = await tm!.memory.getContext(QUERY, { ...config, explain: true });
    expect(ctx.droppedItems?.filter((d) => d.reason === 'validity').map((d) => d.id).sort()).toEqual(closings.map((c) => c.id).sort());
    const before = await tm!.memory.getContext(QUERY, { ...config, as_of: NOW - 40_000 });
    expect(before.items.map((i) => i.id)).toEqual(expect.arrayContaining(closings.map((c) => c.supersedes)));
  });
});
