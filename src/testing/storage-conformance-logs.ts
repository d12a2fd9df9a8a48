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

    it('pages the audit log with a keyset cursor, newest first, within the tenant', async () => {
      const events = makeEvents(4);
      await h.storage.appendEvents(events);
      // Two at the same instant: the id breaks the tie, so no record is skipped or repeated across pages.
      for (const [i, e] of events.entries()) await h.storage.redactEvent('tenant-a', e.id, `r${i}`, NOW + Math.min(i, 2));
      const first = await h.storage.listAudit('tenant-a', 2);
      const last = first.at(-1)!;
      const second = await h.storage.listAudit('tenant-a', 2, { at: last.at, id: last.id });
      const third = await h.storage.listAudit('tenant-a', 2, { at: second.at(-1)!.at, id: second.at(-1)!.id });
      expect([...first, ...second].map((a) => a.targetIds[0])).toEqual([events[3]!.id, events[2]!.id, events[1]!.id, events[0]!.id]);
      expect(third).toEqual([]);
      expect(await h.storage.listAudit('tenant-b', 10, { at: last.at, id: last.id })).toEqual([]);
    });

    it('lists retrievals newest first with their items, pages by id, filters by time, within the tenant', async () => {
      const ids = ['ret_01ARZ3NDEKTSV4RRFFQ69G5FA1', 'ret_01ARZ3NDEKTSV4RRFFQ69G5FA2', 'ret_01ARZ3NDEKTSV4RRFFQ69G5FA3'];
      const items = [{ id: 'fct_2', kind: 'fact', section: 'facts', scores: { vector: 0.5, lexical: null, final: 0.7 } }];
      for (const [i, id] of ids.entries()) {
        await h.storage.putRetrieval({ id, tenant: 'tenant-a', query: `q${i}`, createdAt: NOW + i, itemIds: ['fct_2'], config: { i }, ...(i === 2 ? { items } : {}) });
      }
      await h.storage.putRetrieval({ id: 'ret_01ARZ3NDEKTSV4RRFFQ69G5FA4', tenant: 'tenant-b', query: 'other tenant', createdAt: NOW, itemIds: [], config: {} });
      const first = await h.storage.listRetrievals({ tenant: 'tenant-a', limit: 2 });
      expect(first.map((r) => r.query)).toEqual(['q2', 'q1']);
      expect(first[0]!.items).toEqual(items);
      expect(first[1]!.items).toBeUndefined();
      expect((await h.storage.getRetrieval('tenant-a', ids[2]!))!.items).toEqual(items);
      const next = await h.storage.listRetrievals({ tenant: 'tenant-a', limit: 2, beforeId: first[1]!.id });
      expect(next.map((r) => r.query)).toEqual(['q0']);
      expect((await h.storage.listRetrievals({ tenant: 'tenant-a', limit: 10, since: NOW + 1, until: NOW + 2 })).map((r) => r.query)).toEqual(['q1']);
      expect((await h.storage.listRetrievals({ tenant: 'tenant-b', limit: 10 })).map((r) => r.query)).toEqual(['other tenant']);
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
