/**
 * Test support (not a test): the BaseStore behaviour every LangGraph store shows, written once and run against
 * EngramStore and, as the reference, LangGraph's own InMemoryStore, so "behaves like a LangGraph store" is
 * checked rather than assumed. Cases here avoid what the reference leaves open (order without a query).
 */
import type { BaseStore } from '@langchain/langgraph-checkpoint';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

export function storeConformance(name: string, make: () => Promise<{ store: BaseStore; close(): Promise<void> }>): void {
  describe(`BaseStore conformance: ${name}`, () => {
    let store: BaseStore;
    let close: () => Promise<void>;
    beforeEach(async () => {
      ({ store, close } = await make());
    });
    afterEach(async () => close());

    const keysOf = (items: { key: string }[]) => items.map((i) => i.key).sort();

    it('puts, gets, overwrites and deletes an item', async () => {
      expect(await store.get(['users', 'u1'], 'prefs')).toBeNull();
      await store.put(['users', 'u1'], 'prefs', { food: 'pizza', n: 1 });
      const first = await store.get(['users', 'u1'], 'prefs');
      expect(first).toMatchObject({ namespace: ['users', 'u1'], key: 'prefs', value: { food: 'pizza', n: 1 } });
      expect(first!.createdAt).toBeInstanceOf(Date);
      await store.put(['users', 'u1'], 'prefs', { food: 'sushi', n: 2 });
      const second = await store.get(['users', 'u1'], 'prefs');
      expect(second!.value).toEqual({ food: 'sushi', n: 2 });
      expect(second!.createdAt.getTime()).toBe(first!.createdAt.getTime());
      expect(second!.updatedAt.getTime()).toBeGreaterThanOrEqual(first!.updatedAt.getTime());
      expect(await store.get(['users', 'u2'], 'prefs')).toBeNull();
      await store.delete(['users', 'u1'], 'prefs');
      expect(await store.get(['users', 'u1'], 'prefs')).toBeNull();
      await store.delete(['users', 'u1'], 'never-there');
    });

    it('searches a namespace prefix with filters, limit and offset', async () => {
      await store.put(['docs', 'a'], 'd1', { status: 'active', score: 5, tag: 'x' });
      await store.put(['docs', 'a'], 'd2', { status: 'draft', score: 3, tag: 'y' });
      await store.put(['docs', 'b'], 'd3', { status: 'active', score: 9, tag: 'x' });
      await store.put(['other'], 'd4', { status: 'active', score: 7, tag: 'x' });
      expect(keysOf(await store.search(['docs']))).toEqual(['d1', 'd2', 'd3']);
      expect(keysOf(await store.search(['docs', 'a']))).toEqual(['d1', 'd2']);
      expect(keysOf(await store.search([]))).toEqual(['d1', 'd2', 'd3', 'd4']);
      expect(keysOf(await store.search(['docs'], { filter: { status: 'active' } }))).toEqual(['d1', 'd3']);
      expect(keysOf(await store.search(['docs'], { filter: { score: { $gt: 4 } } }))).toEqual(['d1', 'd3']);
      expect(keysOf(await store.search(['docs'], { filter: { score: { $gte: 3, $lt: 9 } } }))).toEqual(['d1', 'd2']);
      expect(keysOf(await store.search(['docs'], { filter: { status: { $ne: 'active' } } }))).toEqual(['d2']);
      expect(keysOf(await store.search([], { filter: { tag: { $in: ['y'] } } }))).toEqual(['d2']);
      expect(keysOf(await store.search([], { filter: { tag: { $nin: ['y'] } } }))).toEqual(['d1', 'd3', 'd4']);
      expect(keysOf(await store.search([], { filter: { status: 'active', tag: 'x', score: { $lte: 7 } } }))).toEqual(['d1', 'd4']);
      const page1 = await store.search(['docs'], { limit: 2 });
      const page2 = await store.search(['docs'], { limit: 2, offset: 2 });
      expect(page1).toHaveLength(2);
      expect(page2).toHaveLength(1);
      expect(keysOf([...page1, ...page2])).toEqual(['d1', 'd2', 'd3']);
    });

    it('lists namespaces by prefix, suffix (with wildcards) and depth, paged', async () => {
      for (const ns of [['a', 'b', 'c'], ['a', 'b', 'd'], ['a', 'e'], ['x', 'b', 'c']]) await store.put(ns, 'k', { v: 1 });
      expect(await store.listNamespaces()).toEqual([['a', 'b', 'c'], ['a', 'b', 'd'], ['a', 'e'], ['x', 'b', 'c']]);
      expect(await store.listNamespaces({ prefix: ['a'] })).toEqual([['a', 'b', 'c'], ['a', 'b', 'd'], ['a', 'e']]);
      expect(await store.listNamespaces({ suffix: ['c'] })).toEqual([['a', 'b', 'c'], ['x', 'b', 'c']]);
      expect(await store.listNamespaces({ prefix: ['*', 'b'] })).toEqual([['a', 'b', 'c'], ['a', 'b', 'd'], ['x', 'b', 'c']]);
      expect(await store.listNamespaces({ prefix: ['a'], suffix: ['d'] })).toEqual([['a', 'b', 'd']]);
      expect(await store.listNamespaces({ maxDepth: 2 })).toEqual([['a', 'b'], ['a', 'e'], ['x', 'b']]);
      expect(await store.listNamespaces({ limit: 2, offset: 1 })).toEqual([['a', 'b', 'd'], ['a', 'e']]);
    });

    it('runs a batch of every operation kind', async () => {
      await store.put(['b'], 'one', { n: 1 });
      const [got, , found, namespaces] = await store.batch([
        { namespace: ['b'], key: 'one' },
        { namespace: ['b'], key: 'two', value: { n: 2 } },
        { namespacePrefix: ['b'], filter: { n: 1 }, limit: 10, offset: 0 },
        { matchConditions: [{ matchType: 'prefix', path: ['b'] }], limit: 10, offset: 0 },
      ] as const);
      expect(got?.value).toEqual({ n: 1 });
      expect(found.map((i) => i.key)).toEqual(['one']);
      expect(namespaces).toEqual([['b']]);
      expect((await store.get(['b'], 'two'))?.value).toEqual({ n: 2 });
    });

    it('rejects invalid namespaces', async () => {
      await expect(store.put(['bad.label'], 'k', { v: 1 })).rejects.toThrow();
      await expect(store.put([], 'k', { v: 1 })).rejects.toThrow();
      await expect(store.put(['langgraph'], 'k', { v: 1 })).rejects.toThrow();
      await expect(store.put(['ok', ''], 'k', { v: 1 })).rejects.toThrow();
      expect(await store.listNamespaces()).toEqual([]);
    });
  });
}
