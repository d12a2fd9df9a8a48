import { SCOPE_KEYS } from '../../../core/types.js';
import type { Dialect } from '../sql/dialect.js';
import { SCOPE_COLUMNS, sql } from '../sql/fragment.js';
import { SQLITE_FILTER_LEAVES } from './filter-sql.js';
import { inJsonList } from './sql.js';

/** SQLite: 0/1 booleans, lists as JSON text, and no row locks (a write transaction holds the file's write lock). */
export const SQLITE_DIALECT: Dialect = {
  name: 'sqlite',
  bool: (b) => (b ? 1 : 0),
  list: (values) => JSON.stringify(values),
  listCast: '',
  inList: inJsonList,
  inKeys: (column, values) => sql(`${column} IN (SELECT value FROM json_each(?))`, JSON.stringify(values.map(Number))),
  sameText: (column, value) => sql(`${column} IS ?`, value),
  exactScope: (scope, alias) => SCOPE_KEYS.map((k) => sql(`${alias}.${SCOPE_COLUMNS[k]} IS ?`, scope[k] ?? null)),
  listTable: (values, alias, column) => sql(`(SELECT value AS ${column} FROM json_each(?)) AS ${alias}`, JSON.stringify(values)),
  greatest: 'MAX',
  listOverlaps: (column, values) =>
    sql(`EXISTS (SELECT 1 FROM json_each(${column}) AS item WHERE item.value IN (SELECT value FROM json_each(?)))`, JSON.stringify(values)),
  byteOrder: '',
  forUpdate: '',
  priorInReturning: false,
  filter: SQLITE_FILTER_LEAVES,
};
