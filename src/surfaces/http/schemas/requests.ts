/**
 * Request schemas. Bodies that the library already defines are the library's schemas (events, facts, the
 * seed-000 context config), so `/openapi.json` documents exactly what is enforced. Snake_case scope keys
 * (`user_id`, `session_id`, …) are accepted as aliases in bodies, as in the library's JSON edges.
 * The query and forget schemas mirror `memory-queries.ts`, whose schemas are not exported; the library
 * validates again behind them, so a drift can only make the HTTP layer stricter, never looser.
 */
import { z } from '@hono/zod-openapi';
import { contextConfigSchema, conversationSchema } from '../../../core/config.js';
import { ID_PREFIX, type IdKind } from '../../../core/ids.js';
import { DOC_KINDS, EVENT_TYPES } from '../../../core/types.js';
import { eventInputSchema, factInputSchema, normalizeKeys } from '../../../write/input.js';
import './json.js';

const ULID = '[0-9A-HJKMNP-TV-Z]{26}';
const scopeId = z.string().min(1).max(200);
const tenantField = scopeId.optional().openapi({ description: "optional; if given it must be the key's own tenant (else 403)" });
const filterField = z
  .record(z.string(), z.unknown())
  .optional()
  .openapi({ description: 'metadata filter (docs/filters.md), e.g. {"tags":["policy"],"importance":{"gte":0.5}}' });

/** The write bodies depend on the engine's limits; built once per app so each is one named component. */
export function writeBodies(limits: { maxContentChars: number; maxBatch: number }) {
  const event = z.preprocess(normalizeKeys, eventInputSchema(limits.maxContentChars)).openapi('EventInput');
  return {
    event,
    eventBatch: z.object({ events: z.array(event).min(1).max(limits.maxBatch) }).strict().openapi('EventBatchInput'),
    fact: z.preprocess(normalizeKeys, factInputSchema(limits.maxContentChars)).openapi('FactInput'),
  };
}

const scopeShape = {
  tenant: tenantField,
  userId: scopeId.optional(),
  agentId: scopeId.optional(),
  sessionId: scopeId.optional(),
  taskId: scopeId.optional(),
};

/** POST /v1/events/query: the library's fetchEvents input. */
export const eventsQueryBody = z
  .preprocess(
    normalizeKeys,
    z
      .object({
        ...scopeShape,
        lastN: z.number().int().min(1).max(10_000).optional().openapi({ description: 'the last N events, in chronological order' }),
        sinceMinutes: z.number().positive().max(1e8).optional(),
        since: z.union([z.number(), z.string().min(1)]).optional().openapi({ description: 'ISO-8601 or epoch ms; ts >= since' }),
        until: z.union([z.number(), z.string().min(1)]).optional().openapi({ description: 'ISO-8601 or epoch ms; ts < until' }),
        types: z.array(z.enum(EVENT_TYPES)).optional(),
        tags: z.array(z.string().min(1).max(100)).max(64).optional().openapi({ description: 'events carrying all of these tags' }),
        filter: filterField,
        afterSeq: z.number().int().min(0).optional().openapi({ description: 'paging: events after this seq' }),
        limit: z.number().int().min(1).max(10_000).optional(),
      })
      .strict(),
  )
  .openapi('EventQuery');

/** Whole numbers in a query string. */
function intParam(min: number, max: number) {
  return z
    .string()
    .regex(/^\d{1,12}$/, 'expected a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
}

/** A query parameter that may repeat (`?type=a&type=b`). */
function repeated<T extends z.ZodType<string>>(item: T) {
  return z.union([item, z.array(item).max(64)]).transform((v) => (Array.isArray(v) ? v : [v]));
}

/** GET /v1/events: the simple filters as query parameters (complex filters: POST /v1/events/query). */
export const eventsListQuery = z
  .object({
    tenant: tenantField,
    userId: scopeId.optional(),
    agentId: scopeId.optional(),
    sessionId: scopeId.optional(),
    taskId: scopeId.optional(),
    type: repeated(z.enum(EVENT_TYPES)).optional().openapi({ description: 'event type; repeat for several' }),
    tag: repeated(z.string().min(1).max(100)).optional().openapi({ description: 'tag; repeat to require several' }),
    since: z.string().min(1).max(40).optional().openapi({ description: 'ISO-8601 or epoch ms' }),
    until: z.string().min(1).max(40).optional().openapi({ description: 'ISO-8601 or epoch ms' }),
    sinceMinutes: intParam(1, 100_000_000).optional(),
    lastN: intParam(1, 10_000).optional(),
    afterSeq: intParam(0, Number.MAX_SAFE_INTEGER).optional(),
    limit: intParam(1, 10_000).optional(),
  })
  .strict();

/** POST /v1/search: the library's search input. */
export const searchBody = z
  .preprocess(
    normalizeKeys,
    z
      .object({
        ...scopeShape,
        query: z.string().min(1).max(10_000),
        k: z.number().int().min(1).max(1000).optional().openapi({ description: 'how many hits (default 10)' }),
        kinds: z.array(z.enum(DOC_KINDS)).min(1).optional(),
        filter: filterField,
        mode: z.enum(['hybrid', 'vector', 'lexical']).optional().openapi({ description: 'default hybrid' }),
        rerank: z.boolean().optional().openapi({ description: 'default true' }),
        conversation: conversationSchema.optional().openapi({ description: 'the conversation steps (hybrid mode) and the question discount (every mode); 0 turns each off' }),
      })
      .strict(),
  )
  .openapi('SearchInput');

/** POST /v1/context: seed 000's hybrid memory config as written, plus the query. */
export const contextBody = contextConfigSchema
  .extend({
    tenant: tenantField,
    query: z.string().min(1).max(10_000),
  })
  .openapi('ContextRequest');

export const forgetBody = z
  .object({
    tenant: tenantField,
    ids: z
      .array(z.string().min(1).max(40))
      .max(10_000)
      .optional()
      .openapi({ description: 'event, fact (the whole lineage), episode, procedure or example ids' }),
    scope: z
      .preprocess(
        normalizeKeys,
        z.object({ userId: scopeId.optional(), agentId: scopeId.optional(), sessionId: scopeId.optional(), taskId: scopeId.optional() }).strict(),
      )
      .optional()
      .openapi({ description: 'everything in this scope; {} is the whole tenant' }),
  })
  .strict()
  .openapi('ForgetInput');

export const redactBody = z.object({ reason: z.string().min(1).max(500) }).strict().openapi('RedactInput');

export const factHistoryQuery = z.object({ tenant: tenantField, key: z.string().min(1).max(200) }).strict();

export function idParams(kind: IdKind) {
  const prefix = ID_PREFIX[kind];
  return z
    .object({
      id: z
        .string()
        .regex(new RegExp(`^${prefix}_${ULID}$`), `expected ${prefix}_<ULID>`)
        .openapi({ param: { name: 'id', in: 'path' }, example: `${prefix}_01J8ZK3V6W9X2Y4Z5A6B7C8D9E` }),
    })
    .strict();
}

export const createKeyBody = z
  .object({
    tenant: z.string().min(1).max(100).openapi({ example: 'acme' }),
    name: z.string().min(1).max(200).openapi({ example: 'support-bot' }),
  })
  .strict()
  .openapi('CreateKeyInput');

export const listKeysQuery = z.object({ tenant: z.string().min(1).max(100).optional() }).strict();
