/**
 * The backup file round trip: a tenant holding every record kind is exported to a file and imported into a
 * fresh store (SQLite, and the PostgreSQL server), and the two stores are compared record by record; importing
 * again writes nothing. A bad file is refused whole, naming the line.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresStorage } from '../adapters/storage/postgres/index.js';
import { openSqliteStorage } from '../adapters/storage/sqlite/index.js';
import type { Storage } from '../ports/storage.js';
import { ALL_BACKUP_KINDS, populateEveryKind, snapshotTenant, type PopulatedTenant } from '../testing/storage-backup-fixture.js';
import { NOW, TEST_DIM, TEST_MODEL } from '../testing/storage-factories.js';
import { freshSchema } from '../../testing/postgres-pglite.js';
import { adminPool, requireServer, SERVER_URL } from '../../testing/postgres-server.js';
import { exportBackup, importBackup } from './backup.js';
import { BACKUP_KINDS } from './backup-format.js';

const dir = mkdtempSync(join(tmpdir(), 'engram-backup-'));
const opened: Storage[] = [];
let n = 0;

async function sqlite(): Promise<Storage> {
  const s = await openSqliteStorage({ path: join(dir, `db-${++n}.sqlite`) });
  await s.init({ embeddingModel: TEST_MODEL, dimension: TEST_DIM });
  opened.push(s);
  return s;
}

async function exportToFile(storage: Storage, tenant: string): Promise<string> {
  const lines: string[] = [];
  for await (const line of exportBackup(storage, tenant, NOW)) lines.push(JSON.stringify(line));
  const file = join(dir, `export-${++n}.jsonl`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

const { skip: noServer } = await requireServer('backup round trip to the PostgreSQL server');
const admin = noServer ? undefined : adminPool();
const schemas: string[] = [];

let source: Storage;
let file: string;
let sourceSnapshot: Awaited<ReturnType<typeof snapshotTenant>>;
let populated: PopulatedTenant;

beforeAll(async () => {
  source = await sqlite();
  populated = await populateEveryKind(source, 'acme');
  await populateEveryKind(source, 'other');
  file = await exportToFile(source, 'acme');
  sourceSnapshot = await snapshotTenant(source, 'acme');
});

afterAll(async () => {
  for (const s of opened) await s.close();
  for (const schema of schemas) await admin?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin?.end();
  rmSync(dir, { recursive: true, force: true });
});

describe('backup file', () => {
  it('has a header, one line per record of the tenant only, and closing counts', () => {
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string; record?: Record<string, unknown>; counts?: Record<string, number> });
    expect(lines[0]).toMatchObject({ kind: 'header', format: 'engram-backup', version: 1, tenant: 'acme', kinds: [...BACKUP_KINDS] });
    const end = lines[lines.length - 1]!;
    expect(end.kind).toBe('end');
    for (const kind of ALL_BACKUP_KINDS) expect(end.counts![kind], kind).toBe(sourceSnapshot[kind].length);
    const body = lines.slice(1, -1);
    expect(body.every((l) => l.record !== undefined && !('tenant' in l.record))).toBe(true);
    expect(JSON.stringify(body)).not.toContain('"other"');
  });

  it('round-trips SQLite → SQLite record by record; importing again writes nothing and changes nothing', async () => {
    const target = await sqlite();
    const first = await importBackup(target, file);
    expect(first.tenant).toBe('acme');
    for (const kind of ALL_BACKUP_KINDS) expect(first.records[kind], kind).toEqual({ written: sourceSnapshot[kind].length, existing: 0, kept: 0 });
    expect(await snapshotTenant(target, 'acme')).toEqual(sourceSnapshot);

    const again = await importBackup(target, file);
    for (const kind of ALL_BACKUP_KINDS) expect(again.records[kind], kind).toEqual({ written: 0, existing: sourceSnapshot[kind].length, kept: 0 });
    expect(await snapshotTenant(target, 'acme')).toEqual(sourceSnapshot);
    // Exporting the copy gives the same file (but its export time).
    const copy = await exportToFile(target, 'acme');
    expect(readFileSync(copy, 'utf8')).toBe(readFileSync(file, 'utf8'));
  });

  it('carries the graph: every entity and relation version (the closed edge too) with its times and provenance, names and citations indexed again', async () => {
    const relations = sourceSnapshot.relation as { id: string; expiredAt?: number; validTo?: number; supersedes?: string; provenance: { eventIds: string[]; factIds: string[] } }[];
    const closed = relations.find((r) => r.id === populated.closedRelationId)!;
    const live = relations.find((r) => r.id === populated.liveRelationId)!;
    expect(closed.expiredAt).toBeDefined();
    expect(closed.validTo).toBeDefined();
    expect(closed.provenance).toEqual({ origin: 'extraction', eventIds: [populated.eventIds[0]], factIds: [populated.liveFactId] });
    expect(live).toMatchObject({ supersedes: closed.id });
    expect(live.expiredAt).toBeUndefined();
    expect(sourceSnapshot.entity).toHaveLength(3);

    const target = await sqlite();
    const report = await importBackup(target, file);
    expect(report.records.entity).toEqual({ written: 3, existing: 0, kept: 0 });
    expect(report.records.relation).toEqual({ written: 2, existing: 0, kept: 0 });
    expect(await snapshotTenant(target, 'acme')).toEqual(sourceSnapshot);
    // Names resolve (aliases too), history reads as of before the move, and the citations are indexed: forgetting
    // the cited event drops that citation (the fact still supports the edge), forgetting the fact too removes it.
    const [ana] = await target.findEntities({ tenant: 'acme', names: ["Ana's"] });
    expect(ana?.name).toBe('Ana Souza');
    const past = await target.queryRelations({ tenant: 'acme', entityIds: [ana!.id], includeExpired: true, validAt: closed.validTo! - 1 });
    expect(past.map((r) => r.id)).toEqual([closed.id]);
    const now = await target.queryRelations({ tenant: 'acme', entityIds: [ana!.id] });
    expect(now.map((r) => r.id)).toEqual([live.id]);
    await target.forget({ tenant: 'acme', ids: [populated.eventIds[0]!] }, NOW);
    const [cited] = await target.getRelations('acme', [closed.id]);
    expect(cited!.provenance).toEqual({ origin: 'extraction', eventIds: [], factIds: [populated.liveFactId] });
    await target.forget({ tenant: 'acme', ids: [populated.liveFactId] }, NOW);
    expect((await target.getRelations('acme', [closed.id, live.id])).map((r) => r.id)).toEqual([live.id]);
  });

  it('restores into another tenant when told to', async () => {
    const target = await sqlite();
    const r = await importBackup(target, file, { tenant: 'restored' });
    expect(r.tenant).toBe('restored');
    expect(await snapshotTenant(target, 'restored')).toEqual(sourceSnapshot);
    expect((await snapshotTenant(target, 'acme')).event).toEqual([]);
  });

  it.skipIf(noServer)('round-trips SQLite → PostgreSQL server record by record, idempotently', async () => {
    const schema = freshSchema('backup');
    schemas.push(schema);
    const pg = await openPostgresStorage({ url: SERVER_URL, schema, poolSize: 2, logger: { warn: () => undefined } });
    await pg.init({ embeddingModel: TEST_MODEL, dimension: TEST_DIM });
    opened.push(pg);
    await importBackup(pg, file);
    expect(await snapshotTenant(pg, 'acme')).toEqual(sourceSnapshot);
    const again = await importBackup(pg, file);
    expect(Object.values(again.records).every((r) => r.written === 0)).toBe(true);
    expect(await snapshotTenant(pg, 'acme')).toEqual(sourceSnapshot);
    // And back: PostgreSQL's export restores into SQLite as the same records.
    const back = await sqlite();
    await importBackup(back, await exportToFile(pg, 'acme'));
    expect(await snapshotTenant(back, 'acme')).toEqual(sourceSnapshot);
  });
});

describe('a bad backup is refused whole', () => {
  const lines = () => readFileSync(file, 'utf8').trim().split('\n');
  const write = (ls: string[]) => {
    const f = join(dir, `bad-${++n}.jsonl`);
    writeFileSync(f, `${ls.join('\n')}\n`);
    return f;
  };
  const refused = async (f: string, path: RegExp) => {
    const target = await sqlite();
    const err = (await importBackup(target, f).then(
      () => undefined,
      (e: unknown) => e,
    )) as { code: string; issues: { path: string }[] } | undefined;
    expect(err?.code).toBe('VALIDATION');
    expect(err!.issues.map((i) => i.path).join(' ')).toMatch(path);
    for (const kind of ALL_BACKUP_KINDS) expect((await snapshotTenant(target, 'acme'))[kind], kind).toEqual([]);
  };

  it('a record line that is not JSON or breaks its schema, naming the line and field', async () => {
    const ls = lines();
    const last = ls.length - 2;
    await refused(write([...ls.slice(0, last), '{nope', ...ls.slice(last)]), new RegExp(`line ${last + 1}`));
    const event = JSON.parse(ls[1]!) as { record: Record<string, unknown> };
    event.record.seq = -1;
    await refused(write([ls[0]!, JSON.stringify(event), ...ls.slice(2)]), /line 2\.record\.seq/);
    await refused(write([ls[0]!, JSON.stringify({ kind: 'entity_set', record: {} }), ...ls.slice(1)]), /line 2\.kind/);
  });

  it('a file cut short (no closing line, or counts that disagree), a newer version, no header, kinds out of order', async () => {
    const ls = lines();
    await refused(write(ls.slice(0, -1)), /cut short|line \d+/);
    await refused(write([...ls.slice(0, 1), ...ls.slice(2)]), /counts\.event/);
    const header = JSON.parse(ls[0]!) as Record<string, unknown>;
    await refused(write([JSON.stringify({ ...header, version: 99 }), ...ls.slice(1)]), /line 1\.version/);
    await refused(write(ls.slice(1)), /line \d+/);
    const factAt = ls.findIndex((l) => l.startsWith('{"kind":"fact"'));
    await refused(write([ls[0]!, ls[factAt]!, ...ls.slice(1, factAt), ...ls.slice(factAt + 1)]), /line 3\.kind/);
  });
});
