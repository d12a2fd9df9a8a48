/**
 * The real PostgreSQL server on loopback (no pgvector here: the bytea fallback with in-process vector
 * search), several connections per storage. Missing server: fails under CI, skips locally (see
 * testing/postgres-server.ts).
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { describeStorageConformance } from '../../../testing/storage-conformance.js';
import { makeEvents, NOW, TEST_DIM, TEST_MODEL, unitVector } from '../../../testing/storage-factories.js';
import { freshSchema } from '../../../../testing/postgres-pglite.js';
import { adminPool, requireServer, SERVER_URL } from '../../../../testing/postgres-server.js';
import { quoteLiteral } from './db.js';
import { openPostgresStorage, type PostgresStorage } from './index.js';
import { MIGRATIONS } from './migrations.js';

const { skip } = await requireServer('postgres server tests');
const admin = skip ? undefined : adminPool();
const dropSchema = async (schema: string) => void (await admin!.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
afterAll(async () => admin?.end());

/** Opens and initialises a storage on the server; warnings are collected instead of printed. */
async function openServer(schema: string, warnings: string[] = [], poolSize = 4): Promise<PostgresStorage> {
  const s = await openPostgresStorage({ url: SERVER_URL, schema, poolSize, logger: { warn: (m) => warnings.push(m) } });
  await s.init({ embeddingModel: TEST_MODEL, dimension: TEST_DIM });
  return s;
}

describe.skipIf(skip)('postgres server', () => {
  describeStorageConformance('postgres (pg on PostgreSQL 15, bytea vectors)', async () => {
    const schema = freshSchema('srv');
    const open = () => openPostgresStorage({ url: SERVER_URL, schema, poolSize: 4, logger: { warn: () => undefined } });
    return { storage: await open(), reopen: open, cleanup: () => dropSchema(schema) };
  });

  describe('postgres adapter on a server', () => {
    it('quotes a literal (the tenant lock sent with BEGIN) so the server reads back the same string, whatever standard_conforming_strings says', async () => {
      const c = await admin!.connect();
      try {
        for (const setting of ['on', 'off']) {
          await c.query(`SET standard_conforming_strings = ${setting}`);
          const strings = fc.sample(fc.string({ unit: 'binary', maxLength: 20 }).filter((x) => !x.includes('\0')), 200);
          for (const x of [...strings, "a'b", 'c\\d', "\\'; DROP TABLE x; --", '$1 engram.docs ?', "E'x'"]) {
            const r = await c.query(`SELECT ${quoteLiteral(x)}::text AS v`);
            expect((r.rows[0] as { v: string }).v).toBe(x);
          }
        }
      } finally {
        await c.query('RESET standard_conforming_strings');
        c.release();
      }
    });

    it('writes and reads tenants whose names hold quotes, backslashes and placeholders', async () => {
      const schema = freshSchema('odd');
      const s = await openServer(schema);
      try {
        for (const tenant of ["o'brien", 'back\\slash', '$1 engram.x ?']) {
          await s.appendEvents(makeEvents(2, { tenant }));
          const got = await s.queryEvents({ tenant, now: NOW });
          expect(got.map((e) => [e.tenant, e.seq])).toEqual([
            [tenant, 1],
            [tenant, 2],
          ]);
        }
      } finally {
        await s.close();
        await dropSchema(schema);
      }
    });

    it('says once that pgvector is missing, and searches vectors in process', async () => {
      const schema = freshSchema('warn');
      const warnings: string[] = [];
      const s = await openServer(schema, warnings);
      try {
        expect(warnings).toHaveLength(1);
        expect(warnings[0]).toMatch(/"vector" extension is not available/);
        expect(s.vectorSearchMode).toBe('in-process');
        const again = await openServer(schema, warnings);
        await again.close();
        expect(warnings).toHaveLength(1); // an existing bytea schema is not news
      } finally {
        await s.close();
        await dropSchema(schema);
      }
    });

    it('refuses to start without pgvector when pgvector is required', async () => {
      const schema = freshSchema('req');
      const s = await openPostgresStorage({ url: SERVER_URL, schema, vectors: 'pgvector' });
      await expect(s.init({ embeddingModel: TEST_MODEL, dimension: TEST_DIM })).rejects.toMatchObject({ code: 'CONFIG' });
      await s.close();
      await dropSchema(schema);
    });

    it('migrates once when several processes start on a new schema at the same time', async () => {
      const schema = freshSchema('race');
      const storages = await Promise.all(Array.from({ length: 6 }, () => openPostgresStorage({ url: SERVER_URL, schema, poolSize: 2, logger: { warn: () => undefined } })));
      try {
        await Promise.all(storages.map((s) => s.init({ embeddingModel: TEST_MODEL, dimension: TEST_DIM })));
        const ledger = await admin!.query(`SELECT version FROM "${schema}".schema_migrations ORDER BY version`);
        expect(ledger.rows.map((r: { version: number }) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
      } finally {
        await Promise.all(storages.map((s) => s.close()));
        await dropSchema(schema);
      }
    });

    it('loses nothing when several connections of several storages append to one tenant at once, and seq stays unique', async () => {
      const schema = freshSchema('conc');
      const writers = await Promise.all(Array.from({ length: 4 }, () => openServer(schema, [], 5)));
      try {
        const batches = writers.map(() => Array.from({ length: 30 }, (_, i) => makeEvents(1 + (i % 4), { tenant: 'tenant-c' })));
        const results = await Promise.all(writers.map((w, i) => Promise.all(batches[i]!.map((b) => w.appendEvents(b)))));
        const seqs = results.flat(2).map((r) => r.seq);
        const total = batches.flat(2).length;
        expect(new Set(seqs).size).toBe(total);
        const stored = await writers[0]!.queryEvents({ tenant: 'tenant-c', now: NOW });
        expect(stored).toHaveLength(total);
        expect(new Set(stored.map((e) => e.id))).toEqual(new Set(batches.flat(2).map((e) => e.id)));
        // seq is the append order: strictly increasing along the timeline, with no gaps.
        expect(stored.map((e) => e.seq)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
      } finally {
        await Promise.all(writers.map((w) => w.close()));
        await dropSchema(schema);
      }
    });

    it("sees another process's writes in vector search at once (the in-process index follows the tenant's epoch)", async () => {
      const schema = freshSchema('fresh');
      const [a, b] = [await openServer(schema), await openServer(schema)];
      try {
        const first = makeEvents(3, { tenant: 'tenant-v' });
        await a.appendEvents(first);
        const embed = async (s: PostgresStorage) => {
          const pending = await s.pendingEmbeddings(100);
          const rows = pending.map((p) => ({ contentHash: p.contentHash, vector: unitVector() }));
          await s.putEmbeddings(rows);
          return rows;
        };
        const [v] = await embed(a);
        const q = { tenant: 'tenant-v', k: 10, now: NOW, vector: v!.vector };
        expect(await b.vectorSearch(q)).toHaveLength(3); // b loads its index
        await a.appendEvents(makeEvents(2, { tenant: 'tenant-v' }));
        await embed(a);
        expect(await b.vectorSearch(q)).toHaveLength(5); // a's commits moved the epoch: b reloads
        const [gone] = await a.queryEvents({ tenant: 'tenant-v', now: NOW, lastN: 1 });
        await a.forget({ tenant: 'tenant-v', ids: [gone!.id] }, NOW);
        const hits = await b.vectorSearch(q);
        expect(hits).toHaveLength(4);
        expect((await b.getDocs('tenant-v', hits.map((h) => h.docId))).map((d) => d.refId)).not.toContain(gone!.id);
      } finally {
        await a.close();
        await b.close();
        await dropSchema(schema);
      }
    });

    it("sees another storage's appends, redactions and forgets in lexical search within a second (the change feed)", async () => {
      const schema = freshSchema('feed');
      const [a, b] = [await openServer(schema), await openServer(schema)];
      const within = async <T>(probe: () => Promise<T>, ok: (v: T) => boolean): Promise<T> => {
        const deadline = Date.now() + 1000;
        let v = await probe();
        while (!ok(v) && Date.now() < deadline) v = await probe();
        return v;
      };
      const search = (s: PostgresStorage, text: string) => s.lexicalSearch({ tenant: 'tenant-f', text, k: 10, now: NOW });
      try {
        await a.appendEvents(makeEvents(3, { tenant: 'tenant-f', content: 'ordinary words only' }));
        expect(await search(b, 'zebra')).toHaveLength(0); // b loads its index
        const [zebra] = await a.appendEvents([...makeEvents(1, { tenant: 'tenant-f', content: 'a zebra crossed the road' })]);
        const seen = await within(() => search(b, 'zebra'), (h) => h.length === 1);
        expect(seen).toHaveLength(1);
        expect((await b.getDocs('tenant-f', [seen[0]!.docId]))[0]!.refId).toBe(zebra!.id);
        // b writes, a reads: both directions, and removals as well as additions.
        await b.redactEvent('tenant-f', zebra!.id, 'test', NOW);
        expect(await within(() => search(a, 'zebra'), (h) => h.length === 0)).toHaveLength(0);
        const [okapi] = await b.appendEvents(makeEvents(1, { tenant: 'tenant-f', content: 'an okapi' }));
        expect(await within(() => search(a, 'okapi'), (h) => h.length === 1)).toHaveLength(1);
        await a.forget({ tenant: 'tenant-f', ids: [okapi!.id] }, NOW);
        expect(await within(() => search(b, 'okapi'), (h) => h.length === 0)).toHaveLength(0);
        // The feed holds one row per changed doc per commit.
        const feed = await admin!.query(`SELECT count(*)::int AS n FROM "${schema}".doc_changes WHERE tenant = 'tenant-f'`);
        expect(feed.rows[0].n).toBeGreaterThanOrEqual(4);
      } finally {
        await a.close();
        await b.close();
        await dropSchema(schema);
      }
    });
  });
});
