import { z } from 'zod';
import { EngramError } from './errors.js';

/** Formats a zod issue path as `a.b.0.c`. */
export function issuePath(prefix: string, path: readonly PropertyKey[]): string {
  const tail = path.map(String).join('.');
  if (!prefix) return tail;
  return tail ? `${prefix}.${tail}` : prefix;
}

/**
 * Parses `input` with `schema`, throwing one VALIDATION (or CONFIG) error that names every failing path.
 * The single place where zod errors become EngramErrors.
 */
export function parseWith<S extends z.ZodType>(
  schema: S,
  input: unknown,
  opts: { what: string; prefix?: string; code?: 'VALIDATION' | 'CONFIG' } = { what: 'input' },
): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => ({
    path: issuePath(opts.prefix ?? '', i.path),
    message: describeIssue(i, input),
  }));
  const first = issues[0]!;
  throw new EngramError(opts.code ?? 'VALIDATION', `invalid ${opts.what}: ${first.path || '(root)'}: ${first.message}`, {
    issues,
  });
}

/** A zod issue's message as Engram reports it; `input` is what was parsed (to tell a field left out). */
export function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  if (issue.code === 'unrecognized_keys') return `unknown field(s): ${issue.keys.join(', ')}`;
  // A field left out says so, rather than zod's "expected string, received undefined".
  if (issue.code === 'invalid_type' && issue.path.length > 0 && valueAt(input, issue.path) === undefined) return 'required';
  return issue.message;
}

/** The value at a zod issue path of the input, or undefined when the path leaves it. */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let cur = input;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, key)) return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

/** A time as callers write it: epoch milliseconds, an ISO-8601 string or a Date; parsed to epoch ms. */
export const timeInput = z.union([z.number().finite(), z.string().min(1), z.date()]).transform((v, ctx) => {
  const ms = typeof v === 'number' ? v : v instanceof Date ? v.getTime() : Date.parse(v);
  if (!Number.isFinite(ms) || ms < 0 || ms > 8.64e15) {
    ctx.addIssue({ code: 'custom', message: 'expected an ISO-8601 time or epoch milliseconds' });
    return z.NEVER;
  }
  return ms;
});
