import { describe, expect, it } from 'vitest';
import { exampleToDoc, procedureToDoc } from '../core/docs-learn.js';
import type { FilterNode } from '../core/filter.js';
import { contentHash } from '../core/text.js';
import type { DocKind, Example, Procedure } from '../core/types.js';
import { makeEpisode, makeExample, makeProcedure } from './storage-factories-learn.js';
import { makeEvent, makeFact, NOW, unitVector } from './storage-factories.js';
import { expectCode, type StorageHarness } from './storage-harness.js';

export function describeProceduresAndExamples(h: StorageHarness): void {
  const search = async (text: string, extra: { kinds?: DocKind[]; filter?: FilterNode } = {}) => {
    const hits = await h.storage.lexicalSearch({ tenant: 'tenant-a', text, k: 20, now: NOW, ...extra });
    return h.storage.getDocs('tenant-a', hits.map((x) => x.docId));
  };
  const refs = async (text: string, extra: { kinds?: DocKind[]; filter?: FilterNode } = {}) => (await search(text, extra)).map((d) => d.refId);

  describe('procedures', () => {
    it('stores a procedure, reads it back unchanged and projects name, trigger and steps into a doc', async () => {
      const p = makeProcedure({
        name: 'hotfix release',
        trigger: 'production outage after a deploy',
        steps: ['freeze merges', 'cherry-pick the revert', 'tag and ship'],
        preconditions: ['on-call approval'],
        notes: ['worked twice'],
        lastUsedAt: 5000,
        userId: 'u1',
      });
      await h.storage.putProcedure(p);
      expect(await h.storage.getProcedures('tenant-a', [p.id])).toEqual([p]);
      for (const word of ['hotfix', 'outage', 'cherry']) expect(await refs(word)).toEqual([p.id]);
      expect(await refs('approval')).toEqual([]); // preconditions are not part of the doc
      const [doc] = await search('hotfix');
      expect(doc).toEqual({ ...procedureToDoc(p), docId: doc!.docId });
      expect(doc).toMatchObject({ kind: 'procedure', userId: 'u1', ts: p.updatedAt });
    });

    it('replaces a procedure by id; its doc follows the new text and there is only ever one', async () => {
      const p = makeProcedure({ name: 'restart the worker', steps: ['drain the queue'] });
      await h.storage.putProcedure(p);
      const used: Procedure = { ...p, successCount: p.successCount + 1, lastUsedAt: 9000, updatedAt: 9000 };
      await h.storage.putProcedure(used);
      expect(await h.storage.getProcedures('tenant-a', [p.id])).toEqual([used]);
      expect(await refs('worker')).toEqual([p.id]);
      const revised: Procedure = { ...used, steps: ['pause the scheduler'], updatedAt: 9500 };
      await h.storage.putProcedure(revised);
      expect(await refs('drain queue')).toEqual([]);
      expect(await refs('scheduler worker')).toEqual([p.id]);
    });

    it('lists by scope, oldest first, with a limit, and gets in the order asked', async () => {
      const a = makeProcedure({ createdAt: 1000, agentId: 'bot' });
      const b = makeProcedure({ createdAt: 2000 });
      const c = makeProcedure({ createdAt: 3000, agentId: 'bot' });
      for (const p of [c, a, b]) await h.storage.putProcedure(p);
      const ids = async (q: object) => (await h.storage.listProcedures({ tenant: 'tenant-a', ...q })).map((p) => p.id);
      expect(await ids({})).toEqual([a.id, b.id, c.id]);
      expect(await ids({ scope: { agentId: 'bot' } })).toEqual([a.id, c.id]);
      expect(await ids({ limit: 2 })).toEqual([a.id, b.id]);
      expect((await h.storage.getProcedures('tenant-a', [c.id, 'prc_01ARZ3NDEKTSV4RRFFQ69G5FAV', a.id])).map((p) => p.id)).toEqual([c.id, a.id]);
    });

    it('refuses a malformed procedure, naming the field', async () => {
      const err = await expectCode(h.storage.putProcedure({ ...makeProcedure(), steps: [1, 2] } as unknown as Procedure), 'VALIDATION');
      expect(err.issues.map((i) => i.path)).toContain('procedure.steps');
      expect(await h.storage.listProcedures({ tenant: 'tenant-a' })).toEqual([]);
    });
  });

  describe('feedback examples', () => {
    it('stores an example, reads it back unchanged and projects its query as a doc typed by polarity', async () => {
      const e = makeExample({ query: 'how do I rotate the signing keys', response: 'run keys rotate', reason: 'clear', sessionId: 's1' });
      await h.storage.putExample(e);
      expect(await h.storage.getExamples('tenant-a', [e.id])).toEqual([e]);
      expect(await refs('signing')).toEqual([e.id]);
      expect(await refs('run')).toEqual([]); // the response is shown, not searched
      const [doc] = await search('signing');
      expect(doc).toEqual({ ...exampleToDoc(e), docId: doc!.docId });
      expect(doc).toMatchObject({ kind: 'example', type: 'positive', contentHash: contentHash(e.query) });
    });

    it('finds an example by pair hash in exactly its scope, whatever its polarity', async () => {
      const e = makeExample({ userId: 'u1', polarity: 'negative' });
      await h.storage.putExample(e);
      const find = (scope: object, hash = e.contentHash) => h.storage.findExample('tenant-a', scope, hash);
      expect(await find({ userId: 'u1' })).toEqual(e);
      expect(await find({})).toBeUndefined();
      expect(await find({ userId: 'u1', sessionId: 's1' })).toBeUndefined();
      expect(await find({ userId: 'u2' })).toBeUndefined();
      expect(await find({ userId: 'u1' }, contentHash('other', 'pair'))).toBeUndefined();
    });

    it('toggles polarity in place: same id, the doc type follows, still one example for the pair', async () => {
      const e = makeExample({ query: 'summarise the incident report' });
      await h.storage.putExample(e);
      const flipped: Example = { ...e, polarity: 'negative', reason: 'too long' };
      await h.storage.putExample(flipped);
      expect(await h.storage.findExample('tenant-a', {}, e.contentHash)).toEqual(flipped);
      const byType = (value: string): FilterNode => ({ op: 'cmp', field: { kind: 'column', name: 'type' }, cmp: 'eq', value });
      expect(await refs('incident', { filter: byType('negative') })).toEqual([e.id]);
      expect(await refs('incident', { filter: byType('positive') })).toEqual([]);
      expect(await h.storage.listExamples({ tenant: 'tenant-a' })).toEqual([flipped]);
    });

    it('refuses a second example for the same pair in the same scope, allows it in another scope', async () => {
      const e = makeExample({ userId: 'u1' });
      await h.storage.putExample(e);
      await expectCode(h.storage.putExample({ ...e, id: 'exm_01ARZ3NDEKTSV4RRFFQ69G5FAV' }), 'CONFLICT');
      await h.storage.putExample({ ...e, id: 'exm_01ARZ3NDEKTSV4RRFFQ69G5FAW', userId: 'u2' });
      await h.storage.putExample({ ...e, id: 'exm_01ARZ3NDEKTSV4RRFFQ69G5FAX', userId: undefined });
      expect(await h.storage.listExamples({ tenant: 'tenant-a' })).toHaveLength(3);
      expect((await h.storage.findExample('tenant-a', {}, e.contentHash))!.id).toBe('exm_01ARZ3NDEKTSV4RRFFQ69G5FAX');
    });

    it('lists by scope and polarity, oldest first, with a limit', async () => {
      const a = makeExample({ createdAt: 1000, polarity: 'positive', userId: 'u1' });
      const b = makeExample({ createdAt: 2000, polarity: 'negative', userId: 'u1' });
      const c = makeExample({ createdAt: 3000, polarity: 'positive' });
      for (const e of [c, b, a]) await h.storage.putExample(e);
      const ids = async (q: object) => (await h.storage.listExamples({ tenant: 'tenant-a', ...q })).map((e) => e.id);
      expect(await ids({})).toEqual([a.id, b.id, c.id]);
      expect(await ids({ polarity: 'positive' })).toEqual([a.id, c.id]);
      expect(await ids({ scope: { userId: 'u1' }, polarity: 'negative' })).toEqual([b.id]);
      expect(await ids({ limit: 1 })).toEqual([a.id]);
      expect((await h.storage.getExamples('tenant-a', [c.id, a.id])).map((e) => e.id)).toEqual([c.id, a.id]);
    });

    it('deletes an example with its doc; false when there is none', async () => {
      const e = makeExample({ query: 'translate the onboarding email' });
      await h.storage.putExample(e);
      expect(await h.storage.deleteExample('tenant-a', e.id)).toBe(true);
      expect(await h.storage.getExamples('tenant-a', [e.id])).toEqual([]);
      expect(await h.storage.findExample('tenant-a', {}, e.contentHash)).toBeUndefined();
      expect(await refs('onboarding')).toEqual([]);
      expect(await h.storage.embeddingBacklog()).toBe(0);
      expect(await h.storage.deleteExample('tenant-a', e.id)).toBe(false);
    });
  });

  describe('search across every kind', () => {
    it('finds each kind by its own text and narrows by kind, lexically and by vector', async () => {
      const ev = makeEvent({ content: 'kestrel event words' });
      const fact = makeFact({ text: 'kestrel fact words' });
      const ep = makeEpisode({ summary: 'kestrel episode words' });
      const proc = makeProcedure({ name: 'kestrel procedure words', trigger: 'x', steps: [] });
      const ex = makeExample({ query: 'kestrel example words' });
      await h.storage.appendEvents([ev]);
      await h.storage.putFact(fact);
      await h.storage.putEpisode(ep);
      await h.storage.putProcedure(proc);
      await h.storage.putExample(ex);
      const byKind = { event: ev.id, fact: fact.id, episode: ep.id, procedure: proc.id, example: ex.id } as const;
      expect((await refs('kestrel')).sort()).toEqual(Object.values(byKind).sort());
      const pending = await h.storage.pendingEmbeddings(10);
      expect(pending).toHaveLength(5);
      const vectors = pending.map((p) => ({ contentHash: p.contentHash, vector: unitVector() }));
      await h.storage.putEmbeddings(vectors);
      for (const [kind, id] of Object.entries(byKind) as [DocKind, string][]) {
        expect(await refs('kestrel', { kinds: [kind] })).toEqual([id]);
        const hits = await h.storage.vectorSearch({ tenant: 'tenant-a', vector: vectors[0]!.vector, k: 10, now: NOW, kinds: [kind] });
        expect((await h.storage.getDocs('tenant-a', hits.map((x) => x.docId))).map((d) => d.refId)).toEqual([id]);
      }
    });
  });
}
