import { describe, expect, it } from 'vitest';
import { contentHash } from '../core/text.js';
import type { BackupKind, BackupRecordKinds } from '../ports/storage.js';
import { ALL_BACKUP_KINDS, listAllOf, populateEveryKind, snapshotTenant } from './storage-backup-fixture.js';
import { makeEvent, makeFact, NOW, reviseFact } from './storage-factories.js';
import { expectCode, type StorageHarness } from './storage-harness.js';

/** Tenant A's records as tenant B's. */
const retag = <K extends BackupKind>(records: BackupRecordKinds[K][], tenant: string): BackupRecordKinds[K][] => records.map((r) => ({ ...r, tenant }));

export function describeBackup(h: StorageHarness): void {
  describe('backup listing and restore', () => {
    it('lists everything stored, page by page: redacted, expired, forgotten-around and superseded records included', async () => {
      const p = await populateEveryKind(h.storage, 'tenant-a');
      await h.storage.appendEvents([makeEvent({ tenant: 'tenant-b' })]);
      const events = await listAllOf(h.storage, 'event', 'tenant-a', 2);
      expect(events.map((e) => e.id)).toEqual(p.eventIds.filter((id) => id !== p.forgottenId));
      const seqs = events.map((e) => e.seq);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      expect(new Set(seqs).size).toBe(seqs.length);
      const redacted = events.find((e) => e.id === p.redactedId)!;
      expect(redacted).toMatchObject({ content: '', contentHash: '', metadata: {}, redaction: { at: NOW - 10, reason: 'asked by the user' } });
      expect(events.filter((e) => e.redaction !== undefined)).toHaveLength(1);
      expect(events.some((e) => e.expiresAt !== undefined && e.expiresAt < NOW)).toBe(true);
      const facts = await listAllOf(h.storage, 'fact', 'tenant-a', 1);
      expect(facts.map((f) => f.id)).toEqual(expect.arrayContaining([p.liveFactId, p.supersededFactId]));
      expect(facts.find((f) => f.id === p.supersededFactId)!.expiredAt).toBeDefined();
      expect(facts.find((f) => f.id === p.liveFactId)).toMatchObject({ supportCount: 3, contradictCount: 1, confidence: 0.9, version: 2 });
      const wm = await listAllOf(h.storage, 'working_memory', 'tenant-a', 1);
      expect(wm.map((w) => [w.sessionId, w.version])).toEqual([['s1', 2], ['s2', 1]]);
      for (const kind of ALL_BACKUP_KINDS) expect((await listAllOf(h.storage, kind, 'tenant-a')).length, kind).toBeGreaterThan(0);
      expect(await listAllOf(h.storage, 'event', 'tenant-b')).toHaveLength(1);
      expect(await listAllOf(h.storage, 'fact', 'tenant-b')).toHaveLength(0);
    });

    it('restores records exactly as listed, projects what the write path projects, and restoring again writes nothing', async () => {
      const p = await populateEveryKind(h.storage, 'tenant-a');
      const written: Record<string, number> = {};
      for (const kind of ALL_BACKUP_KINDS) {
        const r = await h.storage.restoreRecords(kind, retag(await listAllOf(h.storage, kind, 'tenant-a'), 'tenant-b'));
        written[kind] = r.written;
        expect(r, kind).toMatchObject({ existing: 0, kept: 0 });
      }
      expect(await snapshotTenant(h.storage, 'tenant-b')).toEqual(await snapshotTenant(h.storage, 'tenant-a'));
      for (const kind of ALL_BACKUP_KINDS) {
        const again = await h.storage.restoreRecords(kind, retag(await listAllOf(h.storage, kind, 'tenant-a'), 'tenant-b'));
        expect(again, kind).toEqual({ written: 0, existing: written[kind], kept: 0 });
      }
      // The projection: the live version is found and is the one live version; the redacted event is not findable.
      expect((await h.storage.getLiveFact('tenant-b', (await h.storage.getFact('tenant-a', p.liveFactId))!.key, NOW))?.id).toBe(p.liveFactId);
      const hits = await h.storage.lexicalSearch({ tenant: 'tenant-b', text: 'revised refunds', k: 10, now: NOW });
      const docs = await h.storage.getDocs('tenant-b', hits.map((x) => x.docId));
      expect(docs.map((d) => d.refId)).toContain(p.liveFactId);
      expect(docs.map((d) => d.refId)).not.toContain(p.supersededFactId);
      expect((await h.storage.getEvents('tenant-b', [p.redactedId]))[0]).toMatchObject({ content: '', metadata: { redacted: { reason: 'asked by the user' } } });
      // The timeline continues after the largest restored seq.
      const last = Math.max(...(await listAllOf(h.storage, 'event', 'tenant-b')).map((e) => e.seq));
      const [next] = await h.storage.appendEvents([makeEvent({ tenant: 'tenant-b' })]);
      expect(next!.seq).toBeGreaterThan(last);
    });

    it('restores a fact version listed while still live before its successor: the successor closes it, as on the write path', async () => {
      const v1 = makeFact({ tenant: 'tenant-a' });
      await h.storage.putFact(v1);
      const [listedLive] = await listAllOf(h.storage, 'fact', 'tenant-a');
      const v2 = reviseFact(v1, 'a revision written while the export ran');
      await h.storage.putFact(v2);
      const [, successor] = await listAllOf(h.storage, 'fact', 'tenant-a');
      expect(await h.storage.restoreRecords('fact', retag<'fact'>([listedLive!, successor!], 'tenant-b'))).toEqual({ written: 2, existing: 0, kept: 0 });
      expect((await h.storage.getLiveFact('tenant-b', v1.key, NOW))?.id).toBe(v2.id);
      expect(await listAllOf(h.storage, 'fact', 'tenant-b')).toEqual(retag(await listAllOf(h.storage, 'fact', 'tenant-a'), 'tenant-b'));
    });

    it('keeps a stored record whose content differs, and refuses a seq held by another event (writing nothing)', async () => {
      const [a] = await h.storage.appendEvents([makeEvent({ tenant: 'tenant-a', content: 'stored text' })]);
      const [stored] = await listAllOf(h.storage, 'event', 'tenant-a');
      const other = { ...stored!, content: 'other text', contentHash: contentHash('other text') };
      expect(await h.storage.restoreRecords('event', [other])).toEqual({ written: 0, existing: 0, kept: 1 });
      expect((await h.storage.getEvents('tenant-a', [a!.id]))[0]!.content).toBe('stored text');
      const fresh = { ...makeEvent({ tenant: 'tenant-a' }), seq: 50 };
      const clash = { ...makeEvent({ tenant: 'tenant-a' }), seq: stored!.seq };
      await expectCode(h.storage.restoreRecords('event', [fresh, clash]), 'CONFLICT');
      expect(await h.storage.getEvents('tenant-a', [fresh.id])).toEqual([]);
      await expectCode(h.storage.restoreRecords('event', [{ ...fresh, seq: 0 }]), 'VALIDATION');
    });
  });
}
