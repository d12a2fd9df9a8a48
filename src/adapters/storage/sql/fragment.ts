/**
 * SQL fragments with positional `?` parameters, composed without ever splicing a value into the text. Both
 * engines read these: SQLite binds `?` as it is, PostgreSQL's driver layer numbers them ($1, $2, …). TRUE and
 * FALSE are keywords in both (SQLite since 3.23), so predicates compose the same way everywhere.
 */
import type { Layers, ScopeFilter } from '../../../ports/storage.js';
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

/** Scope narrowing: each field given (not undefined) must match exactly; `layers` adds the layered rule. */
export function scopeSql(scope: ScopeFilter | undefined, alias: string): Sql[] {
  if (!scope) return [];
  const parts: Sql[] = [];
  for (const key of SCOPE_KEYS) {
    const value = scope[key];
    if (value !== undefined) parts.push(sql(`${alias}.${SCOPE_COLUMNS[key]} = ?`, value));
  }
  if (scope.layers) parts.push(layersSql(scope.layers, alias));
  return parts;
}

/**
 * The layered visibility rule of core/layers.ts (`visibleTo`) over `alias`: the user's records, or records of
 * no user that are shared, the agent's own (no session) or bound to the session. No identity: no user's records.
 */
export function layersSql(layers: Layers, alias: string): Sql {
  const { userId, agentId, sessionId } = layers;
  const unowned = sql(`${alias}.user_id IS NULL`);
  if (userId === undefined && agentId === undefined && sessionId === undefined) return unowned;
  const ofNoUser: Sql[] = [sql(`${alias}.agent_id IS NULL AND ${alias}.session_id IS NULL`)];
  if (agentId !== undefined) ofNoUser.push(sql(`${alias}.agent_id = ? AND ${alias}.session_id IS NULL`, agentId));
  if (sessionId !== undefined) ofNoUser.push(sql(`${alias}.session_id = ?`, sessionId));
  const noUser = allOf([unowned, anyOf(ofNoUser)]);
  return userId === undefined ? noUser : anyOf([sql(`${alias}.user_id = ?`, userId), noUser]);
}

export function notExpiredSql(alias: string, now: number): Sql {
  return sql(`(${alias}.expires_at IS NULL OR ${alias}.expires_at > ?)`, now);
}
