/**
 * One error type for the whole engine. Surfaces (REST, MCP, CLI) map `code` to a status in one table.
 */
export const ERROR_CODES = [
  'CONFIG',
  'VALIDATION',
  'NOT_FOUND',
  'CONFLICT',
  'ADAPTER',
  'LLM_OUTPUT',
  'BUDGET',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'LIMIT',
  'UNAVAILABLE',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorIssue {
  /** Dotted path of the offending field, e.g. `semantic_retrieval.top_k`. Empty for the whole input. */
  path: string;
  message: string;
}

export class EngramError extends Error {
  readonly code: ErrorCode;
  readonly issues: readonly ErrorIssue[];
  readonly details: Readonly<Record<string, unknown>>;

  constructor(
    code: ErrorCode,
    message: string,
    opts: { issues?: ErrorIssue[]; details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'EngramError';
    this.code = code;
    this.issues = opts.issues ?? [];
    this.details = opts.details ?? {};
  }

  toJSON(): { code: ErrorCode; message: string; issues: readonly ErrorIssue[]; details: Readonly<Record<string, unknown>> } {
    return { code: this.code, message: this.message, issues: this.issues, details: this.details };
  }
}

export function isEngramError(e: unknown, code?: ErrorCode): e is EngramError {
  return e instanceof EngramError && (code === undefined || e.code === code);
}

/** Wraps an unknown failure from a driver or remote service, keeping the original as `cause`. */
export function adapterError(what: string, cause: unknown): EngramError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new EngramError('ADAPTER', `${what}: ${reason}`, { cause });
}
