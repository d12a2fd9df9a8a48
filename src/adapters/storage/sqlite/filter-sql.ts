/**
 * SQLite's leaves of the shared filter compiler (`../sql/filter-compiler.ts`). Values are matched by JSON
 * type (text vs number vs boolean) through `json_type`, never by SQLite's affinity conversions; strings are
 * ordered as JavaScript orders them through the `engram_cmp` function registered on the connection.
 */
import type { Scalar } from '../../../core/filter.js';
import { compilerFor, ORDER_OPS, type FieldSql, type FilterLeaves } from '../sql/filter-compiler.js';
import { anyOf, FALSE_SQL, sql, TRUE_SQL, type Sql } from '../sql/fragment.js';

const bind = (x: string | number | boolean): string | number => (typeof x === 'boolean' ? (x ? 1 : 0) : x);

/** An element of a `json_each` row equal to x (JSON type first, then value). */
function elementEq(je: string, x: Scalar): Sql {
  if (x === null) return sql(`${je}.type = 'null'`);
  if (typeof x === 'boolean') return sql(`${je}.type = '${x ? 'true' : 'false'}'`);
  if (typeof x === 'number') return sql(`${je}.type IN ('integer', 'real') AND ${je}.atom = ?`, x);
  return sql(`${je}.type = 'text' AND ${je}.atom = ?`, x);
}

/** A NOT NULL column compared by `=` and ordered by SQL's operators, for values of one JavaScript type. */
function plainColumn(c: string, type: 'number' | 'boolean'): FieldSql {
  const eq = (x: Scalar): Sql => (typeof x === type ? sql(`${c} = ?`, bind(x as number | boolean)) : FALSE_SQL);
  return {
    defined: TRUE_SQL,
    present: TRUE_SQL,
    eq,
    order: (cmp, x) => (typeof x === type ? sql(`${c} ${ORDER_OPS[cmp]} ?`, bind(x)) : FALSE_SQL),
    has: eq,
  };
}

function metaField(column: string, path: readonly string[]): FieldSql {
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

export const SQLITE_FILTER_LEAVES: FilterLeaves = {
  string: (c) => ({
    defined: sql(`${c} IS NOT NULL`),
    present: sql(`${c} IS NOT NULL`),
    eq: (x) => (x === null ? sql(`${c} IS NULL`) : typeof x === 'string' ? sql(`${c} IS ?`, x) : FALSE_SQL),
    order: (cmp, x) => (typeof x === 'string' ? sql(`${c} IS NOT NULL AND engram_cmp(${c}, ?) ${ORDER_OPS[cmp]} 0`, x) : FALSE_SQL),
    has: (x) => (typeof x === 'string' ? sql(`${c} IS ?`, x) : FALSE_SQL),
  }),
  plain: plainColumn,
  listHas: (c, x) => {
    const e = elementEq('je', x);
    return { text: `EXISTS (SELECT 1 FROM json_each(${c}) AS je WHERE ${e.text})`, params: e.params };
  },
  meta: metaField,
};

/** A predicate over the docs row aliased `alias` that holds exactly when `matchesFilter(doc, node)` does. */
export const compileFilter = compilerFor(SQLITE_FILTER_LEAVES);
