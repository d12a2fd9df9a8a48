import { InMemoryStore } from '@langchain/langgraph-checkpoint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isEngramError } from '../../core/errors.js';
import type { Memory } from '../../memory.js';
import { manualClock, tempMemory, type TempMemory } from '../memory.test-support.js';
import { storeConformance } from './conformance.test-support.js';
import { factKeyOf } from './mapping.js';
import { EngramStore } from './store.js';

// One memory (the embedding model loads once); each conformance case gets its own agent scope, so cases never
// see each other's items.
let shared: TempMemory;
let sharedMemory: Memory;
let run = 0;
beforeAll(async () => {
  shared = tempMemory('lg-store');
  sharedMemory = await shared.open();
});
afterAll(async () => shared.cleanup());

storeConformance('LangGraph InMemoryStore (reference)', async () => ({ store: new InMemoryStore(), close: async () => undefined }));
storeConformance('EngramStore', async () => ({ store: new EngramStore({ memory: sharedMemory, scope: { agentId: `case-${++run}` } }), close: async () => undefined }));

describe('EngramStore on Engram', () => {
  const store = (opts: Partial<ConstructorParameters<typeof EngramStore>[0]> = {}) =>
    new EngramStore({ memory: sharedMemory, scope: { agentId: `own-${++run}` }, ...opts });

  it('keeps each item as a versioned Engram fact with its namespace in the metadata', async () => {
    const s = store();
    await s.put(['memories', 'u1'], 'food', { text: 'likes ramen' });
    await s.put(['memories', 'u1'], 'food', { text: 'likes udon' });
    const versions = await sharedMemory.factHistory(factKeyOf(['memories', 'u1'], 'food'));
    expect(versions.map((f) => f.text)).toEqual(['text: likes ramen', 'text: likes udon']);
    expect(versions[1]!.metadata).toMatchObject({ lg_namespace: ['memories', 'u1'], lg_key: 'food', lg_value: { text: 'likes udon' } });
    expect(versions[1]!.tags).toContain('langgraph');
    expect(versions[0]!.expiredAt).toBeDefined();
  });

  it('ranks items by meaning for a query, within the prefix and filter, with a score', async () => {
    const s = store();
    await s.put(['notes', 'u1'], 'n1', { text: 'The user is allergic to peanuts', kind: 'health' });
    await s.put(['notes', 'u1'], 'n2', { text: 'The user prefers window seats on flights', kind: 'travel' });
    await s.put(['notes', 'u1'], 'n3', { text: 'The user drives a blue bicycle to work', kind: 'travel' });
    await s.put(['notes', 'u2'], 'n4', { text: 'Another user is allergic to shellfish', kind: 'health' });
    await sharedMemory.flush({ learn: false });
    const hits = await s.search(['notes', 'u1'], { query: 'food allergy', limit: 2 });
    expect(hits[0]!.key).toBe('n1');
    expect(typeof hits[0]!.score).toBe('number');
    expect(hits.every((h) => h.namespace[1] === 'u1')).toBe(true);
    const travel = await s.search(['notes'], { query: 'airplane seat', filter: { kind: 'travel' }, limit: 5 });
    expect(travel[0]!.key).toBe('n2');
    expect(travel.map((h) => h.key).sort()).toEqual(['n2', 'n3']);
    const offset = await s.search(['notes', 'u1'], { query: 'food allergy', limit: 1, offset: 1 });
    expect(offset).toHaveLength(1);
    expect(offset[0]!.key).toBe(hits[1]!.key);
  });

  it('indexes only the fields asked for, and never ranks an item put with index false', async () => {
    const s = store();
    await s.put(['kb'], 'a', { title: 'Quarterly revenue report', body: 'penguins in antarctica' }, ['title']);
    await s.put(['kb'], 'b', { title: 'Penguin migration', body: 'finance' }, false);
    await sharedMemory.flush({ learn: false });
    const hits = await s.search(['kb'], { query: 'penguins antarctica', limit: 5 });
    // "a" is found only by its indexed title; "b" is never ranked and fills the page, unscored.
    expect(hits.map((h) => h.key)).toEqual(['a', 'b']);
    expect(hits[1]!.score).toBeUndefined();
  });

  it('saves a change outside the indexed fields (same text, other value)', async () => {
    const s = store();
    await s.put(['kb'], 'x', { title: 'Same title', n: 1 }, ['title']);
    await s.put(['kb'], 'x', { title: 'Same title', n: 2 }, ['title']);
    expect((await s.get(['kb'], 'x'))!.value).toEqual({ title: 'Same title', n: 2 });
  });

  it('expires items after their TTL (default or per put) and can put them again', async () => {
    const clock = manualClock();
    const tm = tempMemory('lg-ttl');
    try {
      const memory = await tm.open({ clock });
      const s = new EngramStore({ memory, clock, ttl: { defaultTtl: 10 } });
      await s.put(['t'], 'short', { v: 1 });
      await s.put(['t'], 'long', { v: 2 }, undefined, { ttl: 60 });
      await s.put(['t'], 'forever', { v: 3 }, undefined, { ttl: null });
      clock.advanceMinutes(11);
      expect(await s.get(['t'], 'short')).toBeNull();
      expect((await s.search(['t'])).map((i) => i.key).sort()).toEqual(['forever', 'long']);
      clock.advanceMinutes(50);
      expect((await s.search(['t'])).map((i) => i.key)).toEqual(['forever']);
      expect(await s.listNamespaces()).toEqual([['t']]);
      await s.put(['t'], 'short', { v: 4 });
      expect((await s.get(['t'], 'short'))!.value).toEqual({ v: 4 });
    } finally {
      await tm.cleanup();
    }
  });

  it('forgets deleted items physically and drops emptied namespaces from listings', async () => {
    const s = store();
    await s.put(['gone', 'a'], 'k', { secret: 'x' });
    await s.put(['kept'], 'k', { v: 1 });
    await s.delete(['gone', 'a'], 'k');
    expect(await sharedMemory.factHistory(factKeyOf(['gone', 'a'], 'k'))).toEqual([]);
    expect(await s.listNamespaces()).toEqual([['kept']]);
  });

  it('isolates scopes and tenants', async () => {
    const a = store({ scope: { agentId: 'iso-a' } });
    const b = store({ scope: { agentId: 'iso-b' } });
    const t2 = store({ tenant: 'other-tenant', scope: {} });
    await a.put(['p'], 'k', { owner: 'a' });
    await t2.put(['p'], 'k', { owner: 't2' });
    expect(await b.get(['p'], 'k')).toBeNull();
    expect(await b.search(['p'])).toEqual([]);
    expect(await b.listNamespaces()).toEqual([]);
    expect((await a.get(['p'], 'k'))!.value).toEqual({ owner: 'a' });
    expect((await t2.get(['p'], 'k'))!.value).toEqual({ owner: 't2' });
  });

  it('rejects bad input with a VALIDATION error and writes nothing', async () => {
    const s = store();
    const codeOf = async (p: Promise<unknown>) => p.then(() => 'ok', (e: unknown) => (isEngramError(e) ? e.code : String(e)));
    expect(await codeOf(s.batch([{ namespace: ['a.b'], key: 'k', value: { v: 1 } }]))).toBe('VALIDATION');
    expect(await codeOf(s.batch([{ namespace: ['a'], key: '', value: { v: 1 } }]))).toBe('VALIDATION');
    expect(await codeOf(s.search(['a'], { filter: { v: { $regex: 'x' } } }))).toBe('VALIDATION');
    expect(await codeOf(s.put(['a'], 'k', { v: 1 }, undefined, { ttl: -5 }))).toBe('VALIDATION');
    expect(await codeOf(s.put(['a'], 'k', [1, 2] as unknown as Record<string, unknown>))).toBe('VALIDATION');
    expect(await s.listNamespaces()).toEqual([]);
  });

  it("applies the memory's PII policy to values (scrubbed by default, verbatim when disabled)", async () => {
    const s = store();
    await s.put(['contacts'], 'c', { email: 'ana@example.com' });
    expect((await s.get(['contacts'], 'c'))!.value.email).not.toContain('ana@example.com');
    const tm = tempMemory('lg-pii', { pii: { enabled: false } });
    try {
      const plain = new EngramStore({ memory: await tm.open() });
      await plain.put(['contacts'], 'c', { email: 'ana@example.com', when: new Date('2026-01-01T00:00:00Z') });
      expect((await plain.get(['contacts'], 'c'))!.value).toEqual({ email: 'ana@example.com', when: '2026-01-01T00:00:00.000Z' });
    } finally {
      await tm.cleanup();
    }
  });
});
