/**
 * Request schemas, in the one wire casing (snake_case). Bodies that the library already defines are the
 * library's schemas converted to the wire (events, facts, the seed-000 context config, see wire-schema.ts),
 * so `/openapi.json` documents exactly what is enforced. The query and forget schemas mirror
 * `memory-queries.ts`, whose schemas are not exported; the library validates again behind them, so a drift
 * can only make the HTTP layer stricter, never looser.
 */
import { z } from '@hono/zod-openapi';
import { contextConfigSchema, contextScopeSchema, conversationSchema, scopeModeSchema } from '../../../core/config.js';
import { ID_PREFIX, type IdKind } from '../../../core/ids.js';
import { DOC_KINDS, EVENT_TYPES } from '../../../core/types.js';
import { eventInputSchema, factInputSchema } from '../../../write/input.js';
import { intQuery } from './learn-requests.js';
import './json.js';
import { toWireSchema } from './wire-schema.js';

const ULID = '[0-9A-HJKMNP-TV-Z]{26}';
const scopeId = z.string().min(1).max(200);
const tenantField = scopeId.optional().openapi({ description: "optional; if given it must be the key's own tenant (else 403)" });
const filterField = z
  .record(z.string(), z.unknown())
  .optional()
  .openapi({ description: 'metadata filter (docs/filters.md), e.g. {"tags":["policy"],"importance":{"gte":0.5}}' });

/** The write bodies depend on the engine's limits; built once per app so each is one named component. */
export function writeBodies(limits: { maxContentChars: number; maxBatch: number }) {
  const event = (toWireSchema(eventInputSchema(limits.maxContentChars)) as z.ZodObject).openapi('EventInput');
  return {
    event,
    eventBatch: z.object({ events: z.array(event).min(1).max(limits.maxBatch) }).strict().openapi('EventBatchInput'),
    fact: (toWireSchema(factInputSchema(limits.maxContentChars)) as z.ZodObject).openapi('FactInput'),
  };
}

const timeField = z.union([z.number(), z.string().min(1)]);

const scopeShape = {
  tenant: tenantField,
  user_id: scopeId.optional(),
  agent_id: scopeId.optional(),
  session_id: scopeId.optional(),
  task_id: scopeId.optional(),
};

/** POST /v1/events/query: the library's fetchEvents input. */
export const eventsQueryBody = z
  .object({
    ...scopeShape,
    last_n: z.number().int().min(1).max(10_000).optional().openapi({ description: 'the last N events, in chronological order' }),
    since_minutes: z.number().positive().max(1e8).optional(),
    since: z.union([z.number(), z.string().min(1)]).optional().openapi({ description: 'ISO-8601 or epoch ms; ts >= since' }),
    until: z.union([z.number(), z.string().min(1)]).optional().openapi({ description: 'ISO-8601 or epoch ms; ts < until' }),
    types: z.array(z.enum(EVENT_TYPES)).optional(),
    tags: z.array(z.string().min(1).max(100)).max(64).optional().openapi({ description: 'events carrying all of these tags' }),
    filter: filterField,
    after_seq: z.number().int().min(0).optional().openapi({ description: 'paging: events after this seq' }),
    limit: z.number().int().min(1).max(10_000).optional().openapi({ description: 'default 100 (or last_n)' }),
    as_of: timeField.optional().openapi({ description: 'valid time: only events that happened by then (ISO-8601 or epoch ms)' }),
    known_at: timeField.optional().openapi({ description: 'transaction time: only events recorded by then (ISO-8601 or epoch ms)' }),
  })
  .strict()
  .openapi('EventQuery');

/** A query parameter that may repeat (`?type=a&type=b`). */
function repeated<T extends z.ZodType<string>>(item: T) {
  return z.union([item, z.array(item).max(64)]).transform((v) => (Array.isArray(v) ? v : [v]));
}

/** GET /v1/events: the simple filters as query parameters (complex filters: POST /v1/events/query). */
export const eventsListQuery = z
  .object({
    ...scopeShape,
    type: repeated(z.enum(EVENT_TYPES)).optional().openapi({ description: 'event type; repeat for several' }),
    tag: repeated(z.string().min(1).max(100)).optional().openapi({ description: 'tag; repeat to require several' }),
    since: z.string().min(1).max(40).optional().openapi({ description: 'ISO-8601 or epoch ms' }),
    until: z.string().min(1).max(40).optional().openapi({ description: 'ISO-8601 or epoch ms' }),
    since_minutes: intQuery(1, 100_000_000).optional(),
    last_n: intQuery(1, 10_000, 'the last N events, in chronological order').optional(),
    after_seq: intQuery(0, Number.MAX_SAFE_INTEGER, 'paging: events after this seq').optional(),
    limit: intQuery(1, 10_000, 'default 100 (or last_n)').optional(),
    as_of: z.string().min(1).max(40).optional().openapi({ description: 'valid time: only events that happened by then (ISO-8601 or epoch ms)' }),
    known_at: z.string().min(1).max(40).optional().openapi({ description: 'transaction time: only events recorded by then (ISO-8601 or epoch ms)' }),
  })
  .strict();

/** POST /v1/search: the library's search input. */
export const searchBody = z
  .object({
    ...scopeShape,
    query: z.string().min(1).max(10_000),
    k: z.number().int().min(1).max(1000).optional().openapi({ description: 'how many hits (default 10)' }),
    kinds: z.array(z.enum(DOC_KINDS)).min(1).optional(),
    filter: filterField,
    mode: z.enum(['hybrid', 'vector', 'lexical']).optional().openapi({ description: 'default hybrid' }),
    rerank: z.boolean().optional().openapi({ description: 'default true' }),
    conversation: toWireSchema(conversationSchema)
      .optional()
      .openapi({ description: 'the conversation steps (hybrid mode) and the question discount (every mode); 0 turns each off' }),
    scope: contextScopeSchema
      .optional()
      .openapi({ description: 'who is asking, as on /v1/context (the same as the top-level user_id, agent_id, session_id; they must agree)' }),
    scope_mode: scopeModeSchema
      .optional()
      .openapi({ description: "default 'layered': the user's, the agent's, the session's and shared memories, never another user's; 'strict': every scope field given matches exactly (docs/scopes.md)" }),
    as_of: timeField.optional().openapi({ description: 'valid time: the world as it was then (docs/scopes.md#time)' }),
    known_at: timeField.optional().openapi({ description: 'transaction time: only what was recorded by then' }),
  })
  .strict()
  .openapi('SearchInput');

/** POST /v1/context: seed 000's hybrid memory config as written, plus the query. */
export const contextBody = (toWireSchema(contextConfigSchema) as z.ZodObject)
  .extend({
    tenant: tenantField,
    query: z.string().min(1).max(10_000),
  })
  .strict()
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
      .object({ user_id: scopeId.optional(), agent_id: scopeId.optional(), session_id: scopeId.optional(), task_id: scopeId.optional() })
      .strict()
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
