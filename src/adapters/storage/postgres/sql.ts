/**
 * SQL fragments with positional parameters, composed without ever splicing a value into the text.
 * Fragments are written with `?` for each parameter and `engram.` / `pgv.` for the Engram schema and the
 * pgvector extension's schema; `render` numbers the parameters ($1, $2, …) and qualifies the names. No
 * statement of this adapter uses a `?` jsonb operator, so `?` is unambiguous.
 */
import { EngramError } from '../../../core/errors.js';
import type { ScopeFilter } from '../../../ports/storage.js';
import { SCOPE_KEYS } from '../../../core/types.js';
import { SCOPE_COLUMNS, sql, type Sql } from '../sql/fragment.js';

export {
  allOf,
  anyOf,
  FALSE_SQL,
  joinSql,
  notExpiredSql,
  SCOPE_COLUMNS,
  scopeSql,
  sql,
  TRUE_SQL,
  type Sql,
  type SqlParam,
  type SqlScalar,
} from '../sql/fragment.js';

/** Exact scope: every field, given or not, equals the record's (absent matches only absent). */
export function exactScopeSql(scope: ScopeFilter, alias: string): Sql[] {
  return SCOPE_KEYS.map((k) => sql(`${alias}.${SCOPE_COLUMNS[k]} IS NOT DISTINCT FROM ?::text`, scope[k] ?? null));
}

/** `column = ANY(list)` through one array parameter, so the text does not depend on the list length. */
export function inList(column: string, values: readonly string[] | undefined): Sql[] {
  if (values === undefined) return [];
  return [sql(`${column} = ANY(?::text[])`, values)];
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
