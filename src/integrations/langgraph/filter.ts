/**
 * LangGraph's search filter (`{ field: value }` or `{ field: { $eq|$ne|$gt|$gte|$lt|$lte|$in|$nin: v } }` over the
 * value's top-level fields), with LangGraph's semantics, plus the part of it Engram's own filter language can
 * evaluate in storage. The pushed-down part only ever narrows to a superset of the true matches; `matchesFilter`
 * then decides exactly, so both paths agree.
 */
import { EngramError } from '../../core/errors.js';

const OPERATORS = ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin'] as const;
type Operator = (typeof OPERATORS)[number];
type Condition = { field: string; op: Operator; value: unknown };

const META_KEY_RE = /^[A-Za-z0-9_-]{1,64}$/;

/** Parses a filter into conditions; an object whose keys all start with "$" must use known operators. */
export function parseItemFilter(filter: unknown): Condition[] {
  if (filter === undefined || filter === null) return [];
  if (typeof filter !== 'object' || Array.isArray(filter)) throw invalid('filter', 'an object of field conditions');
  const conditions: Condition[] = [];
  for (const [field, cond] of Object.entries(filter)) {
    if (isOperatorObject(cond)) {
      for (const [op, value] of Object.entries(cond)) {
        if (!(OPERATORS as readonly string[]).includes(op)) throw invalid(`filter.${field}.${op}`, `unknown operator (allowed: ${OPERATORS.join(', ')})`);
        if ((op === '$in' || op === '$nin') && !Array.isArray(value)) throw invalid(`filter.${field}.${op}`, `${op} takes an array`);
        conditions.push({ field, op: op as Operator, value });
      }
    } else {
      conditions.push({ field, op: '$eq', value: cond });
    }
  }
  return conditions;
}

function isOperatorObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const keys = Object.keys(v);
  return keys.length > 0 && keys.every((k) => k.startsWith('$'));
}

function invalid(path: string, message: string): EngramError {
  return new EngramError('VALIDATION', `invalid ${path}: ${message}`, { issues: [{ path, message }] });
}

export function matchesFilter(value: Record<string, unknown>, conditions: readonly Condition[]): boolean {
  return conditions.every((c) => holds(value[c.field], c));
}

function holds(actual: unknown, c: Condition): boolean {
  switch (c.op) {
    case '$eq':
      return equal(actual, c.value);
    case '$ne':
      return !equal(actual, c.value);
    case '$gt':
      return Number(actual) > Number(c.value);
    case '$gte':
      return Number(actual) >= Number(c.value);
    case '$lt':
      return Number(actual) < Number(c.value);
    case '$lte':
      return Number(actual) <= Number(c.value);
    case '$in':
      return (c.value as unknown[]).some((v) => equal(actual, v));
    case '$nin':
      return !(c.value as unknown[]).some((v) => equal(actual, v));
  }
}

/** Scalars by identity (as LangGraph does); objects and arrays by their JSON, which LangGraph never matches. */
function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

const isScalar = (v: unknown): v is string | number | boolean => typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/**
 * The conditions Engram's storage filter evaluates with the same result (equality and membership over
 * non-null scalars), addressed at `metadata.lg_value.<field>`. Ordering operators stay in process: LangGraph
 * compares with Number() coercion, which a storage filter does not.
 */
export function pushdownFilter(conditions: readonly Condition[]): Record<string, unknown> {
  const out: Record<string, unknown>[] = [];
  for (const c of conditions) {
    if (!META_KEY_RE.test(c.field)) continue;
    const at = `metadata.lg_value.${c.field}`;
    if (c.op === '$eq' && isScalar(c.value)) out.push({ [at]: { eq: c.value } });
    else if (c.op === '$ne' && isScalar(c.value)) out.push({ [at]: { ne: c.value } });
    else if (c.op === '$in' && (c.value as unknown[]).every(isScalar)) out.push({ [at]: { in: c.value } });
  }
  return out.length === 0 ? {} : { and: out };
}

export function hasUnpushedConditions(conditions: readonly Condition[]): boolean {
  const pushed = (c: Condition) =>
    META_KEY_RE.test(c.field) && (((c.op === '$eq' || c.op === '$ne') && isScalar(c.value)) || (c.op === '$in' && (c.value as unknown[]).every(isScalar)));
  return conditions.some((c) => !pushed(c));
}
