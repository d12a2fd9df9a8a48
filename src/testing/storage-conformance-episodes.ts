import { describe, expect, it } from 'vitest';
import { episodeToDoc } from '../core/docs-learn.js';
import type { FilterNode } from '../core/filter.js';
import type { DocKind, Episode } from '../core/types.js';
import type { EpisodeQuery } from '../ports/storage.js';
import { makeEpisode } from './storage-factories-learn.js';
import { NOW, unitVector } from './storage-factories.js';
import { expectCode, type StorageHarness } from './storage-harness.js';

export function describeEpisodes(h: StorageHarness): void {
  const lexicalRefs = async (text: string, extra: { kinds?: DocKind[]; filter?: FilterNode } = {}) => {
    const hits = await h.storage.lexicalSearch({ tenant: 'tenant-a', text, k: 20, now: NOW, ...extra });
    return (await h.storage.getDocs('tenant-a', hits.map((x) => x.docId))).map((d) => d.refId);
  };
  const list = async (q: Omit<EpisodeQuery, 'tenant'> = {}) => (await h.storage.listEpisodes({ tenant: 'tenant-a', ...q })).map((e) => e.id);

  describe('episodes', () => {
    it('stores an episode, reads it back unchanged, and replaces it by id as it grows', async () => {
      const open = makeEpisode({ closed: false, summary: '', outcome: 'UNKNOWN', stateLabel: 'triage', userId: 'u1', taskId: 't1' });
      await h.storage.putEpisode(open);
      expect(await h.storage.getEpisodes('tenant-a', [open.id])).toEqual([open]);
      const grown: Episode = {
        ...open,
        endSeq: open.endSeq + 2,
        endTs: open.endTs + 5000,
        eventIds: [...open.eventIds, 'evt_01ARZ3NDEKTSV4RRFFQ69G5FA1'],
        decisions: ['roll back the release'],
        assumptions: ['the cache is cold'],
        metadata: { turns: 4, nested: { ok: true } },
      };
      await h.storage.putEpisode(grown);
      expect(await h.storage.getEpisodes('tenant-a', [open.id])).toEqual([grown]);
      expect(await list()).toEqual([open.id]);
    });

    it('returns getEpisodes in the order asked and skips unknown ids', async () => {
      const [a, b] = [makeEpisode(), makeEpisode()];
      await h.storage.putEpisode(a);
      await h.storage.putEpisode(b);
      const got = await h.storage.getEpisodes('tenant-a', [b.id, 'eps_01ARZ3NDEKTSV4RRFFQ69G5FAV', a.id]);
      expect(got.map((e) => e.id)).toEqual([b.id, a.id]);
      expect(await h.storage.getEpisodes('tenant-a', [])).toEqual([]);
    });

    it('lists by stream, closed, outcome, since and scope, ordered by end time either way, with a limit', async () => {
      const e1 = makeEpisode({ streamKey: 'A', endTs: 1000, outcome: 'SUCCESS' });
      const e2 = makeEpisode({ streamKey: 'A', endTs: 3000, outcome: 'FAILURE', userId: 'u1' });
      const e3 = makeEpisode({ streamKey: 'B', endTs: 2000, outcome: 'PARTIAL', userId: 'u1' });
      const e4 = makeEpisode({ streamKey: 'A', endTs: 4000, outcome: 'UNKNOWN', closed: false });
      for (const e of [e3, e1, e4, e2]) await h.storage.putEpisode(e);
      expect(await list()).toEqual([e1.id, e3.id, e2.id, e4.id]);
      expect(await list({ order: 'desc' })).toEqual([e4.id, e2.id, e3.id, e1.id]);
      expect(await list({ streamKey: 'A' })).toEqual([e1.id, e2.id, e4.id]);
      expect(await list({ streamKey: 'A', closed: false })).toEqual([e4.id]);
      expect(await list({ closed: true, order: 'desc', limit: 2 })).toEqual([e2.id, e3.id]);
      expect(await list({ outcomes: ['FAILURE', 'PARTIAL'] })).toEqual([e3.id, e2.id]);
      expect(await list({ since: 2000 })).toEqual([e3.id, e2.id, e4.id]);
      expect(await list({ scope: { userId: 'u1' }, streamKey: 'B' })).toEqual([e3.id]);
      expect(await list({ streamKey: 'C' })).toEqual([]);
      expect(await list({ limit: 0 })).toEqual([]);
    });

    it('projects an episode as a doc only once it is closed, with summary, root cause and corrections', async () => {
      const open = makeEpisode({
        closed: false,
        summary: 'investigated the flaky checkout test',
        rootCause: 'a race in the payment mock',
        corrections: ['use the sandbox gateway instead'],
        outcome: 'UNKNOWN',
      });
      await h.storage.putEpisode(open);
      expect(await lexicalRefs('flaky checkout')).toEqual([]);
      expect(await h.storage.pendingEmbeddings(10)).toEqual([]);
      const closed: Episode = { ...open, closed: true, outcome: 'FAILURE', stateLabel: 'debugging', importance: 0.8 };
      await h.storage.putEpisode(closed);
      for (const word of ['flaky', 'payment', 'sandbox']) expect(await lexicalRefs(word)).toEqual([closed.id]);
      const hits = await h.storage.lexicalSearch({ tenant: 'tenant-a', text: 'flaky', k: 5, now: NOW });
      const [doc] = await h.storage.getDocs('tenant-a', [hits[0]!.docId]);
      expect(doc).toEqual({ ...episodeToDoc(closed), docId: hits[0]!.docId });
      expect(doc).toMatchObject({ kind: 'episode', type: 'FAILURE', stateLabel: 'debugging', importance: 0.8, ts: closed.endTs });
      expect(await h.storage.pendingEmbeddings(10)).toEqual([{ contentHash: doc!.contentHash, text: doc!.text }]);
      // A closed episode with nothing to say has no doc either.
      await h.storage.putEpisode(makeEpisode({ summary: ' ', corrections: [] }));
      expect(await h.storage.embeddingBacklog()).toBe(1);
    });

    it('keeps exactly one doc per episode through replacements, following its latest text', async () => {
      const v1 = makeEpisode({ summary: 'migrated the billing database', outcome: 'PARTIAL' });
      await h.storage.putEpisode(v1);
      await h.storage.putEpisode(v1);
      expect(await lexicalRefs('billing')).toEqual([v1.id]);
      const v2: Episode = { ...v1, summary: 'migrated the invoicing database', outcome: 'SUCCESS' };
      await h.storage.putEpisode(v2);
      expect(await lexicalRefs('billing')).toEqual([]);
      expect(await lexicalRefs('invoicing database')).toEqual([v2.id]);
      const byType = (value: string): FilterNode => ({ op: 'cmp', field: { kind: 'column', name: 'type' }, cmp: 'eq', value });
      expect(await lexicalRefs('database', { filter: byType('SUCCESS') })).toEqual([v2.id]);
      expect(await lexicalRefs('database', { filter: byType('PARTIAL') })).toEqual([]);
      // Reopening takes it out of retrieval again.
      await h.storage.putEpisode({ ...v2, closed: false });
      expect(await lexicalRefs('database')).toEqual([]);
    });

    it('is vector-searchable by kind once embedded', async () => {
      const ep = makeEpisode({ summary: 'rotated the leaked credentials' });
      await h.storage.putEpisode(ep);
      const [p] = await h.storage.pendingEmbeddings(5);
      const v = unitVector();
      await h.storage.putEmbeddings([{ contentHash: p!.contentHash, vector: v }]);
      const q = { tenant: 'tenant-a', vector: v, k: 5, now: NOW };
      const hits = await h.storage.vectorSearch({ ...q, kinds: ['episode'] });
      expect((await h.storage.getDocs('tenant-a', hits.map((x) => x.docId))).map((d) => d.refId)).toEqual([ep.id]);
      expect(await h.storage.vectorSearch({ ...q, kinds: ['event', 'fact'] })).toEqual([]);
    });

    it('refuses a malformed episode, naming the field, and writes nothing', async () => {
      const bad = { ...makeEpisode(), outcome: 'GREAT' } as unknown as Episode;
      const err = await expectCode(h.storage.putEpisode(bad), 'VALIDATION');
      expect(err.issues.map((i) => i.path)).toContain('episode.outcome');
      await expectCode(h.storage.putEpisode({ ...makeEpisode(), eventIds: 'evt' } as unknown as Episode), 'VALIDATION');
      expect(await list()).toEqual([]);
    });
  });
}
