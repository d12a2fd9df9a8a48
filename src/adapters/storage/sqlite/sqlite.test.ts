import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isEngramError } from '../../../core/errors.js';
import { bytesUnder, filesUnder } from '../../../../testing/files.js';
import { describeStorageConformance } from '../../../testing/storage-conformance.js';
import { makeEvent, makeEvents, makeFact, NOW, seededRng, TEST_DIM, TEST_MODEL, unitVector } from '../../../testing/storage-factories.js';
import { openSqliteStorage, type SqliteStorage } from './index.js';
import { nodeArgs } from '../../../../testing/node-entry.js';

describeStorageConformance('sqlite (file)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'engram-sqlite-'));
  const path = join(dir, 'engram.db');
  return {
    storage: await openSqliteStorage({ path }),
    reopen: () => openSqliteStorage({ path }),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
});

describeStorageConformance('sqlite (:memory:)', async () => ({
  storage: await openSqliteStorage({ path: ':memory:' }),
  cleanup: async () => undefined,
}));

const CHILD = resolve(import.meta.dirname, '../../../../testing/storage-sqlite-child.ts');

/** Runs the child script; `onLine` sees each stdout line. Resolves with the exit code (or signal). */
function runChild(args: string[], onLine: (line: string, kill: () => void) => void = () => undefined): Promise<string> {
  const child = spawn(process.execPath, [...nodeArgs(CHILD), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  createInterface({ input: child.stdout }).on('line', (line) => onLine(line, () => child.kill('SIGKILL')));
  return new Promise((ok, fail) => {
    child.on('error', fail);
    child.on('exit', (code, signal) => (code === 0 || signal === 'SIGKILL' ? ok(signal ?? String(code)) : fail(new Error(`child exited ${code}: ${stderr}`))));
  });
}

async function embedAll(s: SqliteStorage): Promise<void> {
  const pending = await s.pendingEmbeddings(100_000);
  await s.putEmbeddings(pending.map((p) => ({ contentHash: p.contentHash, vector: unitVector() })));
}

describe('sqlite adapter specifics', () => {
  let dir: string;
  let path: string;
  const open = async (opts: { readonly?: boolean } = {}) => {
    const s = await openSqliteStorage({ path, ...opts });
    await s.init({ embeddingModel: TEST_MODEL, dimension: TEST_DIM });
    return s;
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-sqlite-'));
    path = join(dir, 'engram.db');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs with WAL, synchronous=FULL, secure_delete and foreign keys, and keeps no FTS5 index', async () => {
    const s = await open();
    const p = (name: string) => s.db.pragma(name, { simple: true });
    expect(p('journal_mode')).toBe('wal');
    expect(p('synchronous')).toBe(2);
    expect(p('secure_delete')).toBe(1);
    expect(p('foreign_keys')).toBe(1);
    expect(p('busy_timeout')).toBeGreaterThan(0);
    expect(s.db.prepare(`SELECT COUNT(*) FROM sqlite_master WHERE name LIKE 'docs_fts%'`).pluck().get()).toBe(0);
    await s.close();
  });

  it('enforces immutability in the database itself (triggers)', async () => {
    const s = await open();
    const e = makeEvent();
    await s.appendEvents([e]);
    const f = makeFact();
    await s.putFact(f);
    await s.redactEvent('tenant-a', (await s.appendEvents([makeEvent()]))[0]!.id, 'r', NOW);
    const attempts = [
      `UPDATE events SET ts = 0`,
      `UPDATE event_contents SET content = 'rewritten'`,
      `UPDATE facts SET text = 'rewritten'`,
      `UPDATE docs SET text = 'rewritten'`,
      `UPDATE audit_log SET action = 'import'`,
    ];
    for (const sql of attempts) expect(() => s.db.prepare(sql).run(), sql).toThrow(/append-only|never/);
    expect((await s.getEvents('tenant-a', [e.id]))[0]!.content).toBe(e.content);
    expect((await s.getFact('tenant-a', f.id))!.text).toBe(f.text);
    await s.close();
  });

  it('keeps the in-memory lexical index equal to one rebuilt from the file through every kind of change', async () => {
    const s = await open();
    const events = makeEvents(50);
    await s.appendEvents(events);
    const words = [...new Set(events.flatMap((e) => e.content.split(/\W+/)).filter((w) => w.length > 2))];
    const query = (st: SqliteStorage, text: string) => st.lexicalSearch({ tenant: 'tenant-a', text, k: 100, now: NOW });
    await query(s, words[0]!); // loads the tenant's index, so every change below goes through the write hooks
    const f1 = makeFact();
    await s.putFact(f1);
    await s.putFact({ ...makeFact({ key: f1.key, text: 'revised statement' }), version: 2, supersedes: f1.id });
    await s.redactEvent('tenant-a', events[0]!.id, 'r', NOW);
    await s.forget({ tenant: 'tenant-a', ids: [events[1]!.id, events[2]!.id] }, NOW);
    await s.appendEvents([makeEvent({ expiresAt: NOW - 1 })]);
    await s.sweepExpired(NOW);
    expect(s.db.prepare('SELECT COUNT(*) FROM docs').pluck().get()).toBe(50 - 3 + 1);
    const fresh = await open({ readonly: true });
    for (const w of [...words, 'revised statement']) expect(await query(s, w), w).toEqual(await query(fresh, w));
    await fresh.close();
    await s.close();
  });

  it('keeps an acknowledged write after the writing process is killed', async () => {
    const marker = `durable-${Date.now()}`;
    let acked: string | undefined;
    const outcome = await runChild(['append-and-hang', path, 'tenant-a', marker], (line, kill) => {
      acked = line.split(' ')[1];
      kill();
    });
    expect(outcome).toBe('SIGKILL');
    expect(existsSync(`${path}-wal`)).toBe(true); // the commit lives in the WAL: recovery must replay it
    const s = await open();
    const [ev] = await s.getEvents('tenant-a', [acked!]);
    expect(ev!.content).toBe(marker);
    expect(await s.embeddingBacklog()).toBe(1);
    await s.close();
  });

  it('lets several processes append to one file at once without losing events or repeating a seq', async () => {
    const s = await open(); // a third connection, idle, holding the file open
    await Promise.all([runChild(['append-many', path, 'tenant-a', '150']), runChild(['append-many', path, 'tenant-a', '150'])]);
    const all = await s.queryEvents({ tenant: 'tenant-a', now: NOW });
    expect(all).toHaveLength(300);
    expect(new Set(all.map((e) => e.seq)).size).toBe(300);
    await s.close();
  });

  it('reloads its vector index when another connection committed', async () => {
    const a = await open();
    const b = await open();
    await a.appendEvents([makeEvent({ content: 'first' })]);
    await embedAll(a);
    const q = { tenant: 'tenant-a', vector: unitVector(), k: 10, now: NOW };
    expect(await a.vectorSearch(q)).toHaveLength(1);
    await b.appendEvents([makeEvent({ content: 'second' }), makeEvent({ content: 'third' })]);
    await embedAll(b);
    expect(await a.vectorSearch(q)).toHaveLength(3);
    await b.forget({ tenant: 'tenant-a', scope: {} }, NOW);
    expect(await a.vectorSearch(q)).toEqual([]);
    await a.close();
    await b.close();
  });

  it('sees texts another connection logged after this one had caught up with its backlog', async () => {
    const a = await open();
    const b = await open();
    await a.appendEvents([makeEvent({ content: 'from a' })]);
    await embedAll(a);
    expect(await a.embeddingBacklog()).toBe(0);
    await b.appendEvents([makeEvent({ content: 'from b' })]);
    expect((await a.pendingEmbeddings(10)).map((p) => p.text)).toEqual(['from b']);
    expect(await a.embeddingBacklog()).toBe(1);
    await a.close();
    await b.close();
  });

  it('leaves no trace of forgotten content in the database or WAL bytes', async () => {
    const marker = 'qzxvmarkerword';
    const s = await open();
    // Many distinct words, so the FTS index spans many leaf pages and some forgotten words start a page
    // (those leave keys in the segment index unless it is rebuilt).
    const r = seededRng(5);
    const word = () => Math.floor(r() * 2 ** 40).toString(36);
    for (let i = 0; i < 10; i++) await s.appendEvents(makeEvents(1000).map((e) => ({ ...e, content: `${word()} ${word()} ${word()}` })));
    const secret = [
      makeEvent({ content: `my secret is ${marker} alpha` }),
      makeEvent({ content: `${marker} again`, userId: 'u9' }),
      ...Array.from({ length: 200 }, () => makeEvent({ content: `${marker}${word()} ${word()}`, userId: 'u9' })),
    ];
    await s.appendEvents(secret);
    const fact = makeFact({ text: `fact with ${marker} inside` });
    await s.putFact(fact);
    await s.putRetrieval({ id: 'ret_01ARZ3NDEKTSV4RRFFQ69G5FA1', tenant: 'tenant-a', query: `what is ${marker}`, createdAt: NOW, itemIds: [secret[0]!.id], config: {} });
    await embedAll(s);
    const fileBytes = () => Buffer.concat([readFileSync(path), ...(existsSync(`${path}-wal`) ? [readFileSync(`${path}-wal`)] : [])]);
    s.checkpoint();
    expect(fileBytes().includes(marker)).toBe(true); // control: the marker is on disk before forgetting
    await s.forget({ tenant: 'tenant-a', ids: [secret[0]!.id, fact.id] }, NOW);
    await s.forget({ tenant: 'tenant-a', scope: { userId: 'u9' } }, NOW);
    s.checkpoint();
    expect(fileBytes().includes(marker)).toBe(false);
    expect(fileBytes().includes('qzxvmark')).toBe(false); // nor its stem in the FTS index
    expect(await s.lexicalSearch({ tenant: 'tenant-a', text: marker, k: 5, now: NOW })).toEqual([]);
    await s.close();
  });

  it('leaves no trace of forgotten content in the saved index files', async () => {
    const marker = 'qzxvsavedword';
    const first = await open();
    await first.appendEvents([...makeEvents(50), makeEvent({ content: `keep ${marker} private`, userId: 'u9' })]);
    await embedAll(first);
    expect(await first.lexicalSearch({ tenant: 'tenant-a', text: marker, k: 5, now: NOW })).toHaveLength(1);
    await first.close(); // saves the tenant's indexes beside the file
    const indexBytes = () => bytesUnder(`${path}.indexes`);
    expect(indexBytes().includes(marker)).toBe(true); // control: the saved postings hold the word
    const second = await open();
    expect(await second.lexicalSearch({ tenant: 'tenant-a', text: marker, k: 5, now: NOW })).toHaveLength(1); // loaded from the file
    await second.forget({ tenant: 'tenant-a', scope: { userId: 'u9' } }, NOW);
    expect(indexBytes().includes(marker)).toBe(false);
    await second.close(); // saves the loaded, changed structure again
    expect(filesUnder(`${path}.indexes`).length).toBeGreaterThan(0);
    expect(indexBytes().includes(marker)).toBe(false);
    expect(indexBytes().includes('u9')).toBe(false);
  });

  it('leaves no trace of redacted content in the file bytes', async () => {
    const s = await open();
    await s.appendEvents(makeEvents(200));
    const [res] = await s.appendEvents([makeEvent({ content: 'redactme wordzzq' })]);
    await embedAll(s);
    await s.redactEvent('tenant-a', res!.id, 'gdpr', NOW);
    s.checkpoint();
    const bytes = Buffer.concat([readFileSync(path), ...(existsSync(`${path}-wal`) ? [readFileSync(`${path}-wal`)] : [])]);
    expect(bytes.includes('wordzzq')).toBe(false);
    await s.close();
  });

  it('opens read-only: reads work, writes are FORBIDDEN, an unmigrated file is refused', async () => {
    const w = await open();
    const e = makeEvent();
    await w.appendEvents([e]);
    const r = await open({ readonly: true });
    expect((await r.getEvents('tenant-a', [e.id]))[0]!.id).toBe(e.id);
    const err = await r.appendEvents([makeEvent()]).catch((x: unknown) => x);
    expect(isEngramError(err, 'FORBIDDEN')).toBe(true);
    await r.close();
    await w.close();
    const blank = join(dir, 'blank.db');
    (await openSqliteStorage({ path: blank })).db.close();
    const ro = await openSqliteStorage({ path: blank, readonly: true });
    await expect(ro.init({ embeddingModel: TEST_MODEL, dimension: TEST_DIM })).rejects.toMatchObject({ code: 'CONFIG' });
    await ro.close();
  });

  it('refuses to init with a dimension that disagrees with stored vectors of the model', async () => {
    const s = await open();
    await s.appendEvents([makeEvent()]);
    await embedAll(s);
    await s.close();
    const again = await openSqliteStorage({ path });
    await expect(again.init({ embeddingModel: TEST_MODEL, dimension: TEST_DIM * 2 })).rejects.toMatchObject({ code: 'CONFIG' });
    await again.init({ embeddingModel: 'another-model', dimension: TEST_DIM * 2 });
    expect(await again.embeddingBacklog()).toBe(1); // nothing embedded for the new model yet
    await again.close();
  });

  it('fails clearly before init and after close', async () => {
    const s = await openSqliteStorage({ path });
    await expect(s.getEvents('t', ['x'])).rejects.toMatchObject({ code: 'ADAPTER' });
    await s.init({ embeddingModel: TEST_MODEL, dimension: TEST_DIM });
    await s.close();
    await expect(s.getEvents('t', ['x'])).rejects.toMatchObject({ code: 'UNAVAILABLE' });
  });
});

