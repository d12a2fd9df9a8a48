/**
 * Compiles the filter AST (`src/core/filter.ts`) to a parameterised SQL predicate over the `docs` table.
 * `matchesFilter` is the reference: every leaf below mirrors one branch of it, and `filter-sql.test.ts`
 * checks the two agree on random docs and random filter trees.
 *
 * Every emitted predicate evaluates to 0 or 1, never NULL, so `NOT` and `OR` behave as in JavaScript
 * (SQL's three-valued logic would otherwise turn `NOT (missing = 'x')` into NULL → no row).
 * Values are matched by JSON type (text vs number vs boolean), never by SQLite's affinity conversions.
 */
import { EngramError } from '../../../core/errors.js';
import { FILTER_COLUMNS, type FieldRef, type FilterColumn, type FilterNode, type Scalar } from '../../../core/filter.js';
import { joinSql, sql, type Sql } from './sql.js';

const FALSE: Sql = sql('0');
const TRUE: Sql = sql('1');
const ORDER_OPS = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;
type OrderCmp = keyof typeof ORDER_OPS;
const META_KEY_RE = /^[A-Za-z0-9_-]{1,64}$/;

/** How one field is read in SQL; each method mirrors the JavaScript semantics of `matchesFilter`. */
interface FieldSql {
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

const bind = (x: string | number | boolean): string | number => (typeof x === 'boolean' ? (x ? 1 : 0) : x);

/** An element of a `json_each` row equal to x (JSON type first, then value). */
function elementEq(je: string, x: Scalar): Sql {
  if (x === null) return sql(`${je}.type = 'null'`);
  if (typeof x === 'boolean') return sql(`${je}.type = '${x ? 'true' : 'false'}'`);
  if (typeof x === 'number') return sql(`${je}.type IN ('integer', 'real') AND ${je}.atom = ?`, x);
  return sql(`${je}.type = 'text' AND ${je}.atom = ?`, x);
}

function stringColumn(c: string): FieldSql {
  return {
    defined: sql(`${c} IS NOT NULL`),
    present: sql(`${c} IS NOT NULL`),
    eq: (x) => (x === null ? sql(`${c} IS NULL`) : typeof x === 'string' ? sql(`${c} IS ?`, x) : FALSE),
    order: (cmp, x) => (typeof x === 'string' ? sql(`${c} IS NOT NULL AND engram_cmp(${c}, ?) ${ORDER_OPS[cmp]} 0`, x) : FALSE),
    has: (x) => (typeof x === 'string' ? sql(`${c} IS ?`, x) : FALSE),
  };
}

/** NOT NULL numeric columns (ts, importance, confidence). */
function numberColumn(c: string): FieldSql {
  const eq = (x: Scalar): Sql => (typeof x === 'number' ? sql(`${c} = ?`, x) : FALSE);
  return {
    defined: TRUE,
    present: TRUE,
    eq,
    order: (cmp, x) => (typeof x === 'number' ? sql(`${c} ${ORDER_OPS[cmp]} ?`, x) : FALSE),
    has: eq,
  };
}

/** NOT NULL 0/1 column (pii). JavaScript orders false < true, as 0 < 1. */
function booleanColumn(c: string): FieldSql {
  const eq = (x: Scalar): Sql => (typeof x === 'boolean' ? sql(`${c} = ?`, bind(x)) : FALSE);
  return {
    defined: TRUE,
    present: TRUE,
    eq,
    order: (cmp, x) => (typeof x === 'boolean' ? sql(`${c} ${ORDER_OPS[cmp]} ?`, bind(x)) : FALSE),
    has: eq,
  };
}

/** NOT NULL JSON array column (tags): never equal to a scalar, never ordered; contains looks inside. */
function arrayColumn(c: string): FieldSql {
  return {
    defined: TRUE,
    present: TRUE,
    eq: () => FALSE,
    order: () => FALSE,
    has: (x) => {
      const e = elementEq('je', x);
      return { text: `EXISTS (SELECT 1 FROM json_each(${c}) AS je WHERE ${e.text})`, params: e.params };
    },
  };
}

/** A metadata path, read with json_type (to tell missing, null, text, number, boolean, array, object apart). */
function metaField(column: string, path: readonly string[]): FieldSql {
  path.forEach((p, i) => {
    if (!META_KEY_RE.test(p)) {
      throw new EngramError('VALIDATION', `filter field path segment "${p}" is not allowed`, {
        issues: [{ path: `metadata.${path.slice(0, i + 1).join('.')}`, message: 'letters, digits, "_" and "-" only' }],
      });
    }
  });
  const jsonPath = '$' + path.map((p) => `."${p}"`).join('');
  const jt = `COALESCE(json_type(${column}, ?), 'missing')`;
  const v = `json_extract(${column}, ?)`;
  const eq = (x: Scalar): Sql => {
    if (x === null) return sql(`${jt} IN ('missing', 'null')`, jsonPath);
    if (typeof x === 'boolean') return sql(`${jt} = '${x ? 'true' : 'false'}'`, jsonPath);
    if (typeof x === 'number') return sql(`${jt} IN ('integer', 'real') AND ${v} = ?`, jsonPath, jsonPath, x);
    return sql(`${jt} = 'text' AND ${v} = ?`, jsonPath, jsonPath, x);
  };
  return {
    defined: sql(`${jt} <> 'missing'`, jsonPath),
    present: sql(`${jt} NOT IN ('missing', 'null')`, jsonPath),
    eq,
    order: (cmp, x) => {
      const op = ORDER_OPS[cmp];
      if (typeof x === 'number') return sql(`${jt} IN ('integer', 'real') AND ${v} ${op} ?`, jsonPath, jsonPath, x);
      if (typeof x === 'boolean') return sql(`${jt} IN ('true', 'false') AND ${v} ${op} ?`, jsonPath, jsonPath, bind(x));
      return sql(`${jt} = 'text' AND engram_cmp(${v}, ?) ${op} 0`, jsonPath, jsonPath, x);
    },
    has: (x) => {
      const e = elementEq('je', x);
      const inArray: Sql = {
        text: `${jt} = 'array' AND EXISTS (SELECT 1 FROM json_each(${column}, ?) AS je WHERE ${e.text})`,
        params: [jsonPath, jsonPath, ...e.params],
      };
      // A scalar value counts as a one-element array; null and missing as an empty one.
      return x === null ? inArray : anyOf([inArray, eq(x)]);
    },
  };
}

function fieldSql(field: FieldRef, alias: string): FieldSql {
  if (field.kind === 'meta') return metaField(`${alias}.metadata`, field.path);
  const column = `${alias}.${field.name satisfies FilterColumn}`;
  switch (FILTER_COLUMNS[field.name]) {
    case 'string':
      return stringColumn(column);
    case 'time':
    case 'number':
      return numberColumn(column);
    case 'boolean':
      return booleanColumn(column);
    case 'array':
      return arrayColumn(column);
  }
}

const wrap = (s: Sql): Sql => ({ text: `(${s.text})`, params: s.params });
const not = (s: Sql): Sql => ({ text: `NOT (${s.text})`, params: s.params });

function allOf(parts: readonly Sql[]): Sql {
  return parts.length === 0 ? TRUE : joinSql(parts.map(wrap), ' AND ');
}

function anyOf(parts: readonly Sql[]): Sql {
  return parts.length === 0 ? FALSE : joinSql(parts.map(wrap), ' OR ');
}

/** A predicate over the docs row aliased `alias` that holds exactly when `matchesFilter(doc, node)` does. */
export function compileFilter(node: FilterNode, alias = 'd'): Sql {
  switch (node.op) {
    case 'and':
      return allOf(node.children.map((c) => compileFilter(c, alias)));
    case 'or':
      return anyOf(node.children.map((c) => compileFilter(c, alias)));
    case 'not':
      return not(compileFilter(node.child, alias));
    case 'exists': {
      const f = fieldSql(node.field, alias);
      return node.value ? f.present : not(f.present);
    }
    case 'in':
    case 'nin': {
      const f = fieldSql(node.field, alias);
      const hit = node.values.length === 0 ? FALSE : allOf([f.defined, anyOf(node.values.map((x) => f.eq(x)))]);
      return node.op === 'in' ? hit : not(hit);
    }
    case 'contains': {
      const f = fieldSql(node.field, alias);
      const each = node.values.map((x) => f.has(x));
      return node.mode === 'all' ? allOf(each) : anyOf(each);
    }
    case 'cmp': {
      const f = fieldSql(node.field, alias);
      if (node.cmp === 'eq') return f.eq(node.value);
      if (node.cmp === 'ne') return not(f.eq(node.value));
      return node.value === null ? FALSE : f.order(node.cmp, node.value);
    }
  }
}
