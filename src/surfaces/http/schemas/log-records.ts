/**
 * The retrieval log and the audit log as lists: request and response schemas in the wire casing (snake_case
 * keys, ISO-8601 times). Paging is by an opaque `cursor`, the `next_cursor` of the page before.
 */
import { z } from '@hono/zod-openapi';
import { OUTCOMES } from '../../../core/types.js';
import { JsonValue } from './json.js';
import { RetrievedItemSchema } from './learn-records.js';
import { intQuery } from './learn-requests.js';

const isoTime = z.string().openapi({ format: 'date-time', example: '2025-09-21T10:15:00.000Z' });
const tenantField = z.string().min(1).max(200).optional().openapi({ description: "optional; if given it must be the key's own tenant (else 403)" });
const timeQuery = z.string().min(1).max(40).openapi({ description: 'ISO-8601 or epoch milliseconds' });
const nextCursor = z.string().nullable().openapi({ description: 'pass as cursor for the next page; null on the last page' });

export const auditListQuery = z
  .object({
    tenant: tenantField,
    limit: intQuery(1, 1000, 'default 100').optional(),
    cursor: z.string().min(1).max(80).optional().openapi({ description: 'next_cursor of the previous page' }),
  })
  .strict();

export const AuditListSchema = z
  .object({
    audit: z.array(
      z
        .object({
          id: z.string().openapi({ example: 'aud_01J8ZK3V6W9X2Y4Z5A6B7C8D9E' }),
          at: isoTime,
          action: z.enum(['redact', 'forget', 'sweep', 'pii_scrub', 'import']),
          target_ids: z.array(z.string()).openapi({ description: 'ids the action touched (never their content)' }),
          details: z.record(z.string(), JsonValue).openapi({ description: 'e.g. the reason of a redaction, the counts of a forget' }),
        })
        .strict(),
    ),
    next_cursor: nextCursor,
  })
  .openapi('AuditList');

export const retrievalListQuery = z
  .object({
    tenant: tenantField,
    limit: intQuery(1, 500, 'default 50').optional(),
    cursor: z.string().min(1).max(80).optional().openapi({ description: 'next_cursor of the previous page' }),
    since: timeQuery.optional(),
    until: timeQuery.optional(),
  })
  .strict();

export const RetrievalSummarySchema = z
  .object({
    id: z.string().openapi({ example: 'ret_01J8ZK3V6W9X2Y4Z5A6B7C8D9E' }),
    query: z.string(),
    created_at: isoTime,
    item_ids: z.array(z.string()).openapi({ description: 'what the retrieval handed out, in order' }),
    items: z
      .array(RetrievedItemSchema)
      .optional()
      .openapi({ description: 'each item with its section and score breakdown (absent on records written before it was kept)' }),
    config: JsonValue.optional().openapi({ description: 'the resolved retrieval config' }),
    outcomes: z
      .array(
        z
          .object({
            event_id: z.string(),
            at: isoTime,
            outcome: z.enum(OUTCOMES).optional(),
            type: z.enum(['outcome', 'correction']),
            text: z.string().openapi({ description: 'the outcome or correction as logged' }),
          })
          .strict(),
      )
      .openapi({ description: 'outcomes and corrections recorded against this retrieval (POST /v1/outcomes), oldest first' }),
  })
  .strict()
  .openapi('RetrievalSummary');

export const RetrievalListSchema = z.object({ retrievals: z.array(RetrievalSummarySchema), next_cursor: nextCursor }).openapi('RetrievalList');
