/**
 * PGlite for the PostgreSQL adapter's tests: one in-memory PGlite with pgvector per test file (starting one
 * takes seconds), a fresh schema per test, and the same database served over the Postgres wire protocol by
 * pglite-socket on a free loopback port, for the ordinary `pg` driver.
 */
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { pglitePool, type PgliteLike, type PoolLike } from '../src/adapters/storage/postgres/index.js';

let shared: Promise<PGlite> | undefined;

/** The test file's PGlite (with pgvector), started on first use. */
export function sharedPglite(): Promise<PGlite> {
  shared ??= PGlite.create({ extensions: { vector } });
  return shared;
}

/** A `PoolLike` over the shared PGlite that never closes it (each test's storage may "end" its pool). */
export async function sharedPglitePool(): Promise<PoolLike> {
  return pglitePool((await sharedPglite()) as unknown as PgliteLike, false);
}

let counter = 0;
/** A schema name no other test of this process uses. */
export function freshSchema(prefix = 't'): string {
  return `${prefix}_${process.pid}_${++counter}`;
}

export async function dropSchema(pool: PoolLike, schema: string): Promise<void> {
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
}

export interface SocketServer {
  url: string;
  stop(): Promise<void>;
}

/** Serves the shared PGlite on 127.0.0.1 (a free port) to up to `maxConnections` wire-protocol clients. */
export async function startPgliteSocket(maxConnections = 8): Promise<SocketServer> {
  const db = await sharedPglite();
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections });
  await server.start();
  return { url: `postgres://postgres@${server.getServerConn()}/postgres`, stop: () => server.stop() };
}
