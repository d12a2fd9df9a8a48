import type { Dialect } from '../sql/dialect.js';
import { POSTGRES_FILTER_LEAVES } from './filter-sql.js';
import { exactScopeSql, inList } from './sql.js';

/** PostgreSQL: real booleans, text[] lists, and row locks taken with FOR UPDATE. */
export const POSTGRES_DIALECT: Dialect = {
  name: 'postgres',
  bool: (b) => b,
  list: (values) => values,
  listCast: '::text[]',
  inList,
  exactScope: exactScopeSql,
  forUpdate: ' FOR UPDATE',
  filter: POSTGRES_FILTER_LEAVES,
};
