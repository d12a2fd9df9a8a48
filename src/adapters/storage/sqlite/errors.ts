import Database from 'better-sqlite3';
import { adapterError, EngramError, type ErrorCode } from '../../../core/errors.js';

/** SQLite result codes that mean something to a caller, by the prefix of the extended code. */
const CODE_MAP: [prefix: string, code: ErrorCode][] = [
  ['SQLITE_CONSTRAINT_UNIQUE', 'CONFLICT'],
  ['SQLITE_CONSTRAINT_PRIMARYKEY', 'CONFLICT'],
  ['SQLITE_CONSTRAINT_TRIGGER', 'CONFLICT'],
  ['SQLITE_CONSTRAINT_NOTNULL', 'VALIDATION'],
  ['SQLITE_CONSTRAINT_CHECK', 'VALIDATION'],
  ['SQLITE_BUSY', 'UNAVAILABLE'],
  ['SQLITE_LOCKED', 'UNAVAILABLE'],
  ['SQLITE_READONLY', 'FORBIDDEN'],
];

/** Every failure leaving the adapter is an EngramError; driver errors keep the original as `cause`. */
export function toEngramError(what: string, e: unknown): EngramError {
  if (e instanceof EngramError) return e;
  if (e instanceof Database.SqliteError) {
    const hit = CODE_MAP.find(([prefix]) => e.code.startsWith(prefix));
    if (hit) return new EngramError(hit[1], `${what}: ${e.message}`, { cause: e, details: { sqlite: e.code } });
  }
  return adapterError(what, e);
}
