import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeEvent, TEST_DIM, TEST_MODEL } from '../../../testing/storage-factories.js';
import { openDatabase } from './connection.js';
import { migrate, schemaVersion, type Migration } from './migrate.js';
import { MIGRATIONS } from './migrations.js';
import { openSqliteStorage } from './storage.js';

/** A stand-in for the next migration a later issue will append. */
const addEpisodes: Migration = {
  version: MIGRATIONS.at(-1)!.version + 1,
  name: 'test: episodes',
  up(db) {
    db.exec('CREATE TABLE episodes_test (tenant TEXT NOT NULL, id TEXT NOT NULL, summary TEXT NOT NULL)');
    db.exec(`INSERT INTO episodes_test SELECT tenant, id, 'from ' || id FROM events`);
  },
};

describe('migrations', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-migrate-'));
    path = join(dir, 'engram.db');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('migrates a new file to the latest version and is idempotent on reopen', () => {
    const db = openDatabase(path, false);
    expect(migrate(db, MIGRATIONS)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(migrate(db, MIGRATIONS)).toEqual([]);
    db.close();
    const again = openDatabase(path, false);
    expect(migrate(again, MIGRATIONS)).toEqual([]);
    expect(schemaVersion(again)).toBe(MIGRATIONS.at(-1)!.version);
    expect(again.prepare('SELECT COUNT(*) FROM schema_migrations').pluck().get()).toBe(MIGRATIONS.length);
    again.close();
  });

  it('reads a time filter through the docs-by-time index, not a scan of the tenant', async () => {
    const storage = await openSqliteStorage({ path });
    await storage.init({ embeddingModel: TEST_MODEL, dimension: TEST_DIM });
    // The shape of the searches' allow-list query (doc-store.ts filteredDocIds) for a window of time.
    const plan = storage.db
      .prepare('EXPLAIN QUERY PLAN SELECT d.doc_id FROM docs d WHERE d.tenant = ? AND d.ts >= ? AND d.ts < ?')
      .all('tenant-a', 0, 1) as { detail: string }[];
    expect(plan.map((r) => r.detail).join(' ')).toMatch(/USING (COVERING )?INDEX docs_by_time \(tenant=\? AND ts>\? AND ts<\?\)/);
    await storage.close();
  });

  it('opens an older file and migrates it forward, keeping its data', async () => {
    const old = await openSqliteStorage({ path });
    await old.init({ embeddingModel: TEST_MODEL, dimension: TEST_DIM });
    const e = makeEvent();
    await old.appendEvents([e]);
    await old.close();

    const next = await openSqliteStorage({ path, migrations: [...MIGRATIONS, addEpisodes] });
    await next.init({ embeddingModel: TEST_MODEL, dimension: TEST_DIM });
    expect(schemaVersion(next.db)).toBe(addEpisodes.version);
    expect(next.db.prepare('SELECT summary FROM episodes_test').pluck().all()).toEqual([`from ${e.id}`]);
    expect((await next.getEvents('tenant-a', [e.id]))[0]!.content).toBe(e.content);
    await next.close();
  });

  it('refuses a file newer than the code', async () => {
    const db = openDatabase(path, false);
    migrate(db, [...MIGRATIONS, addEpisodes]);
    db.close();
    const s = await openSqliteStorage({ path });
    await expect(s.init({ embeddingModel: TEST_MODEL, dimension: TEST_DIM })).rejects.toMatchObject({ code: 'CONFIG' });
    await s.close();
  });

  it('rolls a failing migration back whole and records nothing', () => {
    const db = openDatabase(path, false);
    const broken: Migration = {
      version: addEpisodes.version,
      name: 'broken',
      up(d) {
        d.exec('CREATE TABLE half_done (x INTEGER)');
        d.exec('INSERT INTO no_such_table VALUES (1)');
      },
    };
    expect(() => migrate(db, [...MIGRATIONS, broken])).toThrow();
    expect(schemaVersion(db)).toBe(MIGRATIONS.at(-1)!.version);
    expect(db.prepare(`SELECT COUNT(*) FROM sqlite_master WHERE name = 'half_done'`).pluck().get()).toBe(0);
    db.close();
  });

  it('refuses a list whose versions do not increase', () => {
    const db = openDatabase(':memory:', false);
    expect(() => migrate(db, [...MIGRATIONS, { ...addEpisodes, version: 1 }])).toThrow(/versions must increase/);
    db.close();
  });
});
