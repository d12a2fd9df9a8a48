/**
 * Compiles the filter AST (`src/core/filter.ts`) to a parameterised PostgreSQL predicate over the `docs`
 * table. `matchesFilter` is the reference: every leaf mirrors one branch of it, and `filter-sql.test.ts`
 * checks the two agree on random docs and random filter trees.
 *
 * Every emitted predicate is TRUE or FALSE, never NULL (leaves are wrapped in COALESCE or CASE), so NOT and
 * OR behave as in JavaScript. Metadata values are matched by JSON type first (jsonb_typeof), then value;
 * casts sit inside CASE so a string is never cast to a number. Paths walk objects only (`->` with a text
 * key is NULL on arrays and scalars, as `fieldValue` is undefined there). Strings are ordered as
 * JavaScript orders them (UTF-16 code units) through `engram.utf16_key` and the "C" collation.
 */
import { EngramError } from '../../../core/errors.js';
import { FILTER_COLUMNS, type FieldRef, type FilterColumn, type FilterNode, type Scalar } from '../../../core/filter.js';
import { allOf, anyOf, FALSE_SQL, sql, TRUE_SQL, type Sql } from './sql.js';

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
  /** Whether the array view of v (array → itself, undefined/null → [], scalar → [v]) holds x. */
  has(x: Scalar): Sql;
}

const coalesce = (s: Sql): Sql => ({ text: `COALESCE((${s.text}), FALSE)`, params: s.params });
const utf16Order = (left: string, cmp: OrderCmp): string => `engram.utf16_key(${left}) COLLATE "C" ${ORDER_OPS[cmp]} engram.utf16_key(?::text)`;

function stringColumn(c: string): FieldSql {
  const eq = (x: Scalar): Sql => (x === null ? sql(`${c} IS NULL`) : typeof x === 'string' ? coalesce(sql(`${c} = ?::text`, x)) : FALSE_SQL);
  return {
    defined: sql(`${c} IS NOT NULL`),
    present: sql(`${c} IS NOT NULL`),
    eq,
    order: (cmp, x) => (typeof x === 'string' ? coalesce(sql(utf16Order(c, cmp), x)) : FALSE_SQL),
    has: (x) => (typeof x === 'string' ? eq(x) : FALSE_SQL),
  };
}

/** NOT NULL double precision columns (ts, importance, confidence). */
function numberColumn(c: string): FieldSql {
  const eq = (x: Scalar): Sql => (typeof x === 'number' ? sql(`${c} = ?::float8`, x) : FALSE_SQL);
  return {
    defined: TRUE_SQL,
    present: TRUE_SQL,
    eq,
    order: (cmp, x) => (typeof x === 'number' ? sql(`${c} ${ORDER_OPS[cmp]} ?::float8`, x) : FALSE_SQL),
    has: eq,
  };
}

/** NOT NULL boolean column (pii). PostgreSQL orders false < true, as JavaScript does. */
function booleanColumn(c: string): FieldSql {
  const eq = (x: Scalar): Sql => (typeof x === 'boolean' ? sql(`${c} = ?::boolean`, x) : FALSE_SQL);
  return {
    defined: TRUE_SQL,
    present: TRUE_SQL,
    eq,
    order: (cmp, x) => (typeof x === 'boolean' ? sql(`${c} ${ORDER_OPS[cmp]} ?::boolean`, x) : FALSE_SQL),
    has: eq,
  };
}

/** NOT NULL text[] column (tags): never equal to a scalar, never ordered; contains looks inside. */
function arrayColumn(c: string): FieldSql {
  return {
    defined: TRUE_SQL,
    present: TRUE_SQL,
    eq: () => FALSE_SQL,
    order: () => FALSE_SQL,
    has: (x) => (typeof x === 'string' ? sql(`${c} @> ARRAY[?::text]`, x) : FALSE_SQL),
  };
}

function assertPath(path: readonly string[]): void {
  path.forEach((p, i) => {
    if (!META_KEY_RE.test(p)) {
      throw new EngramError('VALIDATION', `filter field path segment "${p}" is not allowed`, {
        issues: [{ path: `metadata.${path.slice(0, i + 1).join('.')}`, message: 'letters, digits, "_" and "-" only' }],
      });
    }
  });
}

/**
 * A metadata path: `metadata -> 'k1' -> 'k2'`. The keys are spliced as literals, which is safe because
 * `assertPath` admits only letters, digits, "_" and "-"; values are always parameters.
 */
function metaField(column: string, path: readonly string[]): FieldSql {
  assertPath(path);
  const val = `(${column}${path.map((p) => ` -> '${p}'`).join('')})`;
  const v = (text: (value: string) => string, ...params: Sql['params']): Sql => ({ text: text(val), params });
  const typed = (type: string, then: (value: string) => string, ...params: Sql['params']): Sql =>
    v((x) => `CASE WHEN jsonb_typeof(${x}) = '${type}' THEN ${then(x)} ELSE FALSE END`, ...params);
  const eq = (x: Scalar): Sql => {
    if (x === null) return v((val) => `(${val} IS NULL OR ${val} = 'null'::jsonb)`);
    return coalesce(v((val) => `${val} = ?::jsonb`, JSON.stringify(x)));
  };
  return {
    defined: v((x) => `${x} IS NOT NULL`),
    present: coalesce(v((x) => `jsonb_typeof(${x}) <> 'null'`)),
    eq,
    order: (cmp, x) => {
      const op = ORDER_OPS[cmp];
      if (typeof x === 'number') return typed('number', (val) => `(${val})::float8 ${op} ?::float8`, x);
      if (typeof x === 'boolean') return typed('boolean', (val) => `(${val})::boolean ${op} ?::boolean`, x);
      return typed('string', (val) => utf16Order(`(${val} #>> '{}')`, cmp), x);
    },
    has: (x) => {
      const inArray = typed('array', (val) => `EXISTS (SELECT 1 FROM jsonb_array_elements(${val}) AS je(e) WHERE je.e = ?::jsonb)`, JSON.stringify(x));
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

const not = (s: Sql): Sql => ({ text: `NOT (${s.text})`, params: s.params });

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
      const hit = node.values.length === 0 ? FALSE_SQL : allOf([f.defined, anyOf(node.values.map((x) => f.eq(x)))]);
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
      return node.value === null ? FALSE_SQL : f.order(node.cmp, node.value);
    }
  }
}
