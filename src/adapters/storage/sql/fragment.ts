/**
 * SQL fragments with positional `?` parameters, composed without ever splicing a value into the text. Both
 * engines read these: SQLite binds `?` as it is, PostgreSQL's driver layer numbers them ($1, $2, …). TRUE and
 * FALSE are keywords in both (SQLite since 3.23), so predicates compose the same way everywhere.
 */
import type { ScopeFilter } from '../../../ports/storage.js';
import { SCOPE_KEYS, type ScopeKey } from '../../../core/types.js';

export type SqlScalar = string | number | bigint | boolean | null;
export type SqlParam = SqlScalar | Uint8Array | readonly (SqlScalar | Uint8Array)[];

export interface Sql {
  text: string;
  params: SqlParam[];
}

export const sql = (text: string, ...params: SqlParam[]): Sql => ({ text, params });

export const TRUE_SQL: Sql = sql('TRUE');
export const FALSE_SQL: Sql = sql('FALSE');

export function joinSql(parts: readonly Sql[], sep: string): Sql {
  return { text: parts.map((p) => p.text).join(sep), params: parts.flatMap((p) => p.params) };
}

const wrap = (s: Sql): Sql => ({ text: `(${s.text})`, params: s.params });

/** `(a) AND (b) …`; empty → TRUE. */
export function allOf(parts: readonly Sql[]): Sql {
  return parts.length === 0 ? TRUE_SQL : joinSql(parts.map(wrap), ' AND ');
}

/** `(a) OR (b) …`; empty → FALSE. */
export function anyOf(parts: readonly Sql[]): Sql {
  return parts.length === 0 ? FALSE_SQL : joinSql(parts.map(wrap), ' OR ');
}

export const not = (s: Sql): Sql => ({ text: `NOT (${s.text})`, params: s.params });

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

export function notExpiredSql(alias: string, now: number): Sql {
  return sql(`(${alias}.expires_at IS NULL OR ${alias}.expires_at > ?)`, now);
}
