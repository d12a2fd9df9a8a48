import Database from 'better-sqlite3';
import { adapterError } from '../../../core/errors.js';

export type Db = Database.Database;

/** Milliseconds a writer waits for another process's write lock before giving up with SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 10_000;

/**
 * Opens one database file with the settings every Engram connection needs. Why each one:
 * - WAL: readers never block the writer, and several processes can share the file.
 * - synchronous=FULL: a write that resolved survives a crash of the process or the OS (WAL fsync per commit).
 * - secure_delete: deleted content is overwritten with zeros instead of lingering in free pages.
 * - journal_size_limit: a checkpoint truncates the WAL back to this size, so old frames do not linger either.
 * - foreign_keys: event contents and tombstones cascade with their event row.
 */
export function openDatabase(path: string, readonly: boolean): Db {
  let db: Db;
  try {
    db = new Database(path, { readonly, fileMustExist: readonly });
  } catch (e) {
    throw adapterError(`cannot open SQLite database ${path}`, e);
  }
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    if (!readonly && path !== ':memory:') db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('secure_delete = ON');
    db.pragma('cache_size = -32000'); // 32 MiB page cache
    db.pragma('mmap_size = 268435456'); // 256 MiB of the file mapped for reads
    db.pragma('temp_store = MEMORY');
    db.pragma('journal_size_limit = 8388608');
    registerFunctions(db);
  } catch (e) {
    db.close();
    throw adapterError(`cannot configure SQLite database ${path}`, e);
  }
  return db;
}

/**
 * `engram_cmp(a, b)`: JavaScript string ordering (UTF-16 code units). SQLite's BINARY collation orders
 * UTF-8 bytes, which disagrees with JavaScript for astral characters versus U+E000..U+FFFF; the filter
 * compiler uses this so SQL range filters agree exactly with `matchesFilter`.
 */
function registerFunctions(db: Db): void {
  db.function('engram_cmp', { deterministic: true }, (a: unknown, b: unknown) => {
    if (typeof a !== 'string' || typeof b !== 'string') return 0;
    return a < b ? -1 : a > b ? 1 : 0;
  });
}
