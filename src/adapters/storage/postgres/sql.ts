/**
 * SQL fragments with positional parameters, composed without ever splicing a value into the text.
 * Fragments are written with `?` for each parameter and `engram.` / `pgv.` for the Engram schema and the
 * pgvector extension's schema; `render` numbers the parameters ($1, $2, …) and qualifies the names. No
 * statement of this adapter uses a `?` jsonb operator, so `?` is unambiguous.
 */
import { EngramError } from '../../../core/errors.js';
import type { ScopeFilter } from '../../../ports/storage.js';
import { SCOPE_KEYS, type ScopeKey } from '../../../core/types.js';

export type SqlScalar = string | number | boolean | null;
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

/** Exact scope: every field, given or not, equals the record's (absent matches only absent). */
export function exactScopeSql(scope: ScopeFilter, alias: string): Sql[] {
  return SCOPE_KEYS.map((k) => sql(`${alias}.${SCOPE_COLUMNS[k]} IS NOT DISTINCT FROM ?::text`, scope[k] ?? null));
}

/** `column = ANY(list)` through one array parameter, so the text does not depend on the list length. */
export function inList(column: string, values: readonly string[] | undefined): Sql[] {
  if (values === undefined) return [];
  return [sql(`${column} = ANY(?::text[])`, values)];
}

export function notExpiredSql(alias: string, now: number): Sql {
  return sql(`(${alias}.expires_at IS NULL OR ${alias}.expires_at > ?)`, now);
}

export const quoteIdent = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/** Names of the schemas a statement refers to. */
export interface SqlNames {
  schema: string;
  /** Schema of the pgvector extension, when installed. */
  vectorSchema?: string | undefined;
}

/** The final statement text (numbered parameters, qualified names) and its values. */
export function render(s: Sql, names: SqlNames): { text: string; values: unknown[] } {
  let n = 0;
  let text = s.text.replace(/\?/g, () => `$${++n}`);
  if (n !== s.params.length) throw new EngramError('ADAPTER', `SQL has ${n} placeholders but ${s.params.length} parameters: ${s.text}`);
  text = qualify(text, names);
  return { text, values: s.params as unknown[] };
}

/** Replaces the `engram.` and `pgv.` prefixes with the real (quoted) schema names. */
export function qualify(text: string, names: SqlNames): string {
  let out = text.replace(/\bengram\./g, `${quoteIdent(names.schema)}.`);
  if (names.vectorSchema !== undefined) out = out.replace(/\bpgv\./g, `${quoteIdent(names.vectorSchema)}.`);
  return out;
}
