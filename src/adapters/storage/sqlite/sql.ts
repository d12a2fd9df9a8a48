import type { ScopeFilter } from '../../../ports/storage.js';
import { SCOPE_KEYS, type ScopeKey } from '../../../core/types.js';

export type SqlParam = string | number | bigint | Buffer | null;

/** A piece of SQL with its positional parameters, composed without ever splicing values into the text. */
export interface Sql {
  text: string;
  params: SqlParam[];
}

export const sql = (text: string, ...params: SqlParam[]): Sql => ({ text, params });

export const TRUE_SQL: Sql = sql('1');

export function joinSql(parts: readonly Sql[], sep: ' AND ' | ' OR ' | ', ' | ' UNION ' | ' UNION ALL '): Sql {
  return { text: parts.map((p) => p.text).join(sep), params: parts.flatMap((p) => p.params) };
}

/** `(a) AND (b) …`; empty → TRUE. */
export function allOf(parts: readonly Sql[]): Sql {
  if (parts.length === 0) return TRUE_SQL;
  return joinSql(
    parts.map((p) => ({ text: `(${p.text})`, params: p.params })),
    ' AND ',
  );
}

export const SCOPE_COLUMNS: Record<ScopeKey, string> = {
  userId: 'user_id',
  agentId: 'agent_id',
  sessionId: 'session_id',
  taskId: 'task_id',
};

/** Scope narrowing: each field given (not undefined) must match exactly. */
export function scopeSql(scope: ScopeFilter | undefined, alias: string): Sql[] {
  if (!scope) return [];
  const parts: Sql[] = [];
  for (const key of SCOPE_KEYS) {
    const value = scope[key];
    if (value !== undefined) parts.push(sql(`${alias}.${SCOPE_COLUMNS[key]} = ?`, value));
  }
  return parts;
}

/** `kind IN (…)` through one JSON parameter, so the statement text does not depend on the list length. */
export function inJsonList(column: string, values: readonly string[] | undefined): Sql[] {
  if (values === undefined) return [];
  return [sql(`${column} IN (SELECT value FROM json_each(?))`, JSON.stringify(values))];
}

export function notExpiredSql(alias: string, now: number): Sql {
  return sql(`(${alias}.expires_at IS NULL OR ${alias}.expires_at > ?)`, now);
}

export const jsonList = (values: readonly string[]): string => JSON.stringify(values);
