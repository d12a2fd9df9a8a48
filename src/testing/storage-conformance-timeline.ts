import { describe, expect, it } from 'vitest';
import { isEngramError } from '../core/errors.js';
import { expectCode, type StorageHarness } from './storage-harness.js';
import { makeEvent, makeEvents, NOW } from './storage-factories.js';

export function describeTimeline(h: StorageHarness): void {
  describe('timeline', () => {
    it('appends events, assigns increasing unique seqs and reads them back unchanged', async () => {
      const events = makeEvents(5);
      events[1] = { ...events[1]!, name: 'Caroline', tool: 'search', args: { q: 'x', n: [1, 2] }, result: null, stateLabel: 'planning', source: 'chat.md', userId: 'u1', sessionId: 's1' };
      const results = await h.storage.appendEvents(events);
      expect(results.map((r) => r.id)).toEqual(events.map((e) => e.id));
      const seqs = results.map((r) => r.seq);
      expect(new Set(seqs).size).toBe(5);
      expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
      const back = await h.storage.getEvents('tenant-a', events.map((e) => e.id));
      expect(back).toEqual(events.map((e, i) => ({ ...e, seq: seqs[i] })));
      expect(back[1]!.result).toBeNull();
      expect(back[0]!.args).toBeUndefined();
    });

    it('returns getEvents in the order asked and skips unknown ids', async () => {
      const events = makeEvents(3);
      await h.storage.appendEvents(events);
      const got = await h.storage.getEvents('tenant-a', [events[2]!.id, 'evt_01ARZ3NDEKTSV4RRFFQ69G5FAV', events[0]!.id]);
      expect(got.map((e) => e.id)).toEqual([events[2]!.id, events[0]!.id]);
    });

    it('dedupes by tenant + source + content hash, within a batch and across batches', async () => {
      const a = makeEvent({ source: 'notes.md', content: 'the build is green' });
      const [first] = await h.storage.appendEvents([a]);
      const again = makeEvent({ source: 'notes.md', content: 'the build is green' });
      const inBatch1 = makeEvent({ source: 'other.md', content: 'deploy went fine' });
      const inBatch2 = makeEvent({ source: 'other.md', content: 'deploy went fine' });
      const noSource1 = makeEvent({ content: 'same words' });
      const noSource2 = makeEvent({ content: 'same words' });
      const otherSource = makeEvent({ source: 'elsewhere.md', content: 'the build is green' });
      const res = await h.storage.appendEvents([again, inBatch1, inBatch2, noSource1, noSource2, otherSource]);
      expect(res[0]).toEqual({ id: again.id, seq: first!.seq, duplicateOf: a.id });
      expect(res[1]!.duplicateOf).toBeUndefined();
      expect(res[2]).toEqual({ id: inBatch2.id, seq: res[1]!.seq, duplicateOf: inBatch1.id });
      expect(res[3]!.duplicateOf).toBeUndefined();
      expect(res[4]!.duplicateOf).toBeUndefined();
      expect(res[5]!.duplicateOf).toBeUndefined();
      const all = await h.storage.queryEvents({ tenant: 'tenant-a', now: NOW });
      expect(all.map((e) => e.id).sort()).toEqual([a.id, inBatch1.id, noSource1.id, noSource2.id, otherSource.id].sort());
      expect(await h.storage.getEvents('tenant-a', [again.id, inBatch2.id])).toEqual([]);
    });

    it('does not dedupe against an original that had expired when the copy was recorded', async () => {
      const old = makeEvent({ source: 's', content: 'ephemeral note', recordedAt: 1000, expiresAt: 2000 });
      await h.storage.appendEvents([old]);
      const [res] = await h.storage.appendEvents([makeEvent({ source: 's', content: 'ephemeral note', recordedAt: 3000 })]);
      expect(res!.duplicateOf).toBeUndefined();
    });

    it('treats re-sending a stored event unchanged as a duplicate of itself', async () => {
      const [stored] = makeEvents(1);
      const [first] = await h.storage.appendEvents([stored!]);
      const [again] = await h.storage.appendEvents([stored!]);
      expect(again).toEqual({ id: stored!.id, seq: first!.seq, duplicateOf: stored!.id });
      expect(await h.storage.queryEvents({ tenant: 'tenant-a', now: NOW })).toHaveLength(1);
    });

    it('writes nothing from a batch with a repeated id (CONFLICT)', async () => {
      const events = makeEvents(3);
      events[2] = { ...events[2]!, id: events[0]!.id };
      await expectCode(h.storage.appendEvents(events), 'CONFLICT');
      expect(await h.storage.queryEvents({ tenant: 'tenant-a', now: NOW })).toEqual([]);
      expect(await h.storage.lexicalSearch({ tenant: 'tenant-a', text: events[1]!.content, k: 5, now: NOW })).toEqual([]);
    });

    it('writes nothing from a batch containing an id already stored (CONFLICT)', async () => {
      const [stored] = makeEvents(1);
      await h.storage.appendEvents([stored!]);
      const batch = [makeEvent(), makeEvent({ id: stored!.id, content: 'different text' }), makeEvent()];
      await expectCode(h.storage.appendEvents(batch), 'CONFLICT');
      const all = await h.storage.queryEvents({ tenant: 'tenant-a', now: NOW });
      expect(all.map((e) => e.id)).toEqual([stored!.id]);
      expect(await h.storage.embeddingBacklog()).toBe(1);
    });

    it('rejects a malformed event as VALIDATION naming the field, writing nothing', async () => {
      const bad = { ...makeEvent(), ts: Number.NaN };
      const err = await h.storage.appendEvents([makeEvent(), bad]).catch((e: unknown) => e);
      expect(isEngramError(err, 'VALIDATION')).toBe(true);
      expect((err as { issues: { path: string }[] }).issues.map((i) => i.path)).toContain('events.1.ts');
      expect(await h.storage.queryEvents({ tenant: 'tenant-a', now: NOW })).toEqual([]);
    });

    it('loses nothing under 200 concurrent appends and keeps seq unique', async () => {
      const batches = Array.from({ length: 200 }, (_, i) => makeEvents(1 + (i % 3)));
      const results = await Promise.all(batches.map((b) => h.storage.appendEvents(b)));
      const seqs = results.flat().map((r) => r.seq);
      const total = batches.reduce((n, b) => n + b.length, 0);
      expect(new Set(seqs).size).toBe(total);
      const all = await h.storage.queryEvents({ tenant: 'tenant-a', now: NOW });
      expect(all).toHaveLength(total);
      expect(new Set(all.map((e) => e.id))).toEqual(new Set(batches.flat().map((e) => e.id)));
    });

    describe('queryEvents', () => {
      it('narrows by scope, types, tags, time range and filter', async () => {
        const base = makeEvents(6, { tags: [], metadata: {} });
        base[0] = { ...base[0]!, userId: 'u1', type: 'message', tags: ['ops', 'prod'] };
        base[1] = { ...base[1]!, userId: 'u1', type: 'tool_call', tags: ['ops'] };
        base[2] = { ...base[2]!, userId: 'u2', type: 'message', metadata: { channel: 'email' } };
        base[3] = { ...base[3]!, userId: 'u1', sessionId: 's9', type: 'decision', metadata: { channel: 'chat' } };
        await h.storage.appendEvents(base);
        const ids = async (q: Partial<Parameters<typeof h.storage.queryEvents>[0]>) =>
          (await h.storage.queryEvents({ tenant: 'tenant-a', now: NOW, ...q })).map((e) => e.id);
        expect(await ids({ scope: { userId: 'u1' } })).toEqual([base[0]!.id, base[1]!.id, base[3]!.id]);
        expect(await ids({ scope: { userId: 'u1', sessionId: 's9' } })).toEqual([base[3]!.id]);
        expect(await ids({ types: ['message'] })).toEqual(
          base.filter((e) => e.type === 'message').map((e) => e.id),
        );
        expect(await ids({ tags: ['ops'] })).toEqual([base[0]!.id, base[1]!.id]);
        expect(await ids({ tags: ['ops', 'prod'] })).toEqual([base[0]!.id]);
        expect(await ids({ since: base[2]!.ts, until: base[4]!.ts })).toEqual([base[2]!.id, base[3]!.id]);
        expect(await ids({ filter: { op: 'cmp', field: { kind: 'meta', path: ['channel'] }, cmp: 'eq', value: 'chat' } })).toEqual([base[3]!.id]);
        expect(await ids({ filter: { op: 'not', child: { op: 'exists', field: { kind: 'meta', path: ['channel'] }, value: true } } })).toEqual(
          [base[0]!.id, base[1]!.id, base[4]!.id, base[5]!.id],
        );
      });

      it('returns the last N in chronological order, and pages with afterSeq + limit', async () => {
        const events = makeEvents(10);
        const res = await h.storage.appendEvents(events);
        const last3 = await h.storage.queryEvents({ tenant: 'tenant-a', now: NOW, lastN: 3 });
        expect(last3.map((e) => e.id)).toEqual(events.slice(7).map((e) => e.id));
        const seen: string[] = [];
        let after = 0;
        for (;;) {
          const page = await h.storage.queryEvents({ tenant: 'tenant-a', now: NOW, afterSeq: after, limit: 4 });
          if (page.length === 0) break;
          expect(page.length).toBeLessThanOrEqual(4);
          seen.push(...page.map((e) => e.id));
          after = page.at(-1)!.seq;
        }
        expect(seen).toEqual(events.map((e) => e.id));
        const afterFifth = await h.storage.queryEvents({ tenant: 'tenant-a', now: NOW, afterSeq: res[4]!.seq, lastN: 2 });
        expect(afterFifth.map((e) => e.id)).toEqual(events.slice(8).map((e) => e.id));
      });

      it('leaves out events expired at `now`', async () => {
        const events = makeEvents(3);
        events[1] = { ...events[1]!, expiresAt: NOW };
        events[2] = { ...events[2]!, expiresAt: NOW + 1 };
        await h.storage.appendEvents(events);
        const ids = (await h.storage.queryEvents({ tenant: 'tenant-a', now: NOW })).map((e) => e.id);
        expect(ids).toEqual([events[0]!.id, events[2]!.id]);
      });
    });

    describe('redaction', () => {
      it('removes content, keeps a tombstone in the timeline and writes an audit record', async () => {
        const secret = makeEvent({ content: 'my locker code is quetzalcoatl', source: 'chat', tags: ['ops'] });
        const other = makeEvent({ content: 'quetzalcoatl is a deity' });
        const [res] = await h.storage.appendEvents([secret, other]);
        expect(await h.storage.redactEvent('tenant-a', secret.id, 'user asked', NOW)).toBe(true);
        const [tomb] = await h.storage.getEvents('tenant-a', [secret.id]);
        expect(tomb!.seq).toBe(res!.seq);
        expect(tomb!.ts).toBe(secret.ts);
        expect(tomb!.type).toBe(secret.type);
        expect(tomb!.content).toBe('');
        expect(tomb!.tags).toEqual([]);
        expect(JSON.stringify(tomb)).not.toContain('locker');
        expect(tomb!.metadata).toEqual({ redacted: { at: NOW, reason: 'user asked' } });
        const hits = await h.storage.lexicalSearch({ tenant: 'tenant-a', text: 'quetzalcoatl', k: 10, now: NOW });
        const docs = await h.storage.getDocs('tenant-a', hits.map((x) => x.docId));
        expect(docs.map((d) => d.refId)).toEqual([other.id]);
        expect((await h.storage.queryEvents({ tenant: 'tenant-a', now: NOW, tags: ['ops'] })).map((e) => e.id)).not.toContain(secret.id);
        const audit = await h.storage.listAudit('tenant-a', 10);
        expect(audit[0]).toMatchObject({ action: 'redact', targetIds: [secret.id], at: NOW });
        expect(JSON.stringify(audit)).not.toContain('locker');
        // The same text can be logged again: a redacted event is no dedupe original.
        const [again] = await h.storage.appendEvents([makeEvent({ content: secret.content, source: 'chat' })]);
        expect(again!.duplicateOf).toBeUndefined();
      });

      it('is idempotent and false for an unknown event', async () => {
        const e = makeEvent();
        await h.storage.appendEvents([e]);
        expect(await h.storage.redactEvent('tenant-a', e.id, 'r', NOW)).toBe(true);
        expect(await h.storage.redactEvent('tenant-a', e.id, 'r', NOW + 1)).toBe(true);
        expect(await h.storage.redactEvent('tenant-a', 'evt_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'r', NOW)).toBe(false);
        expect((await h.storage.listAudit('tenant-a', 10)).filter((a) => a.action === 'redact')).toHaveLength(1);
      });
    });
  });
}
