import { describe, expect, it } from 'vitest';
import { expectCode, type StorageHarness } from './storage-harness.js';
import { makeEvent, makeFact, NOW, reviseFact, unitVector } from './storage-factories.js';

export function describeTenancy(h: StorageHarness): void {
  describe('tenant isolation', () => {
    it('every read in tenant B sees nothing of tenant A, even by A ids', async () => {
      const s = h.storage;
      const ev = makeEvent({ content: 'tenant a private words', source: 'src', userId: 'u1', tags: ['ops'] });
      const redacted = makeEvent({ content: 'to be redacted' });
      const fact = makeFact({ text: 'tenant a private fact', userId: 'u1', source: 'src' });
      await s.appendEvents([ev, redacted]);
      await s.putFact(fact);
      await s.redactEvent('tenant-a', redacted.id, 'test', NOW);
      const pending = await s.pendingEmbeddings(10);
      const vectors = pending.map((p) => ({ contentHash: p.contentHash, vector: unitVector() }));
      await s.putEmbeddings(vectors);
      await s.putRetrieval({ id: 'ret_01ARZ3NDEKTSV4RRFFQ69G5FA1', tenant: 'tenant-a', query: 'q', createdAt: NOW, itemIds: [ev.id], config: { k: 1 } });
      const aHits = await s.lexicalSearch({ tenant: 'tenant-a', text: 'private', k: 10, now: NOW });
      expect(aHits).toHaveLength(2);
      const aDocIds = aHits.map((x) => x.docId);

      const B = 'tenant-b';
      expect(await s.getEvents(B, [ev.id, redacted.id])).toEqual([]);
      expect(await s.queryEvents({ tenant: B, now: NOW })).toEqual([]);
      expect(await s.queryEvents({ tenant: B, now: NOW, tags: ['ops'], scope: { userId: 'u1' } })).toEqual([]);
      expect(await s.redactEvent(B, ev.id, 'x', NOW)).toBe(false);
      expect(await s.getFact(B, fact.id)).toBeUndefined();
      expect(await s.getLiveFact(B, fact.key, NOW)).toBeUndefined();
      expect(await s.getFactVersions({ tenant: B, key: fact.key })).toEqual([]);
      expect(await s.findFactByHash(B, { userId: 'u1' }, 'src', fact.contentHash, NOW)).toBeUndefined();
      expect(await s.listFacts({ tenant: B, now: NOW, includeExpired: true })).toEqual([]);
      expect(await s.getDocs(B, aDocIds)).toEqual([]);
      expect(await s.lexicalSearch({ tenant: B, text: 'tenant private words fact', k: 10, now: NOW })).toEqual([]);
      expect(await s.vectorSearch({ tenant: B, vector: vectors[0]!.vector, k: 10, now: NOW })).toEqual([]);
      expect(await s.getRetrieval(B, 'ret_01ARZ3NDEKTSV4RRFFQ69G5FA1')).toBeUndefined();
      expect(await s.listAudit(B, 10)).toEqual([]);

      // Writes in B cannot reach A's records either.
      await expectCode(s.updateFactStats(B, fact.id, { confidence: 0.01, supportCount: 9, contradictCount: 9 }), 'NOT_FOUND');
      await expectCode(s.putFact(reviseFact({ ...fact, tenant: B }, 'hijack')), 'NOT_FOUND');
      expect(await s.forget({ tenant: B, ids: [ev.id, fact.id] }, NOW)).toEqual({ events: 0, facts: 0, docs: 0, embeddings: 0, episodes: 0, links: 0, procedures: 0, examples: 0 });
      await s.forget({ tenant: B, scope: {} }, NOW);
      const [dupInB] = await s.appendEvents([makeEvent({ tenant: B, content: ev.content, source: 'src' })]);
      expect(dupInB!.duplicateOf).toBeUndefined();

      expect(await s.getFact('tenant-a', fact.id)).toEqual(fact);
      expect((await s.getEvents('tenant-a', [ev.id]))[0]!.content).toBe(ev.content);
      expect(await s.lexicalSearch({ tenant: 'tenant-a', text: 'private', k: 10, now: NOW })).toHaveLength(2);
      expect(await s.vectorSearch({ tenant: 'tenant-a', vector: vectors[0]!.vector, k: 10, now: NOW })).toHaveLength(2);
      expect(await s.getRetrieval('tenant-a', 'ret_01ARZ3NDEKTSV4RRFFQ69G5FA1')).toBeDefined();
    });
  });
}
