/**
 * The connection surface the adapter needs, small enough that `pg.Pool` satisfies it as is and an
 * in-process PGlite can be wrapped to satisfy it (see `pglite.ts`). `pg` itself loads lazily: a user
 * of the SQLite adapter never pays for it.
 */
import { adapterError, EngramError } from '../../../core/errors.js';

export interface QueryResultLike {
  rows: unknown[];
  rowCount?: number | null;
}

export interface QueryableLike {
  query(text: string, values?: unknown[]): Promise<QueryResultLike>;
}

/** One checked-out connection; `release` hands it back (pass an error to have the pool discard it). */
export interface ClientLike extends QueryableLike {
  release(err?: Error | boolean): void;
}

export interface PoolLike extends QueryableLike {
  connect(): Promise<ClientLike>;
  end(): Promise<void>;
}

export interface PgPoolOptions {
  url: string;
  /** Connections in the pool (default 10). */
  max?: number;
  /** Milliseconds to wait for a connection before failing (default 10 s). */
  connectionTimeoutMillis?: number;
}

/**
 * A `pg.Pool` for a connection URL. Errors of idle clients (the server restarted, a connection was
 * cut) are swallowed here: the pool drops the client and the next query opens a new one.
 */
export async function createPgPool(opts: PgPoolOptions): Promise<PoolLike> {
  let pg: typeof import('pg');
  try {
    pg = (await import('pg')).default as unknown as typeof import('pg');
  } catch (e) {
    throw new EngramError('CONFIG', 'the PostgreSQL storage needs the "pg" package (npm install pg)', { cause: e });
  }
  try {
    const pool = new pg.Pool({
      connectionString: opts.url,
      max: opts.max ?? 10,
      connectionTimeoutMillis: opts.connectionTimeoutMillis ?? 10_000,
    });
    pool.on('error', () => undefined);
    return pool as unknown as PoolLike;
  } catch (e) {
    throw adapterError('cannot create PostgreSQL pool', e);
  }
}
