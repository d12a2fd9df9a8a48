import { adapterError, EngramError, type ErrorCode } from '../../../core/errors.js';

/** SQLSTATE codes (or their two-character class) that mean something to a caller. */
const SQLSTATE_MAP: [state: string, code: ErrorCode][] = [
  ['23505', 'CONFLICT'], // unique_violation
  ['P0001', 'CONFLICT'], // raise_exception: the immutability triggers
  ['23502', 'VALIDATION'], // not_null_violation
  ['23514', 'VALIDATION'], // check_violation
  ['22P02', 'VALIDATION'], // invalid_text_representation
  ['22P05', 'VALIDATION'], // untranslatable_character (\u0000 in jsonb)
  ['22021', 'VALIDATION'], // character_not_in_repertoire (NUL in text)
  ['22003', 'VALIDATION'], // numeric_value_out_of_range
  ['22000', 'VALIDATION'], // data_exception (e.g. vector dimensions)
  ['54000', 'LIMIT'], // program_limit_exceeded (row or index entry too large)
  ['42501', 'FORBIDDEN'], // insufficient_privilege
  ['25006', 'FORBIDDEN'], // read_only_sql_transaction
  ['40001', 'UNAVAILABLE'], // serialization_failure (after retries)
  ['40P01', 'UNAVAILABLE'], // deadlock_detected (after retries)
  ['53', 'UNAVAILABLE'], // insufficient resources (too many connections, disk full)
  ['57', 'UNAVAILABLE'], // operator intervention (shutdown, cancel)
  ['08', 'UNAVAILABLE'], // connection exception
];

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH']);

/** The SQLSTATE of a driver error (pg and PGlite both put it on `code`), if any. */
export function sqlState(e: unknown): string | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/** Transient failures a transaction is simply run again for. */
export function isRetryable(e: unknown): boolean {
  const s = sqlState(e);
  return s === '40001' || s === '40P01';
}

/** Every failure leaving the adapter is an EngramError; driver errors keep the original as `cause`. */
export function toEngramError(what: string, e: unknown): EngramError {
  if (e instanceof EngramError) return e;
  const state = sqlState(e);
  const message = e instanceof Error ? e.message : String(e);
  if (state) {
    const hit = SQLSTATE_MAP.find(([s]) => state.startsWith(s));
    if (hit) return new EngramError(hit[1], `${what}: ${message}`, { cause: e, details: { sqlstate: state } });
  }
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && NETWORK_CODES.has(code)) {
    return new EngramError('UNAVAILABLE', `${what}: ${message}`, { cause: e, details: { network: code } });
  }
  if (/Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(message)) {
    return new EngramError('UNAVAILABLE', `${what}: ${message}`, { cause: e });
  }
  return adapterError(what, e);
}
