/**
 * Saved search indexes on PostgreSQL (a node-local directory), on the real server: reopen from the file, catch
 * up from the change feed, rebuild on a missing, truncated, corrupt or pruned-past file; feed pruning and the
 * reload of a reader that fell behind it. Missing server: fails under CI, skips locally.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeEvents, NOW, seededRng, TEST_DIM, TEST_MODEL, unitVector } from '../../../testing/storage-factories.js';
import { freshSchema } from '../../../../testing/postgres-pglite.js';
import { adminPool, requireServer, SERVER_URL } from '../../../../testing/postgres-server.js';
import type { IndexEvent } from '../sql/index-file.js';
import { openPostgresStorage, type PostgresStorage } from './index.js';

const { skip } = await requireServer('postgres index file tests');
const admin = skip ? undefined : adminPool();
afterAll(async () => admin?.end());

const TENANT = 'tenant-p';

describe.skipIf(skip)('postgres: persisted search indexes (node-local directory)', () => {
  let dir: string;
  let schema: string;
  let events: IndexEvent[];
  const open = async (opts: { feedRetentionMs?: number; vectorIndex?: { annThreshold: number; indexing: 'inline' } } = {}): Promise<PostgresStorage> => {
    const s = await openPostgresStorage({ url: SERVER_URL, schema, poolSize: 3, indexDir: dir, onIndexEvent: (e) => events.push(e), logger: { warn: () => undefined }, ...opts });
    await s.init({ embeddingModel: TEST_MODEL, dimension: TEST_DIM });
    return s;
  };
  const file = () => {
    const sub = readdirSync(dir).find((d) => d.startsWith(`${schema}-`))!;
    return join(dir, sub, `t-${TENANT}.idx`);
  };
  const lexical = (s: PostgresStorage, text: string) => s.lexicalSearch({ tenant: TENANT, text, k: 10, now: NOW });
  const nearest = (s: PostgresStorage, v: Float32Array) => s.vectorSearch({ tenant: TENANT, vector: v, k: 5, now: NOW });
  const loads = () => events.filter((e): e is Extract<IndexEvent, { kind: 'loaded' }> => e.kind === 'loaded');
  const until = async (ok: () => boolean) => {
    for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 5));
  };
  const narwhal = () => ({ ...makeEvents(1, { tenant: TENANT, sessionId: 's9' }, seededRng(3))[0]!, content: 'a narwhal swimming' });

  async function seeded(): Promise<{ answer: Awaited<ReturnType<typeof lexical>>; query: Float32Array; near: Awaited<ReturnType<typeof nearest>> }> {
    const s = await open();
    await s.appendEvents(makeEvents(30, { tenant: TENANT, sessionId: 's1' }, seededRng(1)));
    await s.appendEvents([{ ...makeEvents(1, { tenant: TENANT, sessionId: 's1' }, seededRng(2))[0]!, content: 'the zebra crossing near the harbour' }]);
    const pending = await s.pendingEmbeddings(1000);
    const r = seededRng(7);
    const rows = pending.map((p) => ({ contentHash: p.contentHash, vector: unitVector(TEST_DIM, r) }));
    await s.putEmbeddings(rows);
    const query = rows[4]!.vector;
    const answer = await lexical(s, 'zebra harbour');
    const near = await nearest(s, query);
    expect(answer).toHaveLength(1);
    expect(near).toHaveLength(5);
    await s.close();
    events = [];
    return { answer, query, near };
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-pg-index-'));
    schema = freshSchema('idx');
    events = [];
  });
  afterEach(async () => {
    rmSync(dir, { recursive: true, force: true });
    await admin!.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  });

  it('reopens from the saved file with the same answers, and catches up with writes made since by another node', async () => {
    const { answer, query, near } = await seeded();
    const w = await openPostgresStorage({ url: SERVER_URL, schema, poolSize: 2 }); // a node without files
    await w.init({ embeddingModel: TEST_MODEL, dimension: TEST_DIM });
    await w.appendEvents([narwhal()]);
    await w.close();
    const s = await open();
    expect((await lexical(s, 'zebra harbour')).map((h) => h.docId)).toEqual(answer.map((h) => h.docId));
    expect(await nearest(s, query)).toEqual(near);
    expect(await lexical(s, 'narwhal')).toHaveLength(1);
    expect(loads()).toEqual([expect.objectContaining({ from: 'file', caughtUp: 1 })]);
    await s.close();
  });

  const faults: [string, () => void, string][] = [
    ['missing', () => rmSync(file()), 'missing'],
    ['truncated', () => truncateSync(file(), 100), 'truncated'],
    [
      'corrupt',
      () => {
        const b = readFileSync(file());
        b[b.byteLength - 7] = b[b.byteLength - 7]! ^ 0x10;
        writeFileSync(file(), b);
      },
      'corrupt',
    ],
  ];
  for (const [name, damage, fault] of faults) {
    it(`a ${name} file is detected, search answers from the rows, and the file is written again in the background`, async () => {
      const { answer, query, near } = await seeded();
      damage();
      const s = await open();
      expect(await lexical(s, 'zebra harbour')).toEqual(answer);
      expect(await nearest(s, query)).toEqual(near);
      expect(loads()[0]).toMatchObject({ from: 'rows', fault });
      await until(() => events.some((e) => e.kind === 'saved'));
      expect(events.some((e) => e.kind === 'saved')).toBe(true);
      await s.close();
      events = [];
      const again = await open();
      expect(await lexical(again, 'zebra harbour')).toEqual(answer);
      expect(loads()[0]).toMatchObject({ from: 'file' });
      await again.close();
    });
  }

  it('pruning the feed: a file older than the pruned rows is rebuilt, and a node whose index fell behind reloads', async () => {
    const { answer } = await seeded();
    const older = readFileSync(file());
    const reader = await open(); // loads from the file, then falls behind
    expect(await lexical(reader, 'zebra harbour')).toEqual(answer);
    const w = await open();
    await w.appendEvents([narwhal()]);
    expect(await lexical(w, 'narwhal')).toHaveLength(1);
    const before = await admin!.query(`SELECT count(*)::int AS n FROM "${schema}".doc_changes`);
    expect(before.rows[0].n).toBeGreaterThan(0);
    expect(await w.pruneChangeFeed(-1000)).toBe(before.rows[0].n); // everything is older than a second from now
    expect((await admin!.query(`SELECT count(*)::int AS n FROM "${schema}".doc_changes`)).rows[0].n).toBe(0);
    await w.appendEvents([{ ...narwhal(), sessionId: 's8', content: 'an okapi' }]);
    // The reader is below the floor: it cannot catch up from the feed, so it loads the tenant again.
    expect(await lexical(reader, 'narwhal')).toHaveLength(1);
    expect(await lexical(reader, 'okapi')).toHaveLength(1);
    await w.close();
    await reader.close();
    writeFileSync(file(), older);
    events = [];
    const s = await open();
    expect(await lexical(s, 'narwhal')).toHaveLength(1);
    expect(loads()[0]).toMatchObject({ from: 'rows', fault: 'stale' });
    await s.close();
  });

  it('a large vector index (f32 rows in a side file, used in place): a corrupt row file fails the background check, and the index is rebuilt from the rows with the same answers', async () => {
    const big = { vectorIndex: { annThreshold: 30, indexing: 'inline' as const } };
    const s = await open(big);
    await s.appendEvents(makeEvents(60, { tenant: TENANT, sessionId: 's1' }, seededRng(1)));
    const r = seededRng(7);
    const rows = (await s.pendingEmbeddings(1000)).map((p) => ({ contentHash: p.contentHash, vector: unitVector(TEST_DIM, r) }));
    await s.putEmbeddings(rows);
    const query = rows[7]!.vector;
    const near = await nearest(s, query);
    await until(() => events.some((e) => e.kind === 'saved'));
    await s.close();
    const sub = join(dir, readdirSync(dir).find((d) => d.startsWith(`${schema}-`))!);
    const f32 = readdirSync(sub).filter((f) => f.startsWith(`t-${TENANT}`) && f.endsWith('.f32'));
    expect(f32).toHaveLength(1);
    const b = readFileSync(join(sub, f32[0]!));
    b[b.byteLength >> 1] = b[b.byteLength >> 1]! ^ 0x40;
    writeFileSync(join(sub, f32[0]!), b);
    events = [];
    const again = await open(big);
    expect((await nearest(again, query)).map((h) => h.docId)).toContain(near[0]!.docId);
    await until(() => events.some((e) => e.kind === 'check-failed'));
    expect(events.find((e) => e.kind === 'check-failed')).toMatchObject({ index: 'tenant', fault: 'corrupt' });
    expect(await nearest(again, query)).toEqual(near);
    expect(loads().map((e) => e.from)).toEqual(['file', 'rows']);
    await again.close();
  });

  it('files of another schema instance are not used (the schema was dropped and made again)', async () => {
    await seeded();
    const name = file();
    const saved = readFileSync(name);
    await admin!.query(`DROP SCHEMA "${schema}" CASCADE`);
    const s = await open();
    await s.appendEvents([narwhal()]);
    // Put the old file where the new instance would look for its own.
    const instance = (await admin!.query(`SELECT value FROM "${schema}".meta WHERE key = 'instance_id'`)).rows[0].value as string;
    expect(name).not.toContain(instance);
    mkdirSync(join(dir, `${schema}-${instance}`), { recursive: true });
    writeFileSync(join(dir, `${schema}-${instance}`, `t-${TENANT}.idx`), saved);
    expect(await lexical(s, 'zebra')).toEqual([]);
    expect(loads().at(-1)).toMatchObject({ from: 'rows', fault: 'mismatch' });
    await s.close();
  });
});
