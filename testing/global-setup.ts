/**
 * Runs once per `vitest` run:
 *
 * - creates a scratch PostgreSQL database for this run and points the tests at it (`ENGRAM_TEST_PG_URL`), then
 *   drops it at the end, so a run never writes into a database anyone else uses and parallel runs never meet.
 *   Without a reachable server it does nothing: the PostgreSQL tests then skip locally and fail under CI, as
 *   testing/postgres-server.ts decides;
 * - transpiles src, testing and bench into a temporary folder (`ENGRAM_TEST_COMPILED`, testing/transpile.ts), from
 *   which tests start the CLI and child scripts with plain `node` (testing/node-entry.ts); again before every rerun
 *   in watch mode, so a child always runs the sources as they are; removed at the end.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { COMPILED_ENV, ROOT } from './node-entry.js';
import { transpileTree } from './transpile.js';

const ADMIN_URL = process.env.ENGRAM_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The scratch database, or nothing without a server; returns how to drop it. */
async function scratchDatabase(): Promise<(() => Promise<void>) | undefined> {
  const name = `engram_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  try {
    await admin((c) => c.query(`CREATE DATABASE ${name}`));
  } catch {
    return undefined; // no server: the tests that need one report it
  }
  const scratch = new URL(ADMIN_URL);
  scratch.pathname = `/${name}`;
  process.env.ENGRAM_TEST_PG_URL = scratch.toString();
  return async () => {
    await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).catch(() => undefined);
  };
}

/** The part of vitest's TestProject this setup uses (present from vitest 3). */
interface Project {
  onTestsRerun?: (cb: () => Promise<void>) => void;
}

export async function setup(project?: Project): Promise<() => Promise<void>> {
  const dropDatabase = await scratchDatabase();
  const compiled = mkdtempSync(join(tmpdir(), 'engram-test-js-'));
  const transpile = () => transpileTree(ROOT, join(compiled, 'tree'));
  await transpile();
  process.env[COMPILED_ENV] = join(compiled, 'tree');
  project?.onTestsRerun?.(async () => {
    await transpile();
  });
  return async () => {
    rmSync(compiled, { recursive: true, force: true });
    await dropDatabase?.();
  };
}
