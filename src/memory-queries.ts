/** Turns the facade's friendly query inputs into validated storage/read requests. */
import { z } from 'zod';
import { conversationSchema, scopeModeSchema } from './core/config.js';
import { parseFilter } from './core/filter.js';
import { DOC_KINDS, EVENT_TYPES } from './core/types.js';
import { parseWith } from './core/validate.js';
import type { EventQuery } from './ports/storage.js';
import { timeInput } from './write/input.js';

const scopeFields = {
  tenant: z.string().min(1).max(200).optional(),
  userId: z.string().min(1).max(200).optional(),
  agentId: z.string().min(1).max(200).optional(),
  sessionId: z.string().min(1).max(200).optional(),
  taskId: z.string().min(1).max(200).optional(),
};

const fetchEventsSchema = z
  .object({
    ...scopeFields,
    /** The last N events (chronological order). */
    lastN: z.number().int().min(1).max(10_000).optional(),
    /** Events of the last T minutes. */
    sinceMinutes: z.number().positive().max(1e8).optional(),
    since: timeInput.optional(),
    until: timeInput.optional(),
    types: z.array(z.enum(EVENT_TYPES)).optional(),
    tags: z.array(z.string().min(1).max(100)).max(64).optional(),
    filter: z.record(z.string(), z.unknown()).optional(),
    afterSeq: z.number().int().min(0).optional(),
    limit: z.number().int().min(1).max(10_000).optional(),
    /** Valid time: only events that happened by then (ts <= asOf); `lastN` is the last N before it. */
    asOf: timeInput.optional(),
    /** Transaction time: only events Engram had recorded by then. */
    knownAt: timeInput.optional(),
  })
  .strict();

export type FetchEventsInput = z.input<typeof fetchEventsSchema>;

export function fetchEventsQuery(input: FetchEventsInput, tenant: string, now: number): EventQuery {
  const p = parseWith(fetchEventsSchema, input, { what: 'event query' });
  const filter = parseFilter(p.filter, 'filter');
  const since = p.sinceMinutes !== undefined ? (p.asOf ?? now) - p.sinceMinutes * 60_000 : p.since;
  const until = p.asOf === undefined ? p.until : Math.min(p.until ?? Infinity, p.asOf + 1);
  return {
    tenant,
    scope: { userId: p.userId, agentId: p.agentId, sessionId: p.sessionId, taskId: p.taskId },
    ...(p.types ? { types: p.types } : {}),
    ...(p.tags ? { tags: p.tags } : {}),
    ...(since !== undefined ? { since } : {}),
    ...(until !== undefined ? { until } : {}),
    ...(p.knownAt !== undefined ? { knownAt: p.knownAt } : {}),
    ...(filter ? { filter } : {}),
    ...(p.lastN !== undefined ? { lastN: p.lastN } : {}),
    ...(p.afterSeq !== undefined ? { afterSeq: p.afterSeq } : {}),
    limit: p.limit ?? (p.lastN === undefined ? 100 : p.lastN),
    now,
  };
}

const searchSchema = z
  .object({
    ...scopeFields,
    query: z.string().min(1).max(10_000),
    k: z.number().int().min(1).max(1000).default(10),
    kinds: z.array(z.enum(DOC_KINDS)).min(1).optional(),
    filter: z.record(z.string(), z.unknown()).optional(),
    mode: z.enum(['hybrid', 'vector', 'lexical']).default('hybrid'),
    rerank: z.boolean().default(true),
    conversation: conversationSchema.optional(),
    /** 'layered' (default): the user's, agent's, session's and shared memories; 'strict': exact scope (docs/scopes.md). */
    scopeMode: scopeModeSchema.default('layered'),
    /** Valid time: read the world as it was then (docs/scopes.md#time). */
    asOf: timeInput.optional(),
    /** Transaction time: read only what was recorded by then. */
    knownAt: timeInput.optional(),
  })
  .strict();

export type SearchInput = z.input<typeof searchSchema>;

export function searchRequest(input: SearchInput, tenant: string) {
  const p = parseWith(searchSchema, input, { what: 'search' });
  const filter = parseFilter(p.filter, 'filter');
  return {
    tenant,
    scope: { userId: p.userId, agentId: p.agentId, sessionId: p.sessionId, taskId: p.taskId },
    query: p.query,
    k: p.k,
    mode: p.mode,
    rerank: p.rerank,
    scopeMode: p.scopeMode,
    ...(p.asOf !== undefined ? { asOf: p.asOf } : {}),
    ...(p.knownAt !== undefined ? { knownAt: p.knownAt } : {}),
    ...(p.conversation ? { conversation: p.conversation } : {}),
    ...(p.kinds ? { kinds: p.kinds } : {}),
    ...(filter ? { filter } : {}),
  };
}
