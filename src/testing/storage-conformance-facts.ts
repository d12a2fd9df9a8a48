import { describe, expect, it } from 'vitest';
import { contentHash } from '../core/text.js';
import { expectCode, type StorageHarness } from './storage-harness.js';
import { makeFact, NOW, reviseFact } from './storage-factories.js';

export function describeFacts(h: StorageHarness): void {
  describe('facts', () => {
    const lexicalRefs = async (text: string) => {
      const hits = await h.storage.lexicalSearch({ tenant: 'tenant-a', text, k: 20, now: NOW });
      return (await h.storage.getDocs('tenant-a', hits.map((x) => x.docId))).map((d) => d.refId);
    };

    it('stores a fact, reads it back unchanged and projects it into a searchable doc', async () => {
      const f = makeFact({ text: 'Alice prefers green tea', subject: 'Alice', predicate: 'prefers', value: 'green tea', userId: 'u1', section: 'bio', source: 'profile.md' });
      expect(await h.storage.putFact(f)).toEqual({ fact: f, duplicate: false });
      expect(await h.storage.getFact('tenant-a', f.id)).toEqual(f);
      expect(await h.storage.getLiveFact('tenant-a', f.key, NOW)).toEqual(f);
      const hits = await h.storage.lexicalSearch({ tenant: 'tenant-a', text: 'green tea', k: 5, now: NOW });
      const [doc] = await h.storage.getDocs('tenant-a', [hits[0]!.docId]);
      expect(doc).toMatchObject({ kind: 'fact', refId: f.id, text: f.text, section: 'bio', userId: 'u1', confidence: f.confidence, ts: f.validFrom });
    });

    it('supersedes: closes the old version atomically, keeps its row, and only the new one is searchable', async () => {
      const v1 = makeFact({ text: 'the office is in Lisbon' });
      await h.storage.putFact(v1);
      const v2 = reviseFact(v1, 'the office is in Porto');
      const put = await h.storage.putFact(v2);
      expect(put).toEqual({ fact: v2, duplicate: false });
      const closed = await h.storage.getFact('tenant-a', v1.id);
      expect(closed).toEqual({ ...v1, expiredAt: v2.recordedAt, validTo: v2.validFrom });
      expect(await h.storage.getLiveFact('tenant-a', v1.key, NOW)).toEqual(v2);
      expect((await h.storage.getFactVersions({ tenant: 'tenant-a', key: v1.key })).map((f) => f.id)).toEqual([v1.id, v2.id]);
      expect(await lexicalRefs('Lisbon')).toEqual([]);
      expect(await lexicalRefs('Porto')).toEqual([v2.id]);
      const listed = await h.storage.listFacts({ tenant: 'tenant-a', now: NOW });
      expect(listed.map((f) => f.id)).toEqual([v2.id]);
      const all = await h.storage.listFacts({ tenant: 'tenant-a', now: NOW, includeExpired: true });
      expect(all.map((f) => f.id)).toEqual([v1.id, v2.id]);
    });

    it('reads several versions by id at once as getFact reads each (when the adapter has getFacts)', async () => {
      if (!h.storage.getFacts) return;
      const v1 = makeFact({ text: 'the bakery opens at seven' });
      await h.storage.putFact(v1);
      const v2 = reviseFact(v1, 'the bakery opens at eight');
      await h.storage.putFact(v2);
      const other = makeFact({ text: 'the pool closes at nine' });
      await h.storage.putFact(other);
      await h.storage.putFact(makeFact({ tenant: 'tenant-b', id: 'fact_01ARZ3NDEKTSV4RRFFQ69G5FBB' }));
      const ids = [other.id, 'fact_01ARZ3NDEKTSV4RRFFQ69G5FZZ', v1.id, v2.id, 'fact_01ARZ3NDEKTSV4RRFFQ69G5FBB', other.id];
      const one = async (id: string) => h.storage.getFact('tenant-a', id);
      const expected = (await Promise.all(ids.map(one))).filter((f) => f !== undefined);
      // In the order asked, closed versions included, missing ids and other tenants' facts left out.
      expect(await h.storage.getFacts('tenant-a', ids)).toEqual(expected);
      expect(expected.map((f) => f.id)).toEqual([other.id, v1.id, v2.id, other.id]);
      expect(await h.storage.getFacts('tenant-a', [])).toEqual([]);
    });

    it('keeps validTo when the old version already had one', async () => {
      const v1 = makeFact({ validTo: 12345 });
      await h.storage.putFact(v1);
      await h.storage.putFact(reviseFact(v1, 'something else entirely'));
      expect((await h.storage.getFact('tenant-a', v1.id))!.validTo).toBe(12345);
    });

    it('ends a lineage with a closing version valid from and to one time: history kept, nothing listed, learnable again', async () => {
      // How a learned rule is retired (learn/engine/retire.ts): no port method, a version whose validity is empty.
      const v1 = makeFact({ text: 'when a report mentions the pool, check the pool size', recordedAt: NOW - 5000, validFrom: NOW - 5000 });
      await h.storage.putFact(v1);
      const at = NOW - 1000;
      const closing = reviseFact(v1, `${v1.text} Retired: its condition does not discriminate.`, { recordedAt: at, validFrom: at, validTo: at });
      expect(await h.storage.putFact(closing)).toEqual({ fact: closing, duplicate: false });
      expect(await h.storage.getFact('tenant-a', v1.id)).toEqual({ ...v1, expiredAt: at, validTo: at });
      expect((await h.storage.getFactVersions({ tenant: 'tenant-a', key: v1.key })).map((f) => [f.id, f.validTo])).toEqual([
        [v1.id, at],
        [closing.id, at],
      ]);
      // The closing version is the lineage's unsuperseded one, but no version is valid now: none is listed.
      expect(await h.storage.getLiveFact('tenant-a', v1.key, NOW)).toEqual(closing);
      expect((await h.storage.listFacts({ tenant: 'tenant-a', now: NOW })).map((f) => f.id)).not.toContain(closing.id);
      expect((await h.storage.listFacts({ tenant: 'tenant-a', now: NOW })).map((f) => f.id)).not.toContain(v1.id);
      // As of before the retirement, the rule held.
      expect((await h.storage.listFacts({ tenant: 'tenant-a', now: NOW, asOf: at - 1 })).map((f) => f.id)).toContain(v1.id);
      expect((await h.storage.listFacts({ tenant: 'tenant-a', now: NOW, asOf: at })).map((f) => f.key)).not.toContain(v1.key);
      // Learned again: a new version supersedes the closing one and is valid from then on.
      const again = reviseFact(closing, 'when a report mentions the queue, check the pool size', { recordedAt: NOW - 500, validFrom: NOW - 500 });
      await h.storage.putFact(again);
      expect((await h.storage.listFacts({ tenant: 'tenant-a', now: NOW })).map((f) => f.id)).toContain(again.id);
      expect((await h.storage.getFact('tenant-a', closing.id))!.validTo).toBe(at);
    });

    it('returns the live version and writes nothing when its content hash is unchanged', async () => {
      const v1 = makeFact();
      await h.storage.putFact(v1);
      const same = reviseFact(v1, v1.text);
      expect(await h.storage.putFact(same)).toEqual({ fact: v1, duplicate: true });
      expect(await h.storage.getFactVersions({ tenant: 'tenant-a', key: v1.key })).toEqual([v1]);
    });

    it('refuses inconsistent revisions, writing nothing', async () => {
      const v1 = makeFact();
      await h.storage.putFact(v1);
      const v2 = reviseFact(v1, 'second text');
      await h.storage.putFact(v2);
      // v1 is closed: revising it again would leave two live versions.
      await expectCode(h.storage.putFact(reviseFact(v1, 'third text')), 'CONFLICT');
      // No supersedes while a live version exists.
      await expectCode(h.storage.putFact(makeFact({ key: v1.key, text: 'rogue text' })), 'CONFLICT');
      await expectCode(h.storage.putFact(reviseFact(v2, 'skips a version', { version: 7 })), 'VALIDATION');
      await expectCode(h.storage.putFact(reviseFact(v2, 'other key', { key: 'another-key' })), 'VALIDATION');
      await expectCode(h.storage.putFact(makeFact({ supersedes: 'fct_01ARZ3NDEKTSV4RRFFQ69G5FAV', version: 2 })), 'NOT_FOUND');
      const err = await expectCode(h.storage.putFact({ ...makeFact(), confidence: Number.NaN }), 'VALIDATION');
      expect(err.issues.map((i) => i.path)).toContain('fact.confidence');
      expect((await h.storage.getFactVersions({ tenant: 'tenant-a', key: v1.key })).map((f) => f.id)).toEqual([v1.id, v2.id]);
      expect(await lexicalRefs('rogue third skips other')).toEqual([]);
      await expectCode(h.storage.putFact(makeFact({ id: v1.id, key: 'fresh-key' })), 'CONFLICT');
    });

    it('links a new version to a live version whose TTL has passed', async () => {
      const v1 = makeFact({ recordedAt: 1000, expiresAt: 2000 });
      await h.storage.putFact(v1);
      expect(await h.storage.getLiveFact('tenant-a', v1.key, 2000)).toBeUndefined();
      const fresh = makeFact({ key: v1.key, text: 'renewed statement', recordedAt: 3000, validFrom: 3000 });
      const { fact } = await h.storage.putFact(fresh);
      expect(fact).toMatchObject({ id: fresh.id, supersedes: v1.id, version: v1.version + 1 });
      expect(await h.storage.getLiveFact('tenant-a', v1.key, 3000)).toEqual(fact);
      expect((await h.storage.getFact('tenant-a', v1.id))!.expiredAt).toBe(3000);
    });

    it('finds a live fact by exact scope, source and content hash', async () => {
      const f = makeFact({ userId: 'u1', source: 'a.md' });
      await h.storage.putFact(f);
      const find = (scope: object, source: string | undefined, hash = f.contentHash, now = NOW) =>
        h.storage.findFactByHash('tenant-a', scope, source, hash, now);
      expect(await find({ userId: 'u1' }, 'a.md')).toEqual(f);
      expect(await find({ userId: 'u2' }, 'a.md')).toBeUndefined();
      expect(await find({}, 'a.md')).toBeUndefined();
      expect(await find({ userId: 'u1', sessionId: 's1' }, 'a.md')).toBeUndefined();
      expect(await find({ userId: 'u1' }, undefined)).toBeUndefined();
      expect(await find({ userId: 'u1' }, 'a.md', contentHash('other'))).toBeUndefined();
      await h.storage.putFact(reviseFact(f, 'replacement text', { source: 'a.md' }));
      expect(await find({ userId: 'u1' }, 'a.md')).toBeUndefined();
      const noSource = makeFact({ expiresAt: NOW });
      await h.storage.putFact(noSource);
      expect(await find({}, undefined, noSource.contentHash, NOW - 1)).toEqual(noSource);
      expect(await find({}, undefined, noSource.contentHash, NOW)).toBeUndefined();
    });

    it('updates evidence counters in place and the doc follows the confidence', async () => {
      const f = makeFact({ text: 'deploys happen on tuesday', confidence: 0.6 });
      await h.storage.putFact(f);
      await h.storage.updateFactStats('tenant-a', f.id, { confidence: 0.9, supportCount: 3, contradictCount: 1 });
      expect(await h.storage.getFact('tenant-a', f.id)).toEqual({ ...f, confidence: 0.9, supportCount: 3, contradictCount: 1 });
      const hits = await h.storage.lexicalSearch({ tenant: 'tenant-a', text: 'tuesday', k: 1, now: NOW });
      expect((await h.storage.getDocs('tenant-a', [hits[0]!.docId]))[0]!.confidence).toBe(0.9);
      await expectCode(h.storage.updateFactStats('tenant-a', 'fct_01ARZ3NDEKTSV4RRFFQ69G5FAV', { confidence: 1, supportCount: 0, contradictCount: 0 }), 'NOT_FOUND');
    });

    it('lists facts by scope, oldest first, with a limit, leaving out TTL-expired ones', async () => {
      const a = makeFact({ userId: 'u1', recordedAt: 1000 });
      const b = makeFact({ userId: 'u2', recordedAt: 2000 });
      const c = makeFact({ userId: 'u1', recordedAt: 3000 });
      const gone = makeFact({ userId: 'u1', recordedAt: 4000, expiresAt: NOW });
      for (const f of [c, a, b, gone]) await h.storage.putFact(f);
      const ids = async (q: object) => (await h.storage.listFacts({ tenant: 'tenant-a', now: NOW, ...q })).map((f) => f.id);
      expect(await ids({})).toEqual([a.id, b.id, c.id]);
      expect(await ids({ scope: { userId: 'u1' } })).toEqual([a.id, c.id]);
      expect(await ids({ limit: 2 })).toEqual([a.id, b.id]);
      expect(await ids({ includeExpired: true, scope: { userId: 'u1' } })).toEqual([a.id, c.id, gone.id]);
    });
  });
}
