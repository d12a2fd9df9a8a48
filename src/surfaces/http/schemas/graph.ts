/**
 * Knowledge-graph schemas in the wire casing (wire.ts): entities, relations, graph search hits, and the request
 * bodies and queries of /v1/entities, /v1/relations and /v1/graph/search.
 */
import { z } from '@hono/zod-openapi';
import { intQuery } from './learn-requests.js';

const isoTime = z.string().openapi({ format: 'date-time', example: '2025-09-21T10:15:00.000Z' });
const scopeId = z.string().min(1).max(200);
const name = z.string().min(1).max(500);
const provenance = z
  .object({ origin: z.enum(['user', 'extraction', 'llm', 'import']), event_ids: z.array(z.string()), fact_ids: z.array(z.string()) })
  .strict()
  .openapi('GraphProvenance');
const scope = { tenant: z.string(), user_id: z.string().optional(), agent_id: z.string().optional(), session_id: z.string().optional(), task_id: z.string().optional() };

export const EntitySchema = z
  .object({
    ...scope,
    id: z.string().openapi({ example: 'ent_01J8ZK3V6W9X2Y4Z5A6B7C8D9E' }),
    name: z.string(),
    entity_type: z.string(),
    aliases: z.array(z.string()),
    observations: z.array(z.string()),
    summary: z.string().optional(),
    provenance,
    created_at: isoTime,
    updated_at: isoTime,
  })
  .strict()
  .openapi('Entity');

export const RelationSchema = z
  .object({
    ...scope,
    id: z.string().openapi({ example: 'rel_01J8ZK3V6W9X2Y4Z5A6B7C8D9E' }),
    source_id: z.string(),
    target_id: z.string(),
    from: z.string().openapi({ description: 'the source entity’s name' }),
    to: z.string().openapi({ description: 'the target entity’s name' }),
    type: z.string().openapi({ example: 'manages' }),
    text: z.string().optional(),
    valid_from: isoTime.optional(),
    valid_to: isoTime.optional(),
    recorded_at: isoTime,
    expired_at: isoTime.optional().openapi({ description: 'set when a contradicting relation (or a delete) closed it' }),
    confidence: z.number(),
    supersedes: z.string().optional(),
    provenance,
  })
  .strict()
  .openapi('Relation');

const end = z.object({ id: z.string(), name: z.string(), entity_type: z.string() }).strict();
export const GraphHitSchema = z
  .object({
    relation_id: z.string(),
    text: z.string().openapi({ example: 'Carol manages Alice' }),
    type: z.string(),
    source: end,
    target: end,
    hop: z.number().int(),
    score: z.number(),
    confidence: z.number(),
    valid_from: isoTime.nullable(),
    valid_to: isoTime.nullable(),
    expired: z.boolean(),
    provenance,
    statement: z.string().nullable(),
  })
  .strict()
  .openapi('GraphHit');

const graphScope = { tenant: scopeId.optional().openapi({ description: "optional; if given it must be the key's own tenant (else 403)" }), user_id: scopeId.optional(), agent_id: scopeId.optional() };

export const entitiesBody = z
  .object({
    ...graphScope,
    entities: z
      .array(z.object({ name, entity_type: z.string().min(1).max(200), observations: z.array(z.string().max(10_000)).max(1000).default([]) }).strict())
      .min(1)
      .max(1000),
  })
  .strict()
  .openapi('CreateEntities');

export const relationsBody = z
  .object({
    ...graphScope,
    relations: z
      .array(
        z
          .object({
            from: name,
            to: name,
            relation_type: z.string().min(1).max(200),
            valid_from: z.iso.datetime({ offset: true }).optional(),
            exclusive: z.boolean().optional().openapi({ description: 'close the live relations of the same source and type to other targets (a move, a new employer)' }),
            confidence: z.number().min(0).max(1).optional(),
            text: z.string().min(1).max(10_000).optional(),
          })
          .strict(),
      )
      .min(1)
      .max(1000),
  })
  .strict()
  .openapi('CreateRelations');

export const observationsBody = z.object({ ...graphScope, contents: z.array(z.string().min(1).max(10_000)).min(1).max(1000) }).strict().openapi('AddObservations');

export const graphSearchBody = z
  .object({
    ...graphScope,
    query: z.string().min(1).max(10_000),
    as_of: z.iso.datetime({ offset: true }).optional().openapi({ description: 'read the graph as Engram held it at this time' }),
    limit: z.number().int().min(1).max(100).optional(),
  })
  .strict()
  .openapi('GraphSearch');

const csv = z.string().min(1).max(2000).openapi({ description: 'comma-separated' });
export const entitiesQuery = z
  .object({ user_id: scopeId.optional(), agent_id: scopeId.optional(), name: csv.optional().openapi({ description: 'names or aliases, comma-separated' }), q: z.string().min(1).max(500).optional(), type: csv.optional(), limit: intQuery(1, 5000, 'default 100').optional() })
  .strict();

export const relationsQuery = z
  .object({
    user_id: scopeId.optional(),
    agent_id: scopeId.optional(),
    entity: name.optional().openapi({ description: 'relations touching this entity (name or alias)' }),
    direction: z.enum(['out', 'in', 'both']).optional(),
    type: csv.optional(),
    as_of: z.iso.datetime({ offset: true }).optional().openapi({ description: 'transaction time: the relations Engram held then' }),
    valid_at: z.iso.datetime({ offset: true }).optional().openapi({ description: 'valid time: the relations that held in the world then' }),
    include_expired: z.enum(['true', 'false']).optional().openapi({ description: 'closed relations too (history)' }),
    limit: intQuery(1, 5000, 'default 100').optional(),
  })
  .strict();
