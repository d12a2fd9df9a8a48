/**
 * The metadata filter language shared by every adapter.
 *
 *   { "tags": ["policy", "prod_v3"], "pii": false }                 implicit AND; array on `tags` = contains all
 *   { "or": [ { "type": "tool_call" }, { "importance": { "gte": 0.7 } } ] }
 *   { "ts": { "gte": "2025-09-20T00:00:00Z" }, "not": { "source": { "in": ["a.md", "b.md"] } } }
 *   { "task_type": "general_knowledge" }                             unknown keys address `metadata.task_type`
 *
 * Operators: eq ne gt gte lt lte in nin contains (any|all of an array field) exists. Anything else is a
 * VALIDATION error naming the path. Parsing yields a small AST; adapters compile the AST to their query
 * language and `matchesFilter` evaluates it in process, so the semantics are written down once, here.
 */
import { EngramError, type ErrorIssue } from './errors.js';
import { FORBIDDEN_KEY } from './safe-keys.js';
import type { Doc, Json } from './types.js';

export type Scalar = string | number | boolean | null;

/** Document fields a filter can name directly (snake_case, as users write them in JSON). */
export const FILTER_COLUMNS = {
  kind: 'string',
  type: 'string',
  actor: 'string',
  source: 'string',
  section: 'string',
  state_label: 'string',
  user_id: 'string',
  agent_id: 'string',
  session_id: 'string',
  task_id: 'string',
  ts: 'time',
  importance: 'number',
  confidence: 'number',
  pii: 'boolean',
  tags: 'array',
} as const;
export type FilterColumn = keyof typeof FILTER_COLUMNS;

export type FieldRef = { kind: 'column'; name: FilterColumn } | { kind: 'meta'; path: string[] };

export type FilterNode =
  | { op: 'and' | 'or'; children: FilterNode[] }
  | { op: 'not'; child: FilterNode }
  | { op: 'cmp'; field: FieldRef; cmp: 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte'; value: Scalar }
  | { op: 'in' | 'nin'; field: FieldRef; values: Scalar[] }
  | { op: 'contains'; field: FieldRef; values: Scalar[]; mode: 'any' | 'all' }
  | { op: 'exists'; field: FieldRef; value: boolean };

const CMP_OPS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte'] as const;
const ALL_OPS = [...CMP_OPS, 'in', 'nin', 'contains', 'contains_any', 'contains_all', 'exists'] as const;
const META_KEY_RE = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_DEPTH = 12;
const MAX_NODES = 256;

class FilterParser {
  issues: ErrorIssue[] = [];
  nodes = 0;

  parse(input: unknown, path: string, depth: number): FilterNode {
    if (depth > MAX_DEPTH) return this.fail(path, `filter nests deeper than ${MAX_DEPTH}`);
    if (!isPlainObject(input)) return this.fail(path, 'a filter must be an object');
    const children: FilterNode[] = [];
    for (const [key, value] of Object.entries(input)) {
      const at = path ? `${path}.${key}` : key;
      if (++this.nodes > MAX_NODES) return this.fail(at, `filter has more than ${MAX_NODES} conditions`);
      if (key === 'and' || key === 'or') {
        if (!Array.isArray(value) || value.length === 0) {
          children.push(this.fail(at, `${key} takes a non-empty array of filters`));
          continue;
        }
        children.push({ op: key, children: value.map((v, i) => this.parse(v, `${at}.${i}`, depth + 1)) });
      } else if (key === 'not') {
        children.push({ op: 'not', child: this.parse(value, at, depth + 1) });
      } else {
        children.push(this.field(key, value, at));
      }
    }
    if (children.length === 1) return children[0]!;
    return { op: 'and', children };
  }

  private field(key: string, value: unknown, at: string): FilterNode {
    const field = this.fieldRef(key, at);
    if (!field) return TRUE;
    if (isPlainObject(value)) {
      const conds = Object.entries(value).map(([op, v]) => this.operator(field, op, v, `${at}.${op}`));
      if (conds.length === 0) return this.fail(at, 'an operator object needs at least one operator');
      return conds.length === 1 ? conds[0]! : { op: 'and', children: conds };
    }
    if (Array.isArray(value)) {
      const values = this.scalars(value, at);
      return isArrayField(field) ? { op: 'contains', field, values, mode: 'all' } : { op: 'in', field, values };
    }
    if (isArrayField(field)) return { op: 'contains', field, values: [this.scalar(value, at, field)], mode: 'all' };
    return { op: 'cmp', field, cmp: 'eq', value: this.scalar(value, at, field) };
  }

  private operator(field: FieldRef, op: string, v: unknown, at: string): FilterNode {
    if (!(ALL_OPS as readonly string[]).includes(op)) {
      return this.fail(at, `unknown operator "${op}" (allowed: ${ALL_OPS.join(', ')})`);
    }
    if (op === 'exists') {
      if (typeof v !== 'boolean') return this.fail(at, 'exists takes true or false');
      return { op: 'exists', field, value: v };
    }
    if (op === 'in' || op === 'nin') {
      if (!Array.isArray(v)) return this.fail(at, `${op} takes an array`);
      return { op, field, values: this.scalars(v, at, field) };
    }
    if (op.startsWith('contains')) {
      const values = Array.isArray(v) ? this.scalars(v, at, field) : [this.scalar(v, at, field)];
      return { op: 'contains', field, values, mode: op === 'contains_all' ? 'all' : 'any' };
    }
    const cmp = op as (typeof CMP_OPS)[number];
    const value = this.scalar(v, at, field);
    if (cmp !== 'eq' && cmp !== 'ne' && typeof value !== 'number' && typeof value !== 'string') {
      return this.fail(at, `${cmp} compares numbers, times or strings`);
    }
    return { op: 'cmp', field, cmp, value };
  }

  private fieldRef(key: string, at: string): FieldRef | undefined {
    // hasOwn, not `in`: `constructor` or `toString` must not resolve to Object.prototype's members.
    if (Object.hasOwn(FILTER_COLUMNS, key)) return { kind: 'column', name: key as FilterColumn };
    const path = key.startsWith('metadata.') ? key.slice('metadata.'.length).split('.') : [key];
    if (path.includes(FORBIDDEN_KEY)) {
      this.fail(at, '"__proto__" is not allowed as a field name');
      return undefined;
    }
    if (path.some((p) => !META_KEY_RE.test(p))) {
      this.fail(at, 'field names use letters, digits, "_" and "-" (at most 64 characters)');
      return undefined;
    }
    return { kind: 'meta', path };
  }

  private scalars(values: unknown[], at: string, field?: FieldRef): Scalar[] {
    if (values.length > 1000) {
      this.fail(at, 'at most 1000 values');
      return [];
    }
    return values.map((v, i) => this.scalar(v, `${at}.${i}`, field));
  }

  private scalar(v: unknown, at: string, field?: FieldRef): Scalar {
    if (field?.kind === 'column' && FILTER_COLUMNS[field.name] === 'time') return this.time(v, at);
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
    if (typeof v === 'number' && Number.isFinite(v)) return v;
    this.fail(at, 'expected a string, finite number, boolean or null');
    return null;
  }

  private time(v: unknown, at: string): number {
    const ms = typeof v === 'number' ? v : typeof v === 'string' ? Date.parse(v) : NaN;
    if (!Number.isFinite(ms)) this.fail(at, 'expected an ISO-8601 time or epoch milliseconds');
    return ms;
  }

  fail(path: string, message: string): FilterNode {
    this.issues.push({ path, message });
    return TRUE;
  }
}

const TRUE: FilterNode = { op: 'and', children: [] };

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isArrayField(field: FieldRef): boolean {
  return field.kind === 'column' && FILTER_COLUMNS[field.name] === 'array';
}

/** Parses a user filter; throws VALIDATION listing every bad path. `undefined`/`{}` mean no filter. */
export function parseFilter(input: unknown, path = 'filters'): FilterNode | undefined {
  if (input === undefined || input === null) return undefined;
  const parser = new FilterParser();
  const node = parser.parse(input, '', 0);
  if (parser.issues.length > 0) {
    const issues = parser.issues.map((i) => ({ ...i, path: i.path ? `${path}.${i.path}` : path }));
    throw new EngramError('VALIDATION', `invalid filter: ${issues[0]!.path}: ${issues[0]!.message}`, { issues });
  }
  return isEmpty(node) ? undefined : node;
}

export function isEmpty(node: FilterNode | undefined): boolean {
  return node === undefined || (node.op === 'and' && node.children.length === 0);
}

/** The value a field has on a document, as the filter language sees it. */
export function fieldValue(doc: Doc, field: FieldRef): Json | undefined {
  if (field.kind === 'meta') {
    let cur: Json | undefined = doc.metadata;
    for (const p of field.path) {
      if (cur === null || typeof cur !== 'object' || Array.isArray(cur) || !Object.hasOwn(cur, p)) return undefined;
      cur = (cur as Record<string, Json>)[p];
    }
    return cur;
  }
  switch (field.name) {
    case 'user_id':
      return doc.userId;
    case 'agent_id':
      return doc.agentId;
    case 'session_id':
      return doc.sessionId;
    case 'task_id':
      return doc.taskId;
    case 'state_label':
      return doc.stateLabel;
    default:
      return doc[field.name] as Json | undefined;
  }
}

/** In-process evaluation, used for post-filtering and as the reference the adapters' SQL must agree with. */
export function matchesFilter(doc: Doc, node: FilterNode | undefined): boolean {
  if (node === undefined) return true;
  switch (node.op) {
    case 'and':
      return node.children.every((c) => matchesFilter(doc, c));
    case 'or':
      return node.children.some((c) => matchesFilter(doc, c));
    case 'not':
      return !matchesFilter(doc, node.child);
    case 'exists': {
      const v = fieldValue(doc, node.field);
      return (v !== undefined && v !== null) === node.value;
    }
    case 'in':
    case 'nin': {
      const v = fieldValue(doc, node.field);
      const hit = v !== undefined && node.values.some((x) => scalarEquals(v, x));
      return node.op === 'in' ? hit : !hit;
    }
    case 'contains': {
      const v = fieldValue(doc, node.field);
      const arr = Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];
      const has = (x: Scalar) => arr.some((a) => scalarEquals(a, x));
      return node.mode === 'all' ? node.values.every(has) : node.values.some(has);
    }
    case 'cmp':
      return compare(fieldValue(doc, node.field), node.cmp, node.value);
  }
}

function scalarEquals(a: Json | undefined, b: Scalar): boolean {
  if (b === null) return a === null || a === undefined;
  return a === b;
}

function compare(a: Json | undefined, cmp: string, b: Scalar): boolean {
  if (cmp === 'eq') return scalarEquals(a, b);
  if (cmp === 'ne') return !scalarEquals(a, b);
  if (a === undefined || a === null || b === null || typeof a !== typeof b) return false;
  const x = a as number | string;
  const y = b as number | string;
  switch (cmp) {
    case 'gt':
      return x > y;
    case 'gte':
      return x >= y;
    case 'lt':
      return x < y;
    default:
      return x <= y;
  }
}
