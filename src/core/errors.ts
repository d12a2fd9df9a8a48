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

/**
 * The one table from codes to HTTP statuses (REST answers, the typed client maps them back). LIMIT covers
 * both a body that is too large (413) and a rate limit (429, `details.limit === 'rate'`).
 */
export const HTTP_STATUS_BY_CODE: Record<ErrorCode, number | ((e: EngramError) => number)> = {
  VALIDATION: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  // A known path asked with a method it does not serve: 405, with `details.allow` (the Allow header).
  NOT_FOUND: (e) => (e.details.allow ? 405 : 404),
  CONFLICT: 409,
  // LIMIT covers both a body that is too large (413) and a rate limit (429, `details.limit === 'rate'`).
  LIMIT: (e) => (e.details.limit === 'rate' ? 429 : 413),
  BUDGET: 422,
  ADAPTER: 502,
  LLM_OUTPUT: 502,
  UNAVAILABLE: 503,
  CONFIG: 500,
};

export function httpStatusOf(e: EngramError): number {
  const s = HTTP_STATUS_BY_CODE[e.code];
  return typeof s === 'function' ? s(e) : s;
}

/** The code an HTTP status stands for, when an answer carries no code of its own (a proxy's 502, a bare 500). */
export function codeForHttpStatus(status: number): ErrorCode {
  if (status === 429 || status === 413) return 'LIMIT';
  if (status === 405) return 'NOT_FOUND';
  const found = (Object.entries(HTTP_STATUS_BY_CODE) as [ErrorCode, unknown][]).find(([, s]) => s === status);
  if (found) return found[0];
  return status >= 500 ? 'UNAVAILABLE' : 'VALIDATION';
}

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
