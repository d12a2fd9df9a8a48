/** SQLite's helpers over the shared fragments (`../sql/fragment.ts`): lists travel as one JSON parameter. */
import { sql, type Sql } from '../sql/fragment.js';

export { allOf, anyOf, joinSql, notExpiredSql, SCOPE_COLUMNS, scopeSql, sql, TRUE_SQL, FALSE_SQL, type Sql, type SqlParam } from '../sql/fragment.js';

/** `kind IN (…)` through one JSON parameter, so the statement text does not depend on the list length. */
export function inJsonList(column: string, values: readonly string[] | undefined): Sql[] {
  if (values === undefined) return [];
  return [sql(`${column} IN (SELECT value FROM json_each(?))`, JSON.stringify(values))];
}

export const jsonList = (values: readonly string[]): string => JSON.stringify(values);
