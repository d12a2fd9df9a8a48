/**
 * Time on the storage port (docs/scopes.md#time): `lastN` by event time, `knownAt` on the timeline, and fact
 * listing at a valid time / transaction time with cursor pagination (FactListQuery).
 */
import { describe, expect, it } from 'vitest';
import type { StorageHarness } from './storage-harness.js';
import { BASE_TS, makeEvent, makeFact, NOW, reviseFact } from './storage-factories.js';

const DAY = 86_400_000;

export function describeTime(h: StorageHarness): void {
  describe('time: event time windows, transaction time, facts at a time', () => {
    it('lastN takes the latest by ts (not by write order) and returns them chronologically; knownAt bounds recordedAt', async () => {
      const s = h.storage;
      const at = (ts: number, recordedAt: number, content: string) => makeEvent({ sessionId: 'w', ts: BASE_TS + ts, recordedAt: BASE_TS + recordedAt, content });
      await s.appendEvents([at(1, 10, 'one'), at(3, 11, 'three')]);
      await s.appendEvents([at(4, 20, 'four late'), at(2, 21, 'two late')]);
      const names = (es: { content: string }[]) => es.map((e) => e.content);
      expect(names(await s.queryEvents({ tenant: 'tenant-a', scope: { sessionId: 'w' }, lastN: 2, now: NOW }))).toEqual(['three', 'four late']);
      expect(names(await s.queryEvents({ tenant: 'tenant-a', scope: { sessionId: 'w' }, lastN: 3, until: BASE_TS + 4, now: NOW }))).toEqual(['one', 'two late', 'three']);
      // Paging stays in write order.
      expect(names(await s.queryEvents({ tenant: 'tenant-a', scope: { sessionId: 'w' }, afterSeq: 0, now: NOW }))).toEqual(['one', 'three', 'four late', 'two late']);
      expect(names(await s.queryEvents({ tenant: 'tenant-a', scope: { sessionId: 'w' }, knownAt: BASE_TS + 11, now: NOW }))).toEqual(['one', 'three']);
    });

    it('listFacts: current by default, the version that held at asOf, what was known at knownAt, one per lineage', async () => {
      const s = h.storage;
      const t = (d: number) => BASE_TS + d * DAY;
      const v1 = makeFact({ text: 'initech', recordedAt: t(0), validFrom: t(0), tags: [], metadata: {} });
      await s.putFact(v1);
      const v2 = reviseFact(v1, 'globex', { recordedAt: t(10), validFrom: t(10) });
      await s.putFact(v2);
      const ended = makeFact({ text: 'coffee broken', recordedAt: t(20), validFrom: t(20), validTo: t(25) });
      await s.putFact(ended);
      const texts = async (q: { asOf?: number; knownAt?: number; now?: number }) =>
        (await s.listFacts({ tenant: 'tenant-a', now: q.now ?? t(30), ...(q.asOf !== undefined ? { asOf: q.asOf } : {}), ...(q.knownAt !== undefined ? { knownAt: q.knownAt } : {}) })).map((f) => f.text);
      expect(await texts({})).toEqual(['globex']);
      expect(await texts({ now: t(22) })).toEqual(['globex', 'coffee broken']);
      expect(await texts({ asOf: t(5) })).toEqual(['initech']);
      expect(await texts({ asOf: t(22) })).toEqual(['globex', 'coffee broken']);
      expect(await texts({ knownAt: t(5) })).toEqual(['initech']);
      expect(await texts({ knownAt: t(15) })).toEqual(['globex']);
      // Known at day 15, as of day 5: what we then believed about day 5.
      expect(await texts({ knownAt: t(15), asOf: t(5) })).toEqual(['initech']);
      expect((await s.listFacts({ tenant: 'tenant-a', includeExpired: true, now: t(30) })).map((f) => f.text)).toEqual(['initech', 'globex', 'coffee broken']);
    });

    it('listFacts pages by (recordedAt, id) after a cursor, with kinds and scope', async () => {
      const s = h.storage;
      const facts = Array.from({ length: 5 }, (_, i) => makeFact({ text: `fact ${i}`, userId: 'u', kind: i % 2 ? 'preference' : 'fact', recordedAt: BASE_TS + (i < 3 ? 0 : i), validFrom: BASE_TS }));
      for (const f of facts) await s.putFact(f);
      await s.putFact(makeFact({ text: 'other user', userId: 'v', recordedAt: BASE_TS }));
      const all = await s.listFacts({ tenant: 'tenant-a', scope: { userId: 'u' }, now: NOW });
      const expected = [...facts].sort((a, b) => a.recordedAt - b.recordedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map((f) => f.id);
      expect(all.map((f) => f.id)).toEqual(expected);
      const first = await s.listFacts({ tenant: 'tenant-a', scope: { userId: 'u' }, limit: 2, now: NOW });
      const rest = await s.listFacts({ tenant: 'tenant-a', scope: { userId: 'u' }, after: { recordedAt: first[1]!.recordedAt, id: first[1]!.id }, now: NOW });
      expect([...first, ...rest].map((f) => f.id)).toEqual(expected);
      const prefs = await s.listFacts({ tenant: 'tenant-a', scope: { userId: 'u' }, kinds: ['preference'], now: NOW });
      expect(prefs.map((f) => f.text).sort()).toEqual(['fact 1', 'fact 3']);
    });
  });
}
