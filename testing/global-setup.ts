/**
 * Runs once per `vitest` run: creates a scratch PostgreSQL database for this run and points the tests at it
 * (`ENGRAM_TEST_PG_URL`), then drops it at the end, so a run never writes into a database anyone else uses and
 * parallel runs never meet. Without a reachable server it does nothing: the PostgreSQL tests then skip locally
 * and fail under CI, as testing/postgres-server.ts decides.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

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

export async function setup(): Promise<(() => Promise<void>) | undefined> {
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
