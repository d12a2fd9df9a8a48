import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeEvents, NOW, seededRng, TEST_DIM, TEST_MODEL, unitVector } from '../../../testing/storage-factories.js';
import { openSqliteStorage, type SqliteStorage } from './index.js';
import type { IndexEvent } from './per-tenant.js';

const TENANT = 'tenant-a';

describe('sqlite: persisted search indexes', () => {
  let dir: string;
  let path: string;
  let events: IndexEvent[];
  const lexFile = () => join(`${path}.indexes`, `t-${TENANT}.lexical.idx`);
  const vecFile = () => join(`${path}.indexes`, `t-${TENANT}.vectors.idx`);
  const vectors = new Map<string, Float32Array>();

  const open = async (): Promise<SqliteStorage> => {
    const s = await openSqliteStorage({ path, onIndexEvent: (e) => events.push(e) });
    await s.init({ embeddingModel: TEST_MODEL, dimension: TEST_DIM });
    return s;
  };
  const embedAll = async (s: SqliteStorage, r = seededRng(7)) => {
    const pending = await s.pendingEmbeddings(100_000);
    const rows = pending.map((p) => ({ contentHash: p.contentHash, vector: unitVector(TEST_DIM, r) }));
    for (const row of rows) vectors.set(row.contentHash, row.vector);
    await s.putEmbeddings(rows);
  };
  const lexical = (s: SqliteStorage, text: string) => s.lexicalSearch({ tenant: TENANT, text, k: 10, now: NOW });
  const nearest = (s: SqliteStorage, v: Float32Array) => s.vectorSearch({ tenant: TENANT, vector: v, k: 5, now: NOW });
  const loads = () => events.filter((e): e is Extract<IndexEvent, { kind: 'loaded' }> => e.kind === 'loaded');
  const turn = () => new Promise((ok) => setImmediate(ok));

  /** A file with 40 events and their vectors, whose indexes were loaded and saved on close. */
  async function seeded(): Promise<{ answer: Awaited<ReturnType<typeof lexical>>; query: Float32Array; near: Awaited<ReturnType<typeof nearest>> }> {
    const s = await open();
    await s.appendEvents(makeEvents(40, { tenant: TENANT, sessionId: 's1' }, seededRng(1)));
    await s.appendEvents([{ ...makeEvents(1, { tenant: TENANT, sessionId: 's1' }, seededRng(2))[0]!, content: 'the zebra crossing near the harbour' }]);
    await embedAll(s);
    const query = [...vectors.values()][3]!;
    const answer = await lexical(s, 'zebra harbour');
    const near = await nearest(s, query);
    expect(answer).toHaveLength(1);
    expect(near).toHaveLength(5);
    await s.close();
    expect(existsSync(lexFile())).toBe(true);
    expect(existsSync(vecFile())).toBe(true);
    events = [];
    return { answer, query, near };
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-index-files-'));
    path = join(dir, 'engram.db');
    events = [];
    vectors.clear();
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reopens from the saved files (no rebuild) with the same answers', async () => {
    const { answer, query, near } = await seeded();
    const s = await open();
    expect(await lexical(s, 'zebra harbour')).toEqual(answer);
    expect(await nearest(s, query)).toEqual(near);
    expect(loads().map((e) => [e.index, e.from])).toEqual([
      ['lexical', 'file'],
      ['vectors', 'file'],
    ]);
    await s.close();
  });

  it('catches up from a file saved before later writes of another storage', async () => {
    const { query } = await seeded();
    const older = { lex: readFileSync(lexFile()), vec: readFileSync(vecFile()) };
    const w = await open();
    await w.appendEvents([{ ...makeEvents(1, { tenant: TENANT, sessionId: 's9' }, seededRng(3))[0]!, content: 'a narwhal in the harbour' }]);
    await embedAll(w, seededRng(9));
    const zebra = (await lexical(w, 'zebra'))[0]!;
    await w.redactEvent(TENANT, (await w.getDocs(TENANT, [zebra.docId]))[0]!.refId, 'test', NOW);
    const narwhalVector = [...vectors.values()].at(-1)!;
    await w.close();
    writeFileSync(lexFile(), older.lex);
    writeFileSync(vecFile(), older.vec);
    events = [];
    const s = await open();
    expect(await lexical(s, 'narwhal')).toHaveLength(1);
    expect(await lexical(s, 'zebra')).toEqual([]);
    expect((await nearest(s, narwhalVector))[0]!.score).toBeGreaterThan(0.999);
    expect((await nearest(s, query))[0]!.score).toBeGreaterThan(0.999);
    const [lex, vec] = loads();
    expect(lex).toMatchObject({ index: 'lexical', from: 'file' });
    expect(lex!.kind === 'loaded' && lex!.from === 'file' && lex!.caughtUp).toBeGreaterThanOrEqual(2); // the new doc and the removed one
    expect(vec).toMatchObject({ index: 'vectors', from: 'file' });
    await s.close();
  });

  const faults: [string, () => void, string][] = [
    ['missing', () => rmSync(lexFile()), 'missing'],
    ['truncated', () => truncateSync(lexFile(), Math.floor(readFileSync(lexFile()).byteLength / 2)), 'truncated'],
    [
      'corrupt',
      () => {
        const b = readFileSync(lexFile());
        b[b.byteLength - 3] = b[b.byteLength - 3]! ^ 0xff;
        writeFileSync(lexFile(), b);
      },
      'corrupt',
    ],
    [
      'of another format version',
      () => writeFileSync(lexFile(), readFileSync(lexFile()).toString('latin1').replace('"version":2', '"version":1'), 'latin1'),
      'version',
    ],
    // Postings saved as per-doc term counts (layout 1, before the key existed) or of any other layout.
    ['of an older lexicon layout', () => writeFileSync(lexFile(), readFileSync(lexFile()).toString('latin1').replace('"lexLayout":2', '"lexLayou":22'), 'latin1'), 'version'],
    ['of another lexicon layout', () => writeFileSync(lexFile(), readFileSync(lexFile()).toString('latin1').replace('"lexLayout":2', '"lexLayout":3'), 'latin1'), 'version'],
  ];
  for (const [name, damage, fault] of faults) {
    it(`a ${name} file is detected, search answers from the rows, and the file is written again in the background`, async () => {
      const { answer } = await seeded();
      damage();
      const s = await open();
      expect(await lexical(s, 'zebra harbour')).toEqual(answer);
      expect(loads()[0]).toMatchObject({ index: 'lexical', from: 'rows', fault });
      expect(await nearest(s, [...vectors.values()][3]!)).toHaveLength(5);
      expect(loads()[1]).toMatchObject({ index: 'vectors', from: 'file' });
      await turn();
      expect(events.some((e) => e.kind === 'saved' && e.index === 'lexical')).toBe(true);
      await s.close();
      events = [];
      const again = await open();
      expect(await lexical(again, 'zebra harbour')).toEqual(answer);
      expect(loads()[0]).toMatchObject({ index: 'lexical', from: 'file' });
      await again.close();
    });
  }

  it('a file older than what the feed still holds is rebuilt (the feed was pruned past it)', async () => {
    const { answer } = await seeded();
    const older = readFileSync(lexFile());
    const w = await open();
    await w.appendEvents(makeEvents(3, { tenant: TENANT, sessionId: 's2' }, seededRng(5)));
    await lexical(w, 'zebra');
    await w.close();
    const raw = await openSqliteStorage({ path, indexDir: false });
    raw.db.exec('DELETE FROM doc_changes');
    await raw.close();
    writeFileSync(lexFile(), older);
    events = [];
    const s = await open();
    expect((await lexical(s, 'zebra harbour')).map((h) => h.docId)).toEqual(answer.map((h) => h.docId));
    expect(loads()[0]).toMatchObject({ index: 'lexical', from: 'rows', fault: 'stale' });
    await s.close();
  });

  it('a damaged vector file is rebuilt from the rows with the same nearest docs', async () => {
    const { query, near } = await seeded();
    const b = readFileSync(vecFile());
    b[b.byteLength - 1] = b[b.byteLength - 1]! ^ 0x55;
    writeFileSync(vecFile(), b);
    const s = await open();
    expect(await nearest(s, query)).toEqual(near);
    expect(loads().find((e) => e.index === 'vectors')).toMatchObject({ from: 'rows', fault: 'corrupt' });
    await s.close();
  });

  it('another process keeps writing while this one serves: searches follow the feed without reloading', async () => {
    await seeded();
    const a = await open();
    const b = await open();
    expect(await lexical(a, 'narwhal')).toEqual([]);
    await b.appendEvents([{ ...makeEvents(1, { tenant: TENANT, sessionId: 's1' }, seededRng(3))[0]!, content: 'a narwhal in the harbour' }]);
    expect(await lexical(a, 'narwhal')).toHaveLength(1);
    expect(loads().filter((e) => e.index === 'lexical' && e.from === 'rows')).toEqual([]);
    await a.close();
    await b.close();
  });
  it('pruning the feed: a process whose index fell behind the pruned rows reloads, and its searches stay right', async () => {
    await seeded();
    const a = await open();
    const b = await open();
    expect(await lexical(a, 'narwhal')).toEqual([]);
    await b.appendEvents([{ ...makeEvents(1, { tenant: TENANT, sessionId: 's9' }, seededRng(3))[0]!, content: 'a narwhal swimming' }]);
    const rows = (b.db.prepare('SELECT count(*) FROM doc_changes').pluck().get() as number);
    expect(b.pruneChangeFeed(-1000)).toBe(rows); // everything is older than a second from now
    await b.appendEvents([{ ...makeEvents(1, { tenant: TENANT, sessionId: 's8' }, seededRng(4))[0]!, content: 'an okapi' }]);
    events = [];
    expect(await lexical(a, 'narwhal')).toHaveLength(1);
    expect(await lexical(a, 'okapi')).toHaveLength(1);
    expect(loads()[0]).toMatchObject({ index: 'lexical', from: 'rows', fault: 'stale' });
    await a.close();
    await b.close();
  });

  describe('a large vector index (f32 rows and graph in side files, used in place)', () => {
    const big = { annThreshold: 30, indexing: 'inline' } as const;
    const openBig = async (): Promise<SqliteStorage> => {
      const s = await openSqliteStorage({ path, vectorIndex: big, onIndexEvent: (e) => events.push(e) });
      await s.init({ embeddingModel: TEST_MODEL, dimension: TEST_DIM });
      return s;
    };
    const side = (ext: string) => readdirSync(`${path}.indexes`).filter((f) => f.startsWith(`t-${TENANT}.vectors.idx.`) && f.endsWith(ext));
    const until = async (kind: IndexEvent['kind']) => {
      while (!events.some((e) => e.kind === kind && e.index === 'vectors')) await turn();
    };

    async function seededBig(): Promise<{ query: Float32Array; near: Awaited<ReturnType<typeof nearest>> }> {
      const s = await openBig();
      await s.appendEvents(makeEvents(60, { tenant: TENANT, sessionId: 's1' }, seededRng(1)));
      await embedAll(s);
      const query = [...vectors.values()][7]!;
      const near = await nearest(s, query);
      await s.close();
      expect(side('.f32')).toHaveLength(1);
      expect(side('.hnsw')).toHaveLength(1);
      events = [];
      return { query, near };
    }

    it('reopens in place: exact answers from the i8 rows at once, the same answers once the side files are checked', async () => {
      const { query, near } = await seededBig();
      const f32 = join(`${path}.indexes`, side('.f32')[0]!);
      const before = readFileSync(f32);
      const s = await openBig();
      const first = await nearest(s, query);
      expect(first.map((h) => h.docId)).toContain(near[0]!.docId);
      await until('checked');
      expect(await nearest(s, query)).toEqual(near);
      expect(loads().find((e) => e.index === 'vectors')).toMatchObject({ from: 'file' });
      // A new doc with a vector: searchable, and the saved row file is left as it was.
      await s.appendEvents([{ ...makeEvents(1, { tenant: TENANT, sessionId: 's2' }, seededRng(4))[0]!, content: 'a fresh one' }]);
      await embedAll(s, seededRng(12));
      const fresh = [...vectors.values()].at(-1)!;
      expect((await nearest(s, fresh))[0]!.score).toBeGreaterThan(0.999);
      expect(readFileSync(f32).equals(before)).toBe(true);
      await s.close();
    });

    it('a corrupt row file fails the background check: the index is rebuilt from the rows with the same answers', async () => {
      const { query, near } = await seededBig();
      const f32 = join(`${path}.indexes`, side('.f32')[0]!);
      const b = readFileSync(f32);
      b[b.byteLength >> 1] = b[b.byteLength >> 1]! ^ 0x40;
      writeFileSync(f32, b);
      const s = await openBig();
      expect((await nearest(s, query)).map((h) => h.docId)).toContain(near[0]!.docId);
      await until('check-failed');
      expect(events.find((e) => e.kind === 'check-failed')).toMatchObject({ index: 'vectors', fault: 'corrupt' });
      expect(await nearest(s, query)).toEqual(near);
      expect(loads().filter((e) => e.index === 'vectors').map((e) => e.from)).toEqual(['file', 'rows']);
      await s.close();
    });

    for (const [name, damage, fault] of [
      ['missing', (f: string) => rmSync(f), 'missing'],
      ['truncated', (f: string) => truncateSync(f, 64), 'truncated'],
    ] as const) {
      it(`a ${name} row file is detected on open and the index is built from the rows`, async () => {
        const { query, near } = await seededBig();
        damage(join(`${path}.indexes`, side('.f32')[0]!));
        const s = await openBig();
        expect(await nearest(s, query)).toEqual(near);
        expect(loads().find((e) => e.index === 'vectors')).toMatchObject({ from: 'rows', fault });
        await s.close();
      });
    }
  });
});
