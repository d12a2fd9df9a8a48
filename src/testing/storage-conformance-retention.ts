import { describe, expect, it } from 'vitest';
import { expectCode, type StorageHarness } from './storage-harness.js';
import { makeEvent, makeFact, NOW, reviseFact, unitVector } from './storage-factories.js';

export function describeRetention(h: StorageHarness): void {
  const embedAll = async () => {
    const pending = await h.storage.pendingEmbeddings(1000);
    await h.storage.putEmbeddings(pending.map((p) => ({ contentHash: p.contentHash, vector: unitVector() })));
    return pending;
  };
  const lexicalRefs = async (text: string, tenant = 'tenant-a') => {
    const hits = await h.storage.lexicalSearch({ tenant, text, k: 50, now: NOW });
    return (await h.storage.getDocs(tenant, hits.map((x) => x.docId))).map((d) => d.refId);
  };

  describe('forget', () => {
    it('deletes events by id with their docs and now-unreferenced vectors, auditing ids only', async () => {
      const secret = makeEvent({ content: 'passport number zx81 spectrum' });
      const twinA = makeEvent({ content: 'shared sentence here' });
      const twinB = makeEvent({ content: 'shared sentence here' });
      const keep = makeEvent({ content: 'keep this one' });
      await h.storage.appendEvents([secret, twinA, twinB, keep]);
      await embedAll();
      const report = await h.storage.forget({ tenant: 'tenant-a', ids: [secret.id, twinA.id] }, NOW);
      expect(report).toEqual({ events: 2, facts: 0, docs: 2, embeddings: 1, episodes: 0, links: 0, procedures: 0, examples: 0 });
      expect(await h.storage.getEvents('tenant-a', [secret.id, twinA.id, twinB.id, keep.id])).toHaveLength(2);
      expect(await lexicalRefs('passport spectrum')).toEqual([]);
      const vectors = await h.storage.getEmbeddings([secret.contentHash, twinA.contentHash]);
      expect([...vectors.keys()]).toEqual([twinA.contentHash]); // still used by twinB
      const [audit] = await h.storage.listAudit('tenant-a', 1);
      expect(audit).toMatchObject({ action: 'forget', at: NOW });
      expect(new Set(audit!.targetIds)).toEqual(new Set([secret.id, twinA.id]));
      expect(JSON.stringify(audit)).not.toMatch(/passport|spectrum|shared sentence/);
    });

    it('deletes a whole fact lineage given any version id', async () => {
      const v1 = makeFact({ text: 'the vault code is 1234' });
      await h.storage.putFact(v1);
      const v2 = reviseFact(v1, 'the vault code is 9876');
      await h.storage.putFact(v2);
      const other = makeFact();
      await h.storage.putFact(other);
      await embedAll();
      const report = await h.storage.forget({ tenant: 'tenant-a', ids: [v1.id] }, NOW);
      expect(report).toMatchObject({ events: 0, facts: 2, docs: 1 });
      expect(await h.storage.getFactVersions({ tenant: 'tenant-a', key: v1.key })).toEqual([]);
      expect(await h.storage.getFact('tenant-a', v2.id)).toBeUndefined();
      expect(await h.storage.getFact('tenant-a', other.id)).toEqual(other);
      expect(await lexicalRefs('vault')).toEqual([]);
      expect((await h.storage.getEmbeddings([v2.contentHash])).size).toBe(0);
    });

    it('deletes everything in a scope and nothing outside it', async () => {
      const u1 = [makeEvent({ userId: 'u1', content: 'u1 event words' }), makeEvent({ userId: 'u1', sessionId: 's', content: 'u1 session words' })];
      const u2 = makeEvent({ userId: 'u2', content: 'u2 event words' });
      const f1 = makeFact({ userId: 'u1' });
      const f2 = makeFact({ userId: 'u2' });
      await h.storage.appendEvents([...u1, u2]);
      await h.storage.putFact(f1);
      await h.storage.putFact(f2);
      const report = await h.storage.forget({ tenant: 'tenant-a', scope: { userId: 'u1' } }, NOW);
      expect(report).toMatchObject({ events: 2, facts: 1, docs: 3 });
      expect((await h.storage.queryEvents({ tenant: 'tenant-a', now: NOW })).map((e) => e.id)).toEqual([u2.id]);
      expect((await h.storage.listFacts({ tenant: 'tenant-a', now: NOW, includeExpired: true })).map((f) => f.id)).toEqual([f2.id]);
      expect(await lexicalRefs('words')).toEqual([u2.id]);
    });

    it('forgets a whole tenant with scope {}, including its retrieval log, and drops retrieval logs naming forgotten ids', async () => {
      const a = makeEvent({ content: 'first words' });
      const b = makeEvent({ content: 'second words' });
      await h.storage.appendEvents([a, b]);
      await h.storage.putRetrieval({ id: 'ret_01ARZ3NDEKTSV4RRFFQ69G5FA1', tenant: 'tenant-a', query: 'what about first', createdAt: NOW, itemIds: [a.id], config: {} });
      await h.storage.putRetrieval({ id: 'ret_01ARZ3NDEKTSV4RRFFQ69G5FA2', tenant: 'tenant-a', query: 'what about second', createdAt: NOW, itemIds: [b.id], config: {} });
      await h.storage.forget({ tenant: 'tenant-a', ids: [a.id] }, NOW);
      expect(await h.storage.getRetrieval('tenant-a', 'ret_01ARZ3NDEKTSV4RRFFQ69G5FA1')).toBeUndefined();
      expect(await h.storage.getRetrieval('tenant-a', 'ret_01ARZ3NDEKTSV4RRFFQ69G5FA2')).toBeDefined();
      await h.storage.putFact(makeFact());
      const report = await h.storage.forget({ tenant: 'tenant-a', scope: {} }, NOW);
      expect(report).toMatchObject({ events: 1, facts: 1, docs: 2 });
      expect(await h.storage.getRetrieval('tenant-a', 'ret_01ARZ3NDEKTSV4RRFFQ69G5FA2')).toBeUndefined();
      expect(await h.storage.queryEvents({ tenant: 'tenant-a', now: NOW })).toEqual([]);
      expect(await h.storage.embeddingBacklog()).toBe(0);
    });

    it('needs ids or a scope', async () => {
      await expectCode(h.storage.forget({ tenant: 'tenant-a' }, NOW), 'VALIDATION');
    });
  });

  describe('sweepExpired', () => {
    it('physically deletes what expired at or before now, in every tenant, with an audit record', async () => {
      const gone = makeEvent({ content: 'temporary words', expiresAt: NOW });
      const goneB = makeEvent({ tenant: 'tenant-b', content: 'temporary words b', expiresAt: NOW - 5 });
      const stays = makeEvent({ content: 'lasting words', expiresAt: NOW + 1 });
      const factGone = makeFact({ text: 'temporary fact', expiresAt: NOW });
      await h.storage.appendEvents([gone, goneB, stays]);
      await h.storage.putFact(factGone);
      await embedAll();
      expect(await h.storage.sweepExpired(NOW)).toBe(3);
      expect(await h.storage.getEvents('tenant-a', [gone.id, stays.id])).toHaveLength(1);
      expect(await h.storage.getEvents('tenant-b', [goneB.id])).toEqual([]);
      expect(await h.storage.getFact('tenant-a', factGone.id)).toBeUndefined();
      expect((await h.storage.getEmbeddings([gone.contentHash, factGone.contentHash, stays.contentHash])).size).toBe(1);
      const [audit] = await h.storage.listAudit('tenant-a', 1);
      expect(audit).toMatchObject({ action: 'sweep' });
      expect(new Set(audit!.targetIds)).toEqual(new Set([gone.id, factGone.id]));
      expect(await h.storage.sweepExpired(NOW)).toBe(0);
      expect(await lexicalRefs('lasting temporary')).toEqual([stays.id]);
    });
  });
}
