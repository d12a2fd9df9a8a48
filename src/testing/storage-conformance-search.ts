import { describe, expect, it } from 'vitest';
import { eventToDoc, factToDoc } from '../core/docs.js';
import { matchesFilter, type FilterNode } from '../core/filter.js';
import type { Doc, DocKind, Fact } from '../core/types.js';
import type { DocQuery, NewEvent, ScopeFilter } from '../ports/storage.js';
import { expectCode, type StorageHarness } from './storage-harness.js';
import { cosine, makeEvent, makeFact, NOW, reviseFact, seededRng, TEST_DIM, unitVector } from './storage-factories.js';

type Rec = { kind: 'event'; e: NewEvent } | { kind: 'fact'; f: Fact };

const projection = (r: Rec): Omit<Doc, 'docId'> => (r.kind === 'event' ? eventToDoc(r.e) : factToDoc(r.f));

/** Brute-force reference: filter the projections in process and rank by exact cosine. */
function bruteForce(recs: readonly Rec[], vectors: Map<string, Float32Array>, q: Omit<DocQuery, 'tenant' | 'now'> & { vector: Float32Array }) {
  const scopeOk = (d: Omit<Doc, 'docId'>, s: ScopeFilter | undefined) =>
    !s || (['userId', 'agentId', 'sessionId', 'taskId'] as const).every((k) => s[k] === undefined || d[k] === s[k]);
  return recs
    .map(projection)
    .filter((d) => d.tenant === 'tenant-a' && scopeOk(d, q.scope) && (!q.kinds || q.kinds.includes(d.kind)))
    .filter((d) => d.expiresAt === undefined || d.expiresAt > NOW)
    .filter((d) => matchesFilter({ ...d, docId: 0 }, q.filter))
    .filter((d) => vectors.has(d.contentHash))
    .map((d) => ({ refId: d.refId, score: cosine(q.vector, vectors.get(d.contentHash)!) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, q.k);
}

export function describeSearch(h: StorageHarness): void {
  const refsOf = async (hits: { docId: number }[]) => (await h.storage.getDocs('tenant-a', hits.map((x) => x.docId))).map((d) => d.refId);
  const lexical = (text: string, extra: Partial<DocQuery> = {}) => h.storage.lexicalSearch({ tenant: 'tenant-a', text, k: 10, now: NOW, ...extra });

  describe('lexical search', () => {
    it('ranks by BM25, higher score first', async () => {
      const strong = makeEvent({ content: 'invoice invoice invoice overdue' });
      const weak = makeEvent({ content: 'the invoice was mentioned once among many other words in a long message about gardens' });
      const none = makeEvent({ content: 'completely unrelated text' });
      await h.storage.appendEvents([weak, none, strong]);
      const hits = await lexical('invoice');
      expect(await refsOf(hits)).toEqual([strong.id, weak.id]);
      expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
    });

    describe('lexical context (the event before, in the same session)', () => {
      /** A question, its answer in other words, and bystanders: another session and no session. */
      const conversation = () => {
        const ask = makeEvent({ sessionId: 'chat-1', name: 'Alice', content: 'What did you research for the adoption?', ts: 1_000 });
        const answer = makeEvent({ sessionId: 'chat-1', name: 'Bob', content: 'Mostly agencies that welcome every family.', ts: 2_000 });
        const elsewhere = makeEvent({ sessionId: 'chat-2', name: 'Bob', content: 'Gardening all weekend.', ts: 3_000 });
        const loose = makeEvent({ name: 'Bob', content: 'Cooking pasta tonight.', ts: 4_000 });
        return { ask, answer, elsewhere, loose };
      };
      const found = async (text: string) => new Set(await refsOf(await lexical(text)));

      it('finds an event by the words of the event before it in its session, and no other', async () => {
        await lexical('warm'); // the index is loaded before the append, and kept in step by it
        const c = conversation();
        await h.storage.appendEvents([c.ask, c.answer, c.elsewhere, c.loose]);
        expect(await found('research')).toEqual(new Set([c.ask.id, c.answer.id]));
        expect(await found('agencies')).toEqual(new Set([c.answer.id])); // context runs forward only
        // The context is indexed, not part of the doc.
        const [doc] = await h.storage.getDocs('tenant-a', (await lexical('agencies')).map((x) => x.docId));
        expect(doc!.text).toBe('Bob: Mostly agencies that welcome every family.');
        // The same session id in another tenant lends no words, though its last event is later in its own timeline
        // (seq 4) than the answer is in this one (seq 2).
        const other = (content: string, ts: number) => makeEvent({ tenant: 'tenant-b', sessionId: 'chat-1', content, ts });
        await h.storage.appendEvents([other('One.', 2_100), other('Two.', 2_200), other('Three.', 2_300), other('Zebras everywhere.', 2_500)]);
        const later = makeEvent({ sessionId: 'chat-1', name: 'Alice', content: 'Anything else?', ts: 3_500 });
        await h.storage.appendEvents([later]);
        expect(await found('zebras')).toEqual(new Set());
        expect(await found('agencies')).toEqual(new Set([c.answer.id, later.id]));
      });

      it('takes the context from an earlier append, passing over a redacted event', async () => {
        await lexical('warm');
        const c = conversation();
        const aside = makeEvent({ sessionId: 'chat-1', name: 'Alice', content: 'Secret aside, never mind.', ts: 1_500 });
        await h.storage.appendEvents([c.ask, aside]);
        expect(await h.storage.redactEvent('tenant-a', aside.id, 'user request', NOW)).toBe(true);
        await h.storage.appendEvents([c.answer]);
        expect(await found('research')).toEqual(new Set([c.ask.id, c.answer.id]));
        expect(await found('secret')).toEqual(new Set());
      });

      it('is the same after the index is built from the file', async (ctx) => {
        if (!h.canReopen) return ctx.skip();
        const c = conversation();
        await h.storage.appendEvents([c.ask, c.answer, c.elsewhere, c.loose]);
        await h.reopen();
        expect(await found('research')).toEqual(new Set([c.ask.id, c.answer.id]));
      });

      it('follows redaction and forgetting: removed words are not findable through the next event', async () => {
        const before = makeEvent({ sessionId: 'chat-1', name: 'Alice', content: 'Lovely orchids on the table.', ts: 500 });
        const c = conversation();
        await lexical('warm');
        await h.storage.appendEvents([before, c.ask, c.answer, c.elsewhere]);
        expect(await h.storage.redactEvent('tenant-a', c.ask.id, 'user request', NOW)).toBe(true);
        expect(await found('research')).toEqual(new Set());
        // The answer now carries the context of the event before the redacted one.
        expect(await found('orchids')).toEqual(new Set([before.id, c.answer.id]));
        await h.storage.forget({ tenant: 'tenant-a', ids: [before.id] }, NOW);
        expect(await found('orchids')).toEqual(new Set());
        expect(await found('agencies')).toEqual(new Set([c.answer.id]));
      });
    });

    it('stems and folds diacritics', async () => {
      const e = makeEvent({ content: 'We were deploying to the Café server' });
      await h.storage.appendEvents([e]);
      expect(await refsOf(await lexical('deploy'))).toEqual([e.id]);
      expect(await refsOf(await lexical('cafe'))).toEqual([e.id]);
    });

    it('treats query syntax as plain words and never throws on user text', async () => {
      const e = makeEvent({ content: 'this is not a drill near the door' });
      await h.storage.appendEvents([e, makeEvent({ content: 'unrelated garden talk' })]);
      for (const q of ['NOT', 'near(door', '"unbalanced quote', 'text:door', 'door*', '^this', 'a AND (b OR', '-drill', '{door}', "it's"]) {
        const hits = await lexical(q);
        expect(Array.isArray(hits)).toBe(true);
      }
      expect(await refsOf(await lexical('NOT'))).toEqual([e.id]);
      expect(await refsOf(await lexical('"near" AND ( drill'))).toEqual([e.id]);
      expect(await lexical('')).toEqual([]);
      expect(await lexical('  ?! ... ()"* ')).toEqual([]);
    });

    it('applies scope, kinds, filter and expiry before k', async () => {
      const mine = makeEvent({ content: 'zebra crossing', userId: 'u1', metadata: { channel: 'chat' } });
      const theirs = makeEvent({ content: 'zebra zebra zebra', userId: 'u2', metadata: { channel: 'email' } });
      const expired = makeEvent({ content: 'zebra zebra', userId: 'u1', expiresAt: NOW });
      const fact = makeFact({ text: 'zebra facts are stripes', userId: 'u1' });
      await h.storage.appendEvents([mine, theirs, expired]);
      await h.storage.putFact(fact);
      expect(await refsOf(await lexical('zebra', { k: 1, scope: { userId: 'u1' }, kinds: ['event'] }))).toEqual([mine.id]);
      expect(await refsOf(await lexical('zebra', { kinds: ['fact'] }))).toEqual([fact.id]);
      const filter: FilterNode = { op: 'cmp', field: { kind: 'meta', path: ['channel'] }, cmp: 'eq', value: 'chat' };
      expect(await refsOf(await lexical('zebra', { k: 1, filter }))).toEqual([mine.id]);
      expect((await refsOf(await lexical('zebra'))).sort()).toEqual([mine.id, theirs.id, fact.id].sort());
      expect(await lexical('zebra', { k: 0 })).toEqual([]);
    });

    it('with term bests (when offered): the same hits, and per term the best one-term score under the same filters', async () => {
      const withBest = h.storage.lexicalSearchWithTermBest?.bind(h.storage);
      if (!withBest) return;
      await h.storage.appendEvents([
        makeEvent({ content: 'zebra crossing at the deploy gate', userId: 'u1' }),
        makeEvent({ content: 'zebra zebra herd', userId: 'u2' }),
        makeEvent({ content: 'deploy deploy rollback', userId: 'u1' }),
        makeEvent({ content: 'unrelated words entirely', userId: 'u1' }),
      ]);
      for (const scope of [undefined, { userId: 'u1' }]) {
        const q = { tenant: 'tenant-a', text: 'zebra deploy', k: 10, now: NOW, ...(scope ? { scope } : {}) };
        const { hits, termBest } = await withBest(q);
        expect(hits).toEqual(await h.storage.lexicalSearch(q));
        expect(termBest).toHaveLength(2);
        for (const [i, word] of ['zebra', 'deploy'].entries()) {
          const alone = (await h.storage.lexicalSearch({ ...q, text: word, k: 1 }))[0]?.score ?? 0;
          expect(termBest[i]).toBeGreaterThan(0);
          expect(termBest[i]).toBeCloseTo(alone, 6);
        }
      }
      expect((await withBest({ tenant: 'tenant-a', text: 'zebra', k: 10, now: NOW, scope: { userId: 'nobody' } })).termBest).toEqual([0]);
    });

    it('getDocs returns docs in the order asked and skips unknown ids', async () => {
      const [a, b] = [makeEvent({ content: 'alpha words' }), makeEvent({ content: 'beta words' })];
      await h.storage.appendEvents([a!, b!]);
      const hits = await lexical('words');
      const ids = hits.map((x) => x.docId);
      const docs = await h.storage.getDocs('tenant-a', [ids[1]!, 987654, ids[0]!]);
      expect(docs.map((d) => d.docId)).toEqual([ids[1], ids[0]]);
      expect(docs.find((d) => d.refId === a!.id)).toMatchObject({ ...eventToDoc(a!), docId: expect.any(Number) });
    });
  });

  describe('embeddings', () => {
    it('lists pending texts once per content hash, oldest first, and counts the backlog', async () => {
      const e1 = makeEvent({ content: 'first text' });
      const e2 = makeEvent({ content: 'second text' });
      const e3 = makeEvent({ content: 'first text' });
      await h.storage.appendEvents([e1, e2, e3]);
      await h.storage.putFact(makeFact({ text: 'third text' }));
      expect(await h.storage.embeddingBacklog()).toBe(3);
      // Counted up to a cap: the equal texts still count once.
      expect(await h.storage.embeddingBacklog({ upTo: 2 })).toBe(2);
      expect(await h.storage.embeddingBacklog({ upTo: 3 })).toBe(3);
      expect(await h.storage.embeddingBacklog({ upTo: 10 })).toBe(3);
      const pending = await h.storage.pendingEmbeddings(10);
      expect(pending).toEqual([
        { contentHash: e1.contentHash, text: 'first text' },
        { contentHash: e2.contentHash, text: 'second text' },
        { contentHash: expect.any(String), text: 'third text' },
      ]);
      expect(await h.storage.pendingEmbeddings(1)).toEqual(pending.slice(0, 1));
      await h.storage.putEmbeddings([{ contentHash: e1.contentHash, vector: unitVector() }]);
      expect(await h.storage.embeddingBacklog()).toBe(2);
      expect((await h.storage.pendingEmbeddings(10)).map((p) => p.text)).toEqual(['second text', 'third text']);
    });

    it('keeps finding new pending texts after everything older was embedded', async () => {
      for (let round = 0; round < 3; round++) {
        const fresh = [makeEvent({ content: `round ${round} text` }), makeEvent({ content: 'recurring text' })];
        await h.storage.appendEvents(fresh);
        const pending = await h.storage.pendingEmbeddings(10);
        expect(pending.map((p) => p.text)).toEqual(round === 0 ? ['round 0 text', 'recurring text'] : [`round ${round} text`]);
        expect(await h.storage.embeddingBacklog()).toBe(pending.length);
        await h.storage.putEmbeddings(pending.map((p) => ({ contentHash: p.contentHash, vector: unitVector() })));
        expect(await h.storage.embeddingBacklog()).toBe(0);
        expect(await h.storage.pendingEmbeddings(10)).toEqual([]);
      }
    });

    it('caches vectors by content hash and reads them back', async () => {
      const v = unitVector();
      await h.storage.appendEvents([makeEvent({ content: 'cached' })]);
      const [p] = await h.storage.pendingEmbeddings(1);
      await h.storage.putEmbeddings([{ contentHash: p!.contentHash, vector: v }]);
      const got = await h.storage.getEmbeddings([p!.contentHash, 'nope']);
      expect([...got.keys()]).toEqual([p!.contentHash]);
      expect(Array.from(got.get(p!.contentHash)!)).toEqual(Array.from(v));
      // A later doc with the same text needs no new vector and is vector-searchable at once.
      const twin = makeEvent({ content: 'cached' });
      await h.storage.appendEvents([twin]);
      expect(await h.storage.embeddingBacklog()).toBe(0);
      const hits = await h.storage.vectorSearch({ tenant: 'tenant-a', vector: v, k: 5, now: NOW });
      expect(hits).toHaveLength(2);
      expect(await refsOf(hits)).toContain(twin.id);
    });

    it('hydrates docs as getDocs, getEmbeddings, getFacts and getEvents would (when the adapter has hydrateDocs)', async () => {
      if (!h.storage.hydrateDocs) return;
      const events = [0, 1, 2, 3].map((i) => makeEvent({ content: `hydrated event ${i}`, sessionId: 's1' }));
      await h.storage.appendEvents(events);
      const fact = makeFact({ text: 'hydrated fact', subject: 'the fact', predicate: 'is', value: 'hydrated', validTo: NOW + 5.5, metadata: { k: [1.25, 'x'] } });
      await h.storage.putFact(fact);
      await h.storage.appendEvents([makeEvent({ tenant: 'tenant-b', content: 'hydrated elsewhere' })]);
      const pending = await h.storage.pendingEmbeddings(10);
      // Every text but the second event's gets a vector.
      await h.storage.putEmbeddings(pending.filter((p) => p.text !== 'hydrated event 1').map((p) => ({ contentHash: p.contentHash, vector: unitVector() })));
      const hits = await h.storage.lexicalSearch({ tenant: 'tenant-a', text: 'hydrated', k: 10, now: NOW });
      const byRef = new Map((await h.storage.getDocs('tenant-a', hits.map((x) => x.docId))).map((d) => [d.refId, d.docId!]));
      const other = (await h.storage.lexicalSearch({ tenant: 'tenant-b', text: 'hydrated', k: 1, now: NOW }))[0]!.docId;
      // Fact first, an unknown id and another tenant's doc among them, events out of order.
      const ids = [byRef.get(fact.id)!, 987654321, byRef.get(events[2]!.id)!, other, byRef.get(events[0]!.id)!, byRef.get(events[1]!.id)!, byRef.get(events[3]!.id)!];
      const docs = await h.storage.getDocs('tenant-a', ids);
      const got = await h.storage.hydrateDocs('tenant-a', ids, { events: 2 });
      expect(got.docs).toEqual(docs);
      expect(got.vectors).toEqual(await h.storage.getEmbeddings([...new Set(docs.map((d) => d.contentHash))]));
      expect(got.vectors.size).toBe(4);
      // The events of the first two event docs, in the order asked.
      expect(got.events).toEqual(new Map((await h.storage.getEvents('tenant-a', [events[2]!.id, events[0]!.id])).map((e) => [e.id, e])));
      // The fact behind every fact doc, as getFact reads it.
      expect(got.facts).toEqual(new Map([[fact.id, await h.storage.getFact('tenant-a', fact.id)]]));
      expect(got.facts.get(fact.id)).toEqual(fact);
      const plain = await h.storage.hydrateDocs('tenant-a', ids);
      expect([plain.events.size, plain.facts.size]).toEqual([0, 1]);
      expect(await h.storage.hydrateDocs('tenant-a', [], { events: 5 })).toEqual({ docs: [], vectors: new Map(), events: new Map(), facts: new Map() });
    });

    it('rejects vectors of the wrong dimension or with no direction, writing nothing', async () => {
      await h.storage.appendEvents([makeEvent({ content: 'one' }), makeEvent({ content: 'two' })]);
      const [a, b] = await h.storage.pendingEmbeddings(2);
      await expectCode(
        h.storage.putEmbeddings([
          { contentHash: a!.contentHash, vector: unitVector() },
          { contentHash: b!.contentHash, vector: new Float32Array(TEST_DIM + 1) },
        ]),
        'VALIDATION',
      );
      await expectCode(h.storage.putEmbeddings([{ contentHash: a!.contentHash, vector: new Float32Array(TEST_DIM) }]), 'VALIDATION');
      expect(await h.storage.embeddingBacklog()).toBe(2);
      await expectCode(h.storage.vectorSearch({ tenant: 'tenant-a', vector: new Float32Array(3), k: 1, now: NOW }), 'VALIDATION');
    });
  });

  describe('vector search', () => {
    /** A mixed corpus: events and facts over two users, some expired, some sharing text, all embedded. */
    async function corpus(seed: number) {
      const r = seededRng(seed);
      const recs: Rec[] = [];
      for (let i = 0; i < 40; i++) {
        const shared = i % 10 === 9 ? 'repeated text' : undefined;
        recs.push({
          kind: 'event',
          e: makeEvent({ userId: i % 2 ? 'u1' : 'u2', ...(shared ? { content: shared } : {}), ...(i % 7 === 0 ? { expiresAt: NOW } : {}) }, r),
        });
      }
      for (let i = 0; i < 15; i++) recs.push({ kind: 'fact', f: makeFact({ userId: i % 2 ? 'u1' : 'u2' }, r) });
      await h.storage.appendEvents(recs.flatMap((x) => (x.kind === 'event' ? [x.e] : [])));
      for (const x of recs) if (x.kind === 'fact') await h.storage.putFact(x.f);
      const vectors = new Map<string, Float32Array>();
      for (const p of await h.storage.pendingEmbeddings(1000)) vectors.set(p.contentHash, unitVector(TEST_DIM, r));
      await h.storage.putEmbeddings([...vectors].map(([contentHash, vector]) => ({ contentHash, vector })));
      return { recs, vectors, r };
    }

    async function expectExact(recs: readonly Rec[], vectors: Map<string, Float32Array>, q: Omit<DocQuery, 'tenant' | 'now'> & { vector: Float32Array }) {
      const hits = await h.storage.vectorSearch({ tenant: 'tenant-a', now: NOW, ...q });
      const expected = bruteForce(recs, vectors, q);
      expect(hits.map((x) => x.score)).toHaveLength(expected.length);
      hits.forEach((hit, i) => expect(hit.score).toBeCloseTo(expected[i]!.score, 5));
      // Ids agree except where two scores tie within float error.
      const got = await refsOf(hits);
      got.forEach((ref, i) => {
        if (ref !== expected[i]!.refId) expect(Math.abs(expected[i]!.score - hits[i]!.score)).toBeLessThan(1e-5);
      });
    }

    it('matches a brute-force cosine scan, with scope, kinds, filter and expiry', async () => {
      const { recs, vectors, r } = await corpus(7);
      const filter: FilterNode = { op: 'or', children: [{ op: 'contains', field: { kind: 'column', name: 'tags' }, values: ['ops', 'prod'], mode: 'any' }, { op: 'cmp', field: { kind: 'column', name: 'importance' }, cmp: 'gte', value: 0.5 }] };
      const queries: (Omit<DocQuery, 'tenant' | 'now' | 'k'> & { k?: number })[] = [
        {},
        { scope: { userId: 'u1' } },
        { kinds: ['fact'] as DocKind[] },
        { kinds: ['event'] as DocKind[], scope: { userId: 'u2' } },
        { filter },
        { filter, scope: { userId: 'u1' }, k: 3 },
        { k: 100 },
        { scope: { userId: 'nobody' } },
      ];
      for (const q of queries) {
        for (let i = 0; i < 3; i++) await expectExact(recs, vectors, { k: 5, ...q, vector: unitVector(TEST_DIM, r) });
      }
    });

    it('stays in step with putEmbeddings, fact revisions and forget after the index is loaded', async () => {
      const { recs, vectors, r } = await corpus(11);
      const q = () => ({ k: 60, vector: unitVector(TEST_DIM, r) });
      await expectExact(recs, vectors, q());
      // New docs with fresh text become searchable once their vector is put.
      const fresh = makeEvent({ content: 'brand new words', userId: 'u1' }, r);
      await h.storage.appendEvents([fresh]);
      recs.push({ kind: 'event', e: fresh });
      await expectExact(recs, vectors, q());
      const v = unitVector(TEST_DIM, r);
      vectors.set(fresh.contentHash, v);
      await h.storage.putEmbeddings([{ contentHash: fresh.contentHash, vector: v }]);
      await expectExact(recs, vectors, q());
      // A superseded fact version leaves the results; its successor enters once embedded.
      const idx = recs.findIndex((x) => x.kind === 'fact');
      const old = (recs[idx] as { f: Fact }).f;
      const next = reviseFact(old, 'revised fact words');
      await h.storage.putFact(next);
      recs[idx] = { kind: 'fact', f: next };
      vectors.set(next.contentHash, unitVector(TEST_DIM, r));
      await h.storage.putEmbeddings([{ contentHash: next.contentHash, vector: vectors.get(next.contentHash)! }]);
      await expectExact(recs, vectors, q());
      // Forgotten records leave the results.
      const gone = recs.splice(0, 5).map((x) => (x.kind === 'event' ? x.e.id : x.f.id));
      await h.storage.forget({ tenant: 'tenant-a', ids: gone }, NOW);
      await expectExact(recs, vectors, q());
    });

    it('returns nothing before any vector exists and for k = 0', async () => {
      await h.storage.appendEvents([makeEvent()]);
      expect(await h.storage.vectorSearch({ tenant: 'tenant-a', vector: unitVector(), k: 5, now: NOW })).toEqual([]);
      const [p] = await h.storage.pendingEmbeddings(1);
      await h.storage.putEmbeddings([{ contentHash: p!.contentHash, vector: unitVector() }]);
      expect(await h.storage.vectorSearch({ tenant: 'tenant-a', vector: unitVector(), k: 0, now: NOW })).toEqual([]);
      expect(await h.storage.vectorSearch({ tenant: 'tenant-a', vector: unitVector(), k: 5, now: NOW })).toHaveLength(1);
    });
  });
}
