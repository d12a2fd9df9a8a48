import { describe, expect, it } from 'vitest';
import { expectCode, type StorageHarness } from './storage-harness.js';
import { makeEvent, makeEvents, makeFact, NOW, unitVector } from './storage-factories.js';
import type { RetrievalRecord } from '../ports/storage.js';

export function describeLogs(h: StorageHarness): void {
  describe('retrieval log and audit', () => {
    it('stores retrieval records and refuses a repeated id', async () => {
      const rec: RetrievalRecord = { id: 'ret_01ARZ3NDEKTSV4RRFFQ69G5FA1', tenant: 'tenant-a', query: 'what did we decide', createdAt: NOW, itemIds: ['evt_1', 'fct_2'], config: { k: 5, nested: { a: [1, 2] } } };
      await h.storage.putRetrieval(rec);
      expect(await h.storage.getRetrieval('tenant-a', rec.id)).toEqual(rec);
      await expectCode(h.storage.putRetrieval({ ...rec, query: 'other' }), 'CONFLICT');
      expect(await h.storage.getRetrieval('tenant-a', rec.id)).toEqual(rec);
    });

    it('lists audit records newest first, up to the limit', async () => {
      const events = makeEvents(3);
      await h.storage.appendEvents(events);
      for (const [i, e] of events.entries()) await h.storage.redactEvent('tenant-a', e.id, `reason ${i}`, NOW + i);
      const audit = await h.storage.listAudit('tenant-a', 2);
      expect(audit.map((a) => a.targetIds[0])).toEqual([events[2]!.id, events[1]!.id]);
      expect(audit[0]).toMatchObject({ tenant: 'tenant-a', action: 'redact', at: NOW + 2, details: { reason: 'reason 2' } });
      expect(typeof audit[0]!.id).toBe('string');
    });
  });

  describe('persistence', () => {
    it('keeps everything across close and reopen', async (ctx) => {
      if (!h.canReopen) return ctx.skip();
      const events = makeEvents(3);
      const res = await h.storage.appendEvents(events);
      const fact = makeFact();
      await h.storage.putFact(fact);
      const pending = await h.storage.pendingEmbeddings(10);
      const vectors = pending.map((p) => ({ contentHash: p.contentHash, vector: unitVector() }));
      await h.storage.putEmbeddings(vectors);
      await h.storage.redactEvent('tenant-a', events[0]!.id, 'r', NOW);
      const s = await h.reopen();
      expect((await s.getEvents('tenant-a', events.map((e) => e.id))).map((e) => e.content)).toEqual(['', events[1]!.content, events[2]!.content]);
      expect(await s.getFact('tenant-a', fact.id)).toEqual(fact);
      expect(await s.embeddingBacklog()).toBe(0);
      expect(await s.vectorSearch({ tenant: 'tenant-a', vector: vectors[0]!.vector, k: 10, now: NOW })).toHaveLength(3);
      expect((await s.lexicalSearch({ tenant: 'tenant-a', text: fact.text, k: 10, now: NOW })).length).toBeGreaterThan(0);
      const [next] = await s.appendEvents([makeEvent()]);
      expect(next!.seq).toBeGreaterThan(Math.max(...res.map((r) => r.seq)));
    });
  });
}
