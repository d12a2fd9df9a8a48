import type { z } from 'zod';
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
    message: describeIssue(i),
  }));
  const first = issues[0]!;
  throw new EngramError(opts.code ?? 'VALIDATION', `invalid ${opts.what}: ${first.path || '(root)'}: ${first.message}`, {
    issues,
  });
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return `unknown field(s): ${issue.keys.join(', ')}`;
  return issue.message;
}
