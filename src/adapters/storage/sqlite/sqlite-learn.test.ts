import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeEpisode, makeExample, makeLink, makeProcedure } from '../../../testing/storage-factories-learn.js';
import { makeEvent, makeFact, NOW, TEST_DIM, TEST_MODEL, unitVector } from '../../../testing/storage-factories.js';
import { migrate, schemaVersion } from './migrate.js';
import { MIGRATIONS } from './migrations.js';
import { openSqliteStorage, type SqliteStorage } from './storage.js';

/** SQLite-specific checks of the learn tables (migration 002); their semantics are in the conformance suite. */
describe('sqlite learn tables', () => {
  let dir: string;
  let path: string;
  const open = async () => {
    const s = await openSqliteStorage({ path });
    await s.init({ embeddingModel: TEST_MODEL, dimension: TEST_DIM });
    return s;
  };
  const fileBytes = () => Buffer.concat([readFileSync(path), ...(existsSync(`${path}-wal`) ? [readFileSync(`${path}-wal`)] : [])]);
  const embedAll = async (s: SqliteStorage) => {
    const pending = await s.pendingEmbeddings(100_000);
    await s.putEmbeddings(pending.map((p) => ({ contentHash: p.contentHash, vector: unitVector() })));
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-sqlite-learn-'));
    path = join(dir, 'engram.db');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('migrates a version-1 file forward, keeping its data', async () => {
    const v1 = await openSqliteStorage({ path, migrations: MIGRATIONS.slice(0, 1) });
    await v1.init({ embeddingModel: TEST_MODEL, dimension: TEST_DIM });
    const e = makeEvent();
    await v1.appendEvents([e]);
    await v1.close();
    const s = await open();
    expect(schemaVersion(s.db)).toBe(MIGRATIONS.at(-1)!.version);
    expect((await s.getEvents('tenant-a', [e.id]))[0]!.content).toBe(e.content);
    const ep = makeEpisode();
    await s.putEpisode(ep);
    expect(await s.getEpisodes('tenant-a', [ep.id])).toEqual([ep]);
    expect(migrate(s.db, MIGRATIONS)).toEqual([]);
    await s.close();
  });

  it('looks episodes up by root cause through an index (migration 008), as the cleanup of a corrected cause does', async () => {
    const s = await open();
    const plan = s.db.prepare('EXPLAIN QUERY PLAN SELECT 1 FROM episodes e WHERE e.root_cause = ?').all('a stale cache entry') as { detail: string }[];
    expect(plan.map((p) => p.detail).join('\n')).toMatch(/USING (COVERING )?INDEX episodes_by_root_cause/);
    await s.close();
  });

  it('keeps the docs projection consistent through learn-record replaces, deletes and forget', async () => {
    const s = await open();
    const ep = makeEpisode({ closed: false });
    await s.putEpisode(ep);
    await s.putEpisode({ ...ep, closed: true, summary: 'closed summary words' });
    await s.putEpisode({ ...ep, closed: true, summary: 'rewritten summary words' });
    const proc = makeProcedure();
    await s.putProcedure(proc);
    await s.putProcedure({ ...proc, steps: ['a new step'] });
    const ex = makeExample();
    await s.putExample(ex);
    await s.putExample({ ...ex, polarity: 'negative' });
    const gone = makeExample();
    await s.putExample(gone);
    await s.deleteExample('tenant-a', gone.id);
    await s.forget({ tenant: 'tenant-a', ids: [proc.id] }, NOW);
    const kinds = s.db.prepare('SELECT kind, COUNT(*) AS n FROM docs GROUP BY kind ORDER BY kind').all();
    expect(kinds).toEqual([
      { kind: 'episode', n: 1 },
      { kind: 'example', n: 1 },
    ]);
    await s.close();
  });

  it('leaves no trace of forgotten episodes, procedures and examples in the file bytes', async () => {
    const marker = 'qzxvlearnmarker';
    const s = await open();
    const ep = makeEpisode({ summary: `the ${marker} incident`, corrections: [`never ${marker} again`], userId: 'u9' });
    const proc = makeProcedure({ name: `${marker} drill`, userId: 'u9' });
    const ex = makeExample({ query: `what is ${marker}`, response: `${marker} is secret`, userId: 'u9' });
    await s.putEpisode(ep);
    await s.putProcedure(proc);
    await s.putExample(ex);
    await s.putLinks([makeLink({ fromId: ep.id, toId: proc.id, evidence: `${marker} led to a drill` })]);
    await s.putFact(makeFact({ text: 'unrelated fact' }));
    await embedAll(s);
    s.checkpoint();
    expect(fileBytes().includes(marker)).toBe(true); // control
    await s.forget({ tenant: 'tenant-a', scope: { userId: 'u9' } }, NOW);
    s.checkpoint();
    expect(fileBytes().includes(marker)).toBe(false);
    expect(fileBytes().includes('qzxvlearn')).toBe(false);
    await s.close();
  });

});
