/** Reads every record table shares: by id in the order asked, and the optional LIMIT of a listing. */
import type { Dialect } from '../dialect.js';
import { allOf, sql, type Sql } from '../fragment.js';
import { rows, type Step } from '../program.js';

/** Rows of `table` by id, in the order asked; unknown ids and other tenants' ids are skipped. */
export function* recordsByIds<R extends { id: string }, T>(d: Dialect, table: string, tenant: string, ids: readonly string[], map: (r: R) => T): Step<T[]> {
  if (ids.length === 0) return [];
  const where = allOf([sql('tenant = ?', tenant), ...d.inList('id', ids)]);
  const found = yield* rows<R>({ text: `SELECT * FROM engram.${table} WHERE ${where.text}`, params: where.params });
  const byId = new Map(found.map((r) => [r.id, map(r)]));
  return ids.map((id) => byId.get(id)).filter((x): x is T => x !== undefined);
}

/** ` LIMIT ?` for a given limit (floored, at least 0); nothing when there is none. */
export function limitSql(limit: number | undefined): Sql {
  return limit === undefined ? sql('') : sql(' LIMIT ?', Math.max(0, Math.floor(limit)));
}

/** `SELECT * FROM engram.<table> <alias> WHERE … ORDER BY … [LIMIT ?]`. */
export function listSql(table: string, alias: string, where: Sql, orderBy: string, limit: number | undefined): Sql {
  const lim = limitSql(limit);
  return { text: `SELECT * FROM engram.${table} ${alias} WHERE ${where.text} ORDER BY ${orderBy}${lim.text}`, params: [...where.params, ...lim.params] };
}
