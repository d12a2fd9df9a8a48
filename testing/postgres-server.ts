/**
 * The real PostgreSQL server on loopback for the PostgreSQL adapter's tests: the scratch database that
 * testing/global-setup.ts creates for each run on the server `ENGRAM_TEST_PG_URL` names (default
 * postgres://postgres@127.0.0.1:5432). Its absence fails the run under CI=true and skips locally, saying why;
 * it never passes silently.
 */
import pg from 'pg';

export const SERVER_URL = process.env.ENGRAM_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Undefined when the server answers; otherwise why not. */
export async function serverUnavailable(url = SERVER_URL): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Decides at collection time whether the server tests run: throws under CI when the server is missing (the
 * test file fails loudly), else returns the reason to skip (printed once).
 */
export async function requireServer(what: string): Promise<{ skip: boolean }> {
  const reason = await serverUnavailable();
  if (reason === undefined) return { skip: false };
  const message = `${what}: PostgreSQL at ${SERVER_URL} is not reachable (${reason})`;
  if (process.env.CI === 'true' || process.env.CI === '1') throw new Error(`${message}; CI needs it (start it, or set ENGRAM_TEST_PG_URL)`);
  console.warn(`${message}; skipping these tests locally`);
  return { skip: true };
}

/** A pool for test administration (dropping schemas), separate from the storages under test. */
export function adminPool(url = SERVER_URL): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on('error', () => undefined);
  return pool;
}
