/**
 * Versioned migrations in `<schema>.schema_migrations`, applied under a session advisory lock keyed by the
 * schema name, so several processes starting at once apply each step exactly once (the others wait,
 * then find the ledger current). Each step runs in its own transaction with its ledger row.
 */
import { EngramError } from '../../../core/errors.js';
import type { ClientLike, PoolLike } from './pool.js';
import { qualify, quoteIdent, type SqlNames } from './sql.js';

export interface MigrationEnv {
  /** pgvector is installed: vectors are `vector` columns (else `bytea`). */
  vector: boolean;
}

export interface PgMigration {
  version: number;
  name: string;
  /** Statements (with `engram.` / `pgv.` prefixes), run in order in one transaction. */
  up(env: MigrationEnv): string[];
}

/** A 52-bit key for pg_advisory_lock from a name (FNV-1a; any stable hash will do). */
export function advisoryKey(name: string): number {
  let h = 0xcbf29ce484222325n;
  for (const b of Buffer.from(name, 'utf8')) {
    h ^= BigInt(b);
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return Number(h & 0xfffffffffffffn);
}

/** Runs `fn` on one connection while holding the advisory lock named `name`. */
export async function withAdvisoryLock<T>(pool: PoolLike, name: string, fn: (c: ClientLike) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  const key = advisoryKey(name);
  let broken: Error | undefined;
  try {
    await client.query('SELECT pg_advisory_lock($1::bigint)', [key]);
    try {
      return await fn(client);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1::bigint)', [key]);
    }
  } catch (e) {
    broken = e instanceof Error ? e : new Error(String(e));
    throw e;
  } finally {
    client.release(broken);
  }
}

export function assertOrdered(migrations: readonly PgMigration[]): void {
  migrations.forEach((m, i) => {
    const prev = i === 0 ? 0 : migrations[i - 1]!.version;
    if (!Number.isInteger(m.version) || m.version <= prev) {
      throw new EngramError('CONFIG', `migration ${m.name} has version ${m.version}; versions must increase from 1`);
    }
  });
}

async function tableExists(c: ClientLike, schema: string, table: string): Promise<boolean> {
  const r = await c.query('SELECT to_regclass($1) IS NOT NULL AS ok', [`${quoteIdent(schema)}.${quoteIdent(table)}`]);
  return (r.rows[0] as { ok: boolean }).ok;
}

/** Highest applied version, 0 for a new schema. */
export async function schemaVersion(c: ClientLike, schema: string): Promise<number> {
  if (!(await tableExists(c, schema, 'schema_migrations'))) return 0;
  const r = await c.query(`SELECT COALESCE(MAX(version), 0) AS v FROM ${quoteIdent(schema)}.schema_migrations`);
  return Number((r.rows[0] as { v: number | string }).v);
}

/**
 * Applies every migration newer than the schema's version (caller holds the advisory lock). A schema newer
 * than this code is refused rather than guessed at. Returns the versions applied.
 */
export async function applyMigrations(c: ClientLike, names: SqlNames, migrations: readonly PgMigration[], env: MigrationEnv): Promise<number[]> {
  assertOrdered(migrations);
  const schema = quoteIdent(names.schema);
  await c.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  await c.query(
    `CREATE TABLE IF NOT EXISTS ${schema}.schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at double precision NOT NULL)`,
  );
  const latest = migrations.at(-1)?.version ?? 0;
  const current = await schemaVersion(c, names.schema);
  if (current > latest) {
    throw new EngramError('CONFIG', `schema ${names.schema} is at version ${current}, newer than this Engram (${latest}); upgrade Engram`);
  }
  const applied: number[] = [];
  for (const m of migrations) {
    if (m.version <= current) continue;
    await c.query('BEGIN');
    try {
      for (const statement of m.up(env)) await c.query(qualify(statement, names));
      await c.query(`INSERT INTO ${schema}.schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)`, [m.version, m.name, Date.now()]);
      await c.query('COMMIT');
    } catch (e) {
      await c.query('ROLLBACK');
      throw e;
    }
    applied.push(m.version);
  }
  return applied;
}
