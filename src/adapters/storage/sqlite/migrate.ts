import { EngramError } from '../../../core/errors.js';
import type { Db } from './connection.js';

/** One step of the schema. `up` runs inside a transaction together with its `schema_migrations` row. */
export interface Migration {
  version: number;
  name: string;
  up(db: Db): void;
}

const LEDGER_DDL = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  applied_at INTEGER NOT NULL
)`;

/** Highest applied version, 0 for a new file (or one without the ledger). */
export function schemaVersion(db: Db): number {
  const ledger = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'`).get();
  if (!ledger) return 0;
  const row = db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null };
  return row.v ?? 0;
}

export function assertOrdered(migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    const prev = i === 0 ? 0 : migrations[i - 1]!.version;
    if (!Number.isInteger(m.version) || m.version <= prev) {
      throw new EngramError('CONFIG', `migration ${m.name} has version ${m.version}; versions must increase from 1`);
    }
  });
}

/**
 * Applies every migration newer than the file's version, each in its own IMMEDIATE transaction, re-reading
 * the version inside it so two processes opening the same new file do not both apply a step.
 * Returns the versions applied. A file newer than this code is refused rather than guessed at.
 */
export function migrate(db: Db, migrations: readonly Migration[]): number[] {
  assertOrdered(migrations);
  db.exec(LEDGER_DDL);
  const latest = migrations.at(-1)?.version ?? 0;
  const current = schemaVersion(db);
  if (current > latest) {
    throw new EngramError('CONFIG', `database schema version ${current} is newer than this Engram (${latest}); upgrade Engram`);
  }
  const applied: number[] = [];
  for (const m of migrations) {
    if (m.version <= current) continue;
    const step = db.transaction(() => {
      if (schemaVersion(db) >= m.version) return false;
      m.up(db);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, m.name, Date.now());
      return true;
    });
    if (step.immediate()) applied.push(m.version);
  }
  return applied;
}

/** For read-only connections: the file must already be at the version this code expects. */
export function assertCurrent(db: Db, migrations: readonly Migration[]): void {
  const latest = migrations.at(-1)?.version ?? 0;
  const current = schemaVersion(db);
  if (current !== latest) {
    throw new EngramError('CONFIG', `database schema version ${current} differs from ${latest}; open it read-write once to migrate`);
  }
}
