/** Response-object helpers so every route documents its success body and the shared error responses. */
import type { z } from '@hono/zod-openapi';
import { ErrorSchema } from './records.js';

export function json<S extends z.ZodType>(schema: S, description: string) {
  return { content: { 'application/json': { schema } }, description };
}

export function jsonBody<S extends z.ZodType>(schema: S, description?: string) {
  return { content: { 'application/json': { schema } }, required: true, ...(description ? { description } : {}) };
}

const error = (description: string) => json(ErrorSchema, description);

/** The error responses every authenticated route can give (see errors.ts for the code → status table). */
export const commonErrors = {
  400: error('VALIDATION: the body names each failing field path in `error.issues`'),
  401: error('UNAUTHORIZED: missing, unknown or revoked API key'),
  403: error("FORBIDDEN: wrong key role, or the request names another tenant"),
  413: error('LIMIT: request body too large'),
  429: error('LIMIT: rate limit for this key; see the retry-after header'),
  500: error('internal error (no details; see the server log by request id)'),
  502: error('ADAPTER: a storage or model backend failed'),
  503: error('UNAVAILABLE: shutting down or a backend is busy'),
} as const;

export const notFound = { 404: error('NOT_FOUND: no such record for this tenant') } as const;
export const conflict = { 409: error('CONFLICT: an id was reused with different content') } as const;
