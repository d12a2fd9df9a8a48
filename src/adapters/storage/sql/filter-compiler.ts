/**
 * Compiles the filter AST (`src/core/filter.ts`) to a parameterised SQL predicate over the `docs` table, once
 * for every engine: the tree walk and the column dispatch live here, and each dialect supplies the leaves (how
 * one column or metadata path is read). `matchesFilter` is the reference: every leaf mirrors one branch of it,
 * and each dialect's `filter-sql.test.ts` checks the two agree on random docs and random filter trees.
 *
 * Every predicate a leaf emits must be TRUE or FALSE, never NULL, so NOT and OR behave as in JavaScript (SQL's
 * three-valued logic would otherwise turn `NOT (missing = 'x')` into NULL → no row).
 */
import { EngramError } from '../../../core/errors.js';
import { FILTER_COLUMNS, type FieldRef, type FilterColumn, type FilterNode, type Scalar } from '../../../core/filter.js';
import { allOf, anyOf, FALSE_SQL, not, TRUE_SQL, type Sql } from './fragment.js';

export const ORDER_OPS = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;
export type OrderCmp = keyof typeof ORDER_OPS;
const META_KEY_RE = /^[A-Za-z0-9_-]{1,64}$/;

/** How one field is read in SQL; each method mirrors the JavaScript semantics of `matchesFilter`. */
export interface FieldSql {
  /** `v !== undefined` */
  defined: Sql;
  /** `v !== undefined && v !== null` */
  present: Sql;
  /** `scalarEquals(v, x)` */
  eq(x: Scalar): Sql;
  /** `compare(v, cmp, x)` for a non-null x: same JS type, then ordered. */
  order(cmp: OrderCmp, x: string | number | boolean): Sql;
  /** Whether the array view of v (array → itself, undefined/null → [], scalar → [v]) has an element equal to x. */
  has(x: Scalar): Sql;
}

/** A dialect's readers, one per column type of `FILTER_COLUMNS` plus metadata paths. */
export interface FilterLeaves {
  /** Nullable text columns. */
  string(column: string): FieldSql;
  /** NOT NULL numeric columns (ts, importance, confidence) and the boolean one (pii; JavaScript orders false < true). */
  plain(column: string, type: 'number' | 'boolean'): FieldSql;
  /**
   * Whether the NOT NULL string-list column (tags) has an element equal to `x`. The rest of that column's
   * semantics is the same everywhere (`listColumn`): never equal to a scalar, never ordered.
   */
  listHas(column: string, x: Scalar): Sql;
  /** A metadata path, already checked by `assertMetaPath` (so its keys may be spliced as literals). */
  meta(column: string, path: readonly string[]): FieldSql;
}

/** The string-list column (tags) in any dialect: always defined, never equal or ordered; contains looks inside. */
function listColumn(leaves: FilterLeaves, column: string): FieldSql {
  return { defined: TRUE_SQL, present: TRUE_SQL, eq: () => FALSE_SQL, order: () => FALSE_SQL, has: (x) => leaves.listHas(column, x) };
}

/** `compileFilter` bound to one dialect's leaves. */
export const compilerFor =
  (leaves: FilterLeaves) =>
  (node: FilterNode, alias = 'd'): Sql =>
    compileFilter(leaves, node, alias);

/** Metadata path segments are letters, digits, "_" and "-", which makes them safe to splice into SQL text. */
export function assertMetaPath(path: readonly string[]): void {
  path.forEach((p, i) => {
    if (!META_KEY_RE.test(p)) {
      throw new EngramError('VALIDATION', `filter field path segment "${p}" is not allowed`, {
        issues: [{ path: `metadata.${path.slice(0, i + 1).join('.')}`, message: 'letters, digits, "_" and "-" only' }],
      });
    }
  });
}

function fieldSql(leaves: FilterLeaves, field: FieldRef, alias: string): FieldSql {
  if (field.kind === 'meta') {
    assertMetaPath(field.path);
    return leaves.meta(`${alias}.metadata`, field.path);
  }
  const column = `${alias}.${field.name satisfies FilterColumn}`;
  switch (FILTER_COLUMNS[field.name]) {
    case 'string':
      return leaves.string(column);
    case 'time':
    case 'number':
      return leaves.plain(column, 'number');
    case 'boolean':
      return leaves.plain(column, 'boolean');
    case 'array':
      return listColumn(leaves, column);
  }
}

/** A predicate over the docs row aliased `alias` that holds exactly when `matchesFilter(doc, node)` does. */
export function compileFilter(leaves: FilterLeaves, node: FilterNode, alias = 'd'): Sql {
  const walk = (n: FilterNode): Sql => {
    switch (n.op) {
      case 'and':
        return allOf(n.children.map(walk));
      case 'or':
        return anyOf(n.children.map(walk));
      case 'not':
        return not(walk(n.child));
      case 'exists': {
        const f = fieldSql(leaves, n.field, alias);
        return n.value ? f.present : not(f.present);
      }
      case 'in':
      case 'nin': {
        const f = fieldSql(leaves, n.field, alias);
        const hit = n.values.length === 0 ? FALSE_SQL : allOf([f.defined, anyOf(n.values.map((x) => f.eq(x)))]);
        return n.op === 'in' ? hit : not(hit);
      }
      case 'contains': {
        const f = fieldSql(leaves, n.field, alias);
        const each = n.values.map((x) => f.has(x));
        return n.mode === 'all' ? allOf(each) : anyOf(each);
      }
      case 'cmp': {
        const f = fieldSql(leaves, n.field, alias);
        if (n.cmp === 'eq') return f.eq(n.value);
        if (n.cmp === 'ne') return not(f.eq(n.value));
        return n.value === null ? FALSE_SQL : f.order(n.cmp, n.value);
      }
    }
  };
  return walk(node);
}
