import { describe, expect, it } from 'vitest';
import { causeVectorKey } from '../core/docs-learn.js';
import type { Episode, Example, Fact, Procedure } from '../core/types.js';
import { makeApiKey, makeEpisode, makeEvidence, makeExample, makeLink, makeProcedure } from './storage-factories-learn.js';
import { makeEvent, makeFact, NOW, unitVector } from './storage-factories.js';
import { expectCode, type StorageHarness } from './storage-harness.js';

interface World {
  fact: Fact;
  episode: Episode;
  procedure: Procedure;
  example: Example;
}

export function describeLearnRetention(h: StorageHarness): void {
  const refs = async (text: string, tenant = 'tenant-a') => {
    const hits = await h.storage.lexicalSearch({ tenant, text, k: 50, now: NOW });
    return (await h.storage.getDocs(tenant, hits.map((x) => x.docId))).map((d) => d.refId);
  };
  const linksOf = (ids: string[], tenant = 'tenant-a') => h.storage.getLinks({ tenant, ids, direction: 'both' });

  /** One record of each learn kind in `scope`, linked in a chain, with evidence, all words containing `tag`. */
  async function world(tag: string, scope: { userId?: string; sessionId?: string } = {}, tenant = 'tenant-a'): Promise<World> {
    const fact = makeFact({ tenant, text: `${tag} fact words`, ...scope });
    const episode = makeEpisode({ tenant, summary: `${tag} episode words`, ...scope });
    const procedure = makeProcedure({ tenant, name: `${tag} procedure words`, ...scope });
    const example = makeExample({ tenant, query: `${tag} example words`, ...scope });
    await h.storage.putFact(fact);
    await h.storage.putEpisode(episode);
    await h.storage.putProcedure(procedure);
    await h.storage.putExample(example);
    await h.storage.putLinks([
      makeLink({ tenant, fromId: episode.id, toId: fact.id, type: 'LEARNED_FROM' }),
      makeLink({ tenant, fromId: episode.id, toId: procedure.id, type: 'LED_TO' }),
    ]);
    await h.storage.addFactEvidence([makeEvidence({ tenant, factId: fact.id, episodeId: episode.id })]);
    return { fact, episode, procedure, example };
  }

  describe('forget and sweep for learn records', () => {
    it('forgets episodes, procedures and examples by id, with their docs, links and evidence, counting each', async () => {
      const w = await world('osprey');
      const keep = await world('heron');
      const bridge = makeLink({ fromId: keep.episode.id, toId: w.episode.id, type: 'RETRY_OF' });
      await h.storage.putLinks([bridge]);
      const pending = await h.storage.pendingEmbeddings(100);
      await h.storage.putEmbeddings(pending.map((p) => ({ contentHash: p.contentHash, vector: unitVector() })));
      const report = await h.storage.forget({ tenant: 'tenant-a', ids: [w.episode.id, w.procedure.id, w.example.id] }, NOW);
      expect(report).toEqual({ events: 0, facts: 0, docs: 3, embeddings: 3, episodes: 1, procedures: 1, examples: 1, links: 3 });
      expect(await h.storage.getEpisodes('tenant-a', [w.episode.id])).toEqual([]);
      expect(await h.storage.getProcedures('tenant-a', [w.procedure.id])).toEqual([]);
      expect(await h.storage.getExamples('tenant-a', [w.example.id])).toEqual([]);
      expect(await h.storage.findExample('tenant-a', {}, w.example.contentHash)).toBeUndefined();
      expect(await refs('osprey')).toEqual([w.fact.id]);
      expect(await linksOf([w.episode.id, w.fact.id, w.procedure.id])).toEqual([]);
      expect(await h.storage.getFactEvidence('tenant-a', w.fact.id)).toEqual([]); // it came from the forgotten episode
      expect(await h.storage.getFactEvidence('tenant-a', keep.fact.id)).toHaveLength(1);
      expect(await linksOf([keep.episode.id])).toHaveLength(2);
      const [audit] = await h.storage.listAudit('tenant-a', 1);
      expect(new Set(audit!.targetIds)).toEqual(new Set([w.episode.id, w.procedure.id, w.example.id]));
      expect(JSON.stringify(audit)).not.toMatch(/osprey/);
    });

    it('forgetting a fact takes its evidence and the links that name any of its versions', async () => {
      const w = await world('plover');
      const report = await h.storage.forget({ tenant: 'tenant-a', ids: [w.fact.id] }, NOW);
      expect(report).toMatchObject({ facts: 1, episodes: 0, links: 1 });
      expect(await h.storage.getFactEvidence('tenant-a', w.fact.id)).toEqual([]);
      expect((await linksOf([w.episode.id])).map((l) => l.toId)).toEqual([w.procedure.id]);
    });

    it('forgets every kind in a scope and nothing outside it; working memory goes with its session', async () => {
      const u1 = await world('curlew', { userId: 'u1', sessionId: 's1' });
      const u2 = await world('dunlin', { userId: 'u2', sessionId: 's2' });
      await h.storage.putWorkingMemory({ tenant: 'tenant-a', sessionId: 's1', state: { a: 1 }, updatedAt: NOW }, 0);
      await h.storage.putWorkingMemory({ tenant: 'tenant-a', sessionId: 's2', state: { b: 2 }, updatedAt: NOW }, 0);
      const report = await h.storage.forget({ tenant: 'tenant-a', scope: { userId: 'u1' } }, NOW);
      expect(report).toMatchObject({ facts: 1, episodes: 1, procedures: 1, examples: 1, links: 2, docs: 4 });
      expect(await refs('curlew')).toEqual([]);
      expect((await refs('dunlin')).sort()).toEqual([u2.fact.id, u2.episode.id, u2.procedure.id, u2.example.id].sort());
      expect(await h.storage.listEpisodes({ tenant: 'tenant-a' })).toEqual([u2.episode]);
      expect(await h.storage.listProcedures({ tenant: 'tenant-a' })).toEqual([u2.procedure]);
      expect(await h.storage.listExamples({ tenant: 'tenant-a' })).toEqual([u2.example]);
      expect(await linksOf([u1.episode.id])).toEqual([]);
      expect(await linksOf([u2.episode.id])).toHaveLength(2);
      // Working memory has no user: a user scope does not reach it, a session scope does.
      expect(await h.storage.getWorkingMemory('tenant-a', 's1', NOW)).toBeDefined();
      await h.storage.forget({ tenant: 'tenant-a', scope: { sessionId: 's1' } }, NOW);
      expect(await h.storage.getWorkingMemory('tenant-a', 's1', NOW)).toBeUndefined();
      expect(await h.storage.getWorkingMemory('tenant-a', 's2', NOW)).toBeDefined();
    });

    it('forgets a whole tenant with scope {}, every kind, keeping its API keys and other tenants', async () => {
      await world('avocet');
      const other = await world('avocet', {}, 'tenant-b');
      await h.storage.putLinks([makeLink({ fromId: 'evt_01ARZ3NDEKTSV4RRFFQ69G5FA1', toId: 'evt_01ARZ3NDEKTSV4RRFFQ69G5FA2' })]);
      await h.storage.putWorkingMemory({ tenant: 'tenant-a', sessionId: 's1', state: {}, updatedAt: NOW }, 0);
      const key = makeApiKey();
      await h.storage.putApiKey(key);
      const report = await h.storage.forget({ tenant: 'tenant-a', scope: {} }, NOW);
      expect(report).toMatchObject({ facts: 1, episodes: 1, procedures: 1, examples: 1, links: 3, docs: 4 });
      expect(await refs('avocet')).toEqual([]);
      expect(await h.storage.getLinks({ tenant: 'tenant-a', ids: ['evt_01ARZ3NDEKTSV4RRFFQ69G5FA1'], direction: 'both' })).toEqual([]);
      expect(await h.storage.getWorkingMemory('tenant-a', 's1', NOW)).toBeUndefined();
      expect(await h.storage.findApiKeyByHash(key.hash)).toEqual(key);
      expect(await refs('avocet', 'tenant-b')).toHaveLength(4);
      expect(await linksOf([other.episode.id], 'tenant-b')).toHaveLength(2);
      expect(await h.storage.getFactEvidence('tenant-b', other.fact.id)).toHaveLength(1);
    });

    it('an episode described again with another cause leaves no vector of the old one, unless an episode still states it', async () => {
      const stored = (causes: string[]) => h.storage.getEmbeddings(causes.map(causeVectorKey));
      const [first, shared, kept] = ['the cron job ran twice after the clock change', 'a stale cache entry', 'the disk filled up'];
      const episode = makeEpisode({ rootCause: first });
      const twin = makeEpisode({ tenant: 'tenant-b', streamKey: 'tenant-b/s1', rootCause: shared });
      await h.storage.putEpisode(episode);
      await h.storage.putEpisode(twin);
      await h.storage.putEmbeddings([first, shared, kept].map((c) => ({ contentHash: causeVectorKey(c), vector: unitVector() })));

      await h.storage.putEpisode({ ...episode, rootCause: shared }); // corrected: the first cause is no episode's now
      expect([...(await stored([first, shared, kept])).keys()].sort()).toEqual([causeVectorKey(shared), causeVectorKey(kept)].sort());

      await h.storage.putEpisode({ ...episode, rootCause: kept }); // the twin (another tenant) still states the shared cause
      expect((await stored([shared])).size).toBe(1);
      await h.storage.putEpisode({ ...twin, rootCause: undefined }); // cleared, and no episode states it any more
      expect((await stored([shared])).size).toBe(0);

      await h.storage.putEpisode({ ...episode, rootCause: kept, summary: `${episode.summary} (edited)` }); // same cause: its vector stays
      expect((await stored([kept])).size).toBe(1);
    });
  });

  describe('tenant isolation for learn records', () => {
    it('tenant B sees nothing of tenant A by A ids, and its writes cannot reach A', async () => {
      const w = await world('bittern', { sessionId: 's1' });
      await h.storage.putWorkingMemory({ tenant: 'tenant-a', sessionId: 's1', state: { secret: 'a' }, updatedAt: NOW }, 0);
      const ev = makeEvent();
      await h.storage.appendEvents([ev]);
      const B = 'tenant-b';
      const all = [w.fact.id, w.episode.id, w.procedure.id, w.example.id];
      expect(await h.storage.getEpisodes(B, [w.episode.id])).toEqual([]);
      expect(await h.storage.listEpisodes({ tenant: B })).toEqual([]);
      expect(await h.storage.getLinks({ tenant: B, ids: all, direction: 'both' })).toEqual([]);
      expect(await h.storage.traverse({ tenant: B, ids: all, direction: 'both', maxDepth: 5, limit: 10 })).toEqual([]);
      expect(await h.storage.getFactEvidence(B, w.fact.id)).toEqual([]);
      expect(await h.storage.getProcedures(B, [w.procedure.id])).toEqual([]);
      expect(await h.storage.listProcedures({ tenant: B })).toEqual([]);
      expect(await h.storage.getExamples(B, [w.example.id])).toEqual([]);
      expect(await h.storage.findExample(B, { sessionId: 's1' }, w.example.contentHash)).toBeUndefined();
      expect(await h.storage.listExamples({ tenant: B })).toEqual([]);
      expect(await h.storage.getWorkingMemory(B, 's1', NOW)).toBeUndefined();
      expect(await refs('bittern', B)).toEqual([]);

      // Writes in B: same ids and keys make B's own records; A's stay as they were.
      expect(await h.storage.deleteExample(B, w.example.id)).toBe(false);
      expect(await h.storage.deleteLinks(B, all)).toBe(0);
      expect(await h.storage.deleteWorkingMemory(B, 's1')).toBe(false);
      await expectCode(h.storage.addFactEvidence([makeEvidence({ tenant: B, factId: w.fact.id, episodeId: w.episode.id })]), 'NOT_FOUND');
      const [bLink] = await h.storage.putLinks([makeLink({ tenant: B, fromId: w.episode.id, toId: w.fact.id, type: 'LEARNED_FROM', weight: 1 })]);
      expect(bLink!.origin).toBe('inferred');
      expect((await h.storage.putWorkingMemory({ tenant: B, sessionId: 's1', state: { b: 1 }, updatedAt: NOW }, 0)).version).toBe(1);
      await h.storage.putExample({ ...w.example, tenant: B });
      expect(await h.storage.forget({ tenant: B, ids: [...all, ev.id] }, NOW)).toMatchObject({ events: 0, facts: 0, episodes: 0, procedures: 0, examples: 1, links: 1 });
      await h.storage.forget({ tenant: B, scope: {} }, NOW);

      expect(await h.storage.getEpisodes('tenant-a', [w.episode.id])).toEqual([w.episode]);
      expect(await h.storage.getExamples('tenant-a', [w.example.id])).toEqual([w.example]);
      expect(await h.storage.getProcedures('tenant-a', [w.procedure.id])).toEqual([w.procedure]);
      const aLinks = await h.storage.getLinks({ tenant: 'tenant-a', ids: [w.episode.id], direction: 'out' });
      expect(aLinks.map((l) => l.origin)).toEqual(['inferred', 'inferred']);
      expect(await h.storage.getFactEvidence('tenant-a', w.fact.id)).toHaveLength(1);
      expect(await h.storage.getWorkingMemory('tenant-a', 's1', NOW)).toMatchObject({ version: 1, state: { secret: 'a' } });
      expect(await refs('bittern')).toHaveLength(4);
    });
  });

  describe('persistence of learn records', () => {
    it('keeps episodes, links, evidence, procedures, examples, working memory and keys across reopen', async (ctx) => {
      if (!h.canReopen) return ctx.skip();
      const w = await world('godwit', { sessionId: 's1' });
      const mem = await h.storage.putWorkingMemory({ tenant: 'tenant-a', sessionId: 's1', state: { n: 1 }, updatedAt: NOW }, 0);
      const key = makeApiKey();
      await h.storage.putApiKey(key);
      const links = await h.storage.getLinks({ tenant: 'tenant-a', ids: [w.episode.id], direction: 'both' });
      const s = await h.reopen();
      expect(await s.getEpisodes('tenant-a', [w.episode.id])).toEqual([w.episode]);
      expect(await s.getLinks({ tenant: 'tenant-a', ids: [w.episode.id], direction: 'both' })).toEqual(links);
      expect(await s.getFactEvidence('tenant-a', w.fact.id)).toHaveLength(1);
      expect(await s.getProcedures('tenant-a', [w.procedure.id])).toEqual([w.procedure]);
      expect(await s.findExample('tenant-a', { sessionId: 's1' }, w.example.contentHash)).toEqual(w.example);
      expect(await s.getWorkingMemory('tenant-a', 's1', NOW)).toEqual(mem);
      expect(await s.findApiKeyByHash(key.hash)).toEqual(key);
      expect(await refs('godwit')).toHaveLength(4);
    });
  });
}
