/**
 * What differs between the SQL engines, in one object (after kysely's `Dialect`): how values are bound, how a
 * list or an exact scope is matched, how a row is locked, and the filter compiler's leaves. Everything written
 * against a `Dialect` (row codecs, the filter compiler, the stores of `../sql/`) is written once.
 *
 * Statements name tables `engram.<table>`: PostgreSQL qualifies the prefix with the configured schema, SQLite
 * drops it (one file is one schema).
 */
import type { ScopeFilter } from '../../../ports/storage.js';
import type { FilterLeaves } from './filter-compiler.js';
import type { Sql } from './fragment.js';

export interface Dialect {
  readonly name: 'sqlite' | 'postgres';
  /** A boolean parameter: 0/1 on SQLite, a boolean on PostgreSQL. */
  bool(b: boolean): number | boolean;
  /** A string-list column's parameter: JSON text on SQLite, a text[] on PostgreSQL (cast with `listCast`). */
  list(values: readonly string[]): string | readonly string[];
  /** The cast that follows a `list` placeholder: '' on SQLite, '::text[]' on PostgreSQL. */
  readonly listCast: string;
  /** `column IN (values)` through one parameter, so the text does not depend on the list length. None when undefined. */
  inList(column: string, values: readonly string[] | undefined): Sql[];
  /** The same for integer keys (pk, doc_id). */
  inKeys(column: string, values: readonly (number | string)[]): Sql;
  /** `column = value` where NULL equals NULL (a text column). */
  sameText(column: string, value: string | null): Sql;
  /** Exact scope: every field, given or not, equals the record's (absent matches only absent). */
  exactScope(scope: ScopeFilter, alias: string): Sql[];
  /** A table expression `alias(column)` holding `values`, one row each. */
  listTable(values: readonly string[], alias: string, column: string): Sql;
  /** The larger of two values: MAX(a, b) on SQLite, GREATEST(a, b) on PostgreSQL. */
  readonly greatest: string;
  /** Whether a string-list column (JSON text or text[]) shares an element with `values`. */
  listOverlaps(column: string, values: readonly string[]): Sql;
  /** Appended to a text column in ORDER BY so text orders by bytes (SQLite's default; "C" on PostgreSQL). */
  readonly byteOrder: string;
  /** Appended to a SELECT inside a write transaction that then updates the row: '' where the transaction already holds the write lock. */
  readonly forUpdate: string;
  /**
   * Whether one upsert can also return a column's value from before the write, read by a CTE of the same statement:
   * PostgreSQL (every part of a statement sees one snapshot). SQLite evaluates a RETURNING subquery after the row
   * changed, so there the value is read by a statement of its own first.
   */
  readonly priorInReturning: boolean;
  readonly filter: FilterLeaves;
}
