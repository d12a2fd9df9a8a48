import type { Dialect } from '../sql/dialect.js';
import { POSTGRES_FILTER_LEAVES } from './filter-sql.js';
import { exactScopeSql, inList, sql } from './sql.js';

/** PostgreSQL: real booleans, text[] lists, and row locks taken with FOR UPDATE. */
export const POSTGRES_DIALECT: Dialect = {
  name: 'postgres',
  bool: (b) => b,
  list: (values) => values,
  listCast: '::text[]',
  inList,
  inKeys: (column, values) => sql(`${column} = ANY(?::bigint[])`, values.map(String)),
  sameText: (column, value) => sql(`${column} IS NOT DISTINCT FROM ?::text`, value),
  exactScope: exactScopeSql,
  listTable: (values, alias, column) => sql(`unnest(?::text[]) AS ${alias}(${column})`, values),
  greatest: 'GREATEST',
  listOverlaps: (column, values) => sql(`${column} && ?::text[]`, values),
  byteOrder: ' COLLATE "C"',
  forUpdate: ' FOR UPDATE',
  priorInReturning: true,
  filter: POSTGRES_FILTER_LEAVES,
};
