/**
 * PostgreSQL's leaves of the shared filter compiler (`../sql/filter-compiler.ts`). Leaves are wrapped in
 * COALESCE or CASE so they are never NULL. Metadata values are matched by JSON type first (jsonb_typeof), then
 * value; casts sit inside CASE so a string is never cast to a number. Paths walk objects only (`->` with a
 * text key is NULL on arrays and scalars, as `fieldValue` is undefined there). Strings are ordered as
 * JavaScript orders them (UTF-16 code units) through `engram.utf16_key` and the "C" collation.
 */
import type { Scalar } from '../../../core/filter.js';
import { compilerFor, ORDER_OPS, type FieldSql, type FilterLeaves, type OrderCmp } from '../sql/filter-compiler.js';
import { anyOf, FALSE_SQL, sql, TRUE_SQL, type Sql } from '../sql/fragment.js';

const coalesce = (s: Sql): Sql => ({ text: `COALESCE((${s.text}), FALSE)`, params: s.params });
const utf16Order = (left: string, cmp: OrderCmp): string => `engram.utf16_key(${left}) COLLATE "C" ${ORDER_OPS[cmp]} engram.utf16_key(?::text)`;

/** A NOT NULL column of one SQL type compared by `=` and ordered by SQL's operators (PostgreSQL orders false < true). */
function plainColumn(c: string, type: 'number' | 'boolean'): FieldSql {
  const cast = type === 'number' ? 'float8' : 'boolean';
  const eq = (x: Scalar): Sql => (typeof x === type ? sql(`${c} = ?::${cast}`, x) : FALSE_SQL);
  return {
    defined: TRUE_SQL,
    present: TRUE_SQL,
    eq,
    order: (cmp, x) => (typeof x === type ? sql(`${c} ${ORDER_OPS[cmp]} ?::${cast}`, x) : FALSE_SQL),
    has: eq,
  };
}

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

/** `metadata -> 'k1' -> 'k2'`: the keys are spliced as literals (checked by `assertMetaPath`); values are parameters. */
function metaField(column: string, path: readonly string[]): FieldSql {
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

export const POSTGRES_FILTER_LEAVES: FilterLeaves = {
  string: stringColumn,
  plain: plainColumn,
  listHas: (c, x) => (typeof x === 'string' ? sql(`${c} @> ARRAY[?::text]`, x) : FALSE_SQL),
  meta: metaField,
};

/** A predicate over the docs row aliased `alias` that holds exactly when `matchesFilter(doc, node)` does. */
export const compileFilter = compilerFor(POSTGRES_FILTER_LEAVES);
