/**
 * An embedded PGlite (PostgreSQL compiled to WebAssembly) behind the `PoolLike` surface, for running the
 * PostgreSQL adapter without a server (`pglite:./dir`). PGlite is one connection: a checked-out client has
 * it to itself until released (a mutex), which is what a transaction needs. pgvector loads when
 * `@electric-sql/pglite-pgvector` is installed (it is pinned to an exact PGlite version).
 */
import { adapterError, EngramError } from '../../../core/errors.js';
import type { Extensions } from '@electric-sql/pglite';
import type { ClientLike, PoolLike, QueryResultLike } from './pool.js';

/** The part of a PGlite instance this wrapper uses. */
export interface PgliteLike {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[]; affectedRows?: number }>;
  /** Runs one or more statements without parameters (the simple protocol). */
  exec(text: string): Promise<{ rows: unknown[]; affectedRows?: number }[]>;
  close(): Promise<void>;
}

/** A FIFO lock: `acquire` resolves with the function that releases it. */
class Mutex {
  private tail: Promise<void> = Promise.resolve();
  acquire(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((ok) => (release = ok));
    const ready = this.tail.then(() => release);
    this.tail = this.tail.then(() => next);
    return ready;
  }
}

/** Wraps a PGlite instance; `end()` closes it only when `owns` is set. */
export function pglitePool(db: PgliteLike, owns = false): PoolLike {
  const mutex = new Mutex();
  // Without values a text may hold several statements (DDL, BEGIN), as with pg's simple protocol.
  const query = async (text: string, values?: unknown[]): Promise<QueryResultLike> => {
    const r = values === undefined ? ((await db.exec(text)).at(-1) ?? { rows: [] }) : await db.query(text, values);
    return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length };
  };
  return {
    async query(text, values) {
      const release = await mutex.acquire();
      try {
        return await query(text, values);
      } finally {
        release();
      }
    },
    async connect(): Promise<ClientLike> {
      const release = await mutex.acquire();
      let released = false;
      return {
        query,
        release() {
          if (!released) {
            released = true;
            release();
          }
        },
      };
    },
    async end() {
      if (owns) await db.close();
    },
  };
}

export interface PgliteOptions {
  /** A directory for the database files; omit for an in-memory database. */
  dataDir?: string;
  /** Load pgvector (default true; falls back to bytea vectors when the package is missing). */
  vector?: boolean;
}

/** Starts an embedded PGlite (loading the packages lazily) and returns it as a pool the storage owns. */
export async function openPglitePool(opts: PgliteOptions = {}): Promise<PoolLike> {
  let PGlite: typeof import('@electric-sql/pglite').PGlite;
  try {
    ({ PGlite } = await import('@electric-sql/pglite'));
  } catch (e) {
    throw new EngramError('CONFIG', 'the pglite store needs the "@electric-sql/pglite" package', { cause: e });
  }
  const extensions: Extensions = {};
  if (opts.vector ?? true) {
    try {
      extensions.vector = (await import('@electric-sql/pglite-pgvector')).vector;
    } catch {
      // Without the package the storage says so once and keeps vectors as bytea.
    }
  }
  try {
    const db = await PGlite.create({ ...(opts.dataDir ? { dataDir: opts.dataDir } : {}), extensions });
    return pglitePool(db as unknown as PgliteLike, true);
  } catch (e) {
    throw adapterError('cannot start PGlite', e);
  }
}
