/**
 * Response schemas, for the OpenAPI document, in the wire casing (wire.ts): snake_case keys, ISO-8601 times.
 * They describe the views in present.ts.
 */
import { z } from '@hono/zod-openapi';
import { GraphHitSchema } from './graph.js';
import { ACTORS, DOC_KINDS, EVENT_TYPES, FACT_KINDS, PII_KINDS } from '../../../core/types.js';
import { ERROR_CODES } from '../../../core/errors.js';
import { BACKUP_KINDS } from '../../../io/backup-format.js';
import { DROP_REASONS, SUPERSEDED_BY } from '../../../read/explain.js';
import { LIFT_NAMES, LIFTS, type Lift } from '../../../read/lifts.js';
import { JsonValue } from './json.js';

const JsonSchema = JsonValue;

const isoTime = z.string().openapi({ format: 'date-time', example: '2025-09-21T10:15:00.000Z' });

const scopeFields = {
  tenant: z.string(),
  user_id: z.string().optional(),
  agent_id: z.string().optional(),
  session_id: z.string().optional(),
  task_id: z.string().optional(),
};

const piiReport = z.object({
  scrubbed: z.boolean(),
  counts: z.partialRecord(z.enum(PII_KINDS), z.number().int()).openapi({ description: 'how many of each kind were removed (never the values)' }),
});

export const EventSchema = z
  .object({
    ...scopeFields,
    id: z.string().openapi({ example: 'evt_01J8ZK3V6W9X2Y4Z5A6B7C8D9E' }),
    seq: z.number().int(),
    ts: isoTime,
    recorded_at: isoTime,
    type: z.enum(EVENT_TYPES),
    actor: z.enum(ACTORS),
    name: z.string().optional(),
    content: z.string(),
    tool: z.string().optional(),
    args: JsonSchema.optional(),
    result: JsonSchema.optional(),
    state_label: z.string().optional(),
    tags: z.array(z.string()),
    importance: z.number(),
    source: z.string().optional(),
    metadata: z.record(z.string(), JsonSchema),
    content_hash: z.string(),
    expires_at: isoTime.optional(),
    pii: piiReport,
  })
  .openapi('Event');

export const LoggedEventSchema = EventSchema.extend({
  duplicate: z.boolean().openapi({ description: 'true when the tenant already held this event; nothing was written' }),
}).openapi('LoggedEvent');

export const FactSchema = z
  .object({
    ...scopeFields,
    id: z.string().openapi({ example: 'fct_01J8ZK3V6W9X2Y4Z5A6B7C8D9E' }),
    key: z.string(),
    version: z.number().int(),
    supersedes: z.string().optional(),
    kind: z.enum(FACT_KINDS),
    text: z.string(),
    subject: z.string().optional(),
    predicate: z.string().optional(),
    value: z.string().optional(),
    source: z.string().optional(),
    section: z.string().optional(),
    tags: z.array(z.string()),
    pii: z.boolean(),
    pii_report: piiReport,
    metadata: z.record(z.string(), JsonSchema),
    confidence: z.number(),
    support_count: z.number().int(),
    contradict_count: z.number().int(),
    importance: z.number(),
    valid_from: isoTime.optional(),
    valid_to: isoTime.optional(),
    recorded_at: isoTime,
    expired_at: isoTime.optional(),
    expires_at: isoTime.optional(),
    content_hash: z.string(),
    provenance: z.object({
      origin: z.enum(['user', 'import', 'extraction', 'reflection', 'consolidation']),
      event_ids: z.array(z.string()).optional(),
      episode_ids: z.array(z.string()).optional(),
      note: z.string().optional(),
    }),
  })
  .openapi('Fact');

export const RememberResultSchema = z
  .object({
    fact: FactSchema,
    status: z.enum(['created', 'versioned', 'duplicate']),
    superseded_id: z.string().optional(),
  })
  .openapi('RememberResult');

/** The breakdown's lifts (read/lifts.ts), each with its registry description. */
const liftFields = Object.fromEntries(LIFT_NAMES.map((k) => [k, liftField(k)])) as { [K in Lift]: ReturnType<typeof liftField> };

function liftField(k: Lift) {
  return z.number().nullable().optional().openapi({ description: LIFTS[k].description });
}

export const scoreBreakdown = z
  .object({
    vector: z.number().nullable(),
    lexical: z.number().nullable(),
    relevance: z.number().nullable(),
    recency: z.number().nullable(),
    importance: z.number().nullable(),
    confidence: z.number().nullable(),
    rerank: z.number().nullable(),
    outcome: z.number().nullable().optional().openapi({ description: 'episodes: the outcome bonus in the score' }),
    ...liftFields,
    final: z.number(),
    weak: z.boolean().optional().openapi({ description: 'the query met the relevance floor only weakly: one of a few best memories, not a confident match' }),
  })
  .openapi('ScoreBreakdown');

export const DocSchema = z
  .object({
    user_id: z.string().optional(),
    agent_id: z.string().optional(),
    session_id: z.string().optional(),
    task_id: z.string().optional(),
    kind: z.enum(DOC_KINDS),
    ref_id: z.string().openapi({ description: 'id of the record (event, fact, …) this document projects' }),
    text: z.string(),
    ts: isoTime,
    importance: z.number(),
    type: z.string().optional(),
    actor: z.string().optional(),
    source: z.string().optional(),
    section: z.string().optional(),
    state_label: z.string().optional(),
    tags: z.array(z.string()),
    pii: z.boolean(),
    metadata: z.record(z.string(), JsonSchema),
    content_hash: z.string(),
    expires_at: isoTime.optional(),
    confidence: z.number(),
  })
  .openapi('Doc');

const layerField = z.enum(['session', 'user', 'agent', 'shared']).openapi({ description: "the reader's layer the memory is in (docs/scopes.md)" });

export const SearchHitSchema = z.object({ doc: DocSchema, score: z.number(), scores: scoreBreakdown, layer: layerField }).openapi('SearchHit');

const provenance = z.object({
  source: z.string().nullable(),
  section: z.string().nullable(),
  ts: isoTime,
  type: z.string().nullable(),
  actor: z.string().nullable(),
  task_id: z.string().nullable(),
  session_id: z.string().nullable(),
  tags: z.array(z.string()),
  content_hash: z.string(),
});

export const ContextResultSchema = z
  .object({
    retrieval_id: z.string(),
    query: z.string(),
    route: z.enum(['recall', 'execute', 'general']),
    items: z.array(
      z.object({
        id: z.string(),
        kind: z.enum(DOC_KINDS),
        section: z.string(),
        layer: layerField.optional(),
        text: z.string(),
        truncated: z.boolean(),
        provenance,
        scores: scoreBreakdown,
      }),
    ),
    conflicts: z.array(
      z.object({
        reason: z.enum(['same_key', 'same_subject_predicate', 'fresher_episodic', 'superseded_case']),
        action: z.enum(['preferred', 'surfaced_both']),
        item_ids: z.array(z.string()),
        dropped_ids: z.array(z.string()),
        note: z.string(),
      }),
    ),
    sections: z.array(z.object({ name: z.string(), item_ids: z.array(z.string()) })),
    tokens: z.object({ used: z.number().int(), budget: z.number().int() }),
    dropped: z.number().int().openapi({ description: 'how many eligible items did not fit the token budget' }),
    text: z.string().openapi({ description: 'the context rendered as prompt text, with provenance inline' }),
    dropped_items: z
      .array(
        z.object({
          id: z.string(),
          kind: z.enum(DOC_KINDS),
          text: z.string().openapi({ description: 'the start of its text (at most 200 characters)' }),
          reason: z.enum(DROP_REASONS).openapi({
            description:
              'the step that left it out: validity (no version valid at read time), floor (below the relevance floor), situation (an episode whose situation contradicts the query), refuted (a learned rule the cases refuted), superseded (a case a later case replaced or a closer correction overturned, or a rule drawn only from such cases: see by), standout (a look-alike behind a case that stands out), dedupe, mmr, conflict, budget',
          }),
          by: z.enum(SUPERSEDED_BY).optional().openapi({
            description: 'superseded only: replaced (a later case of its cause replaced the case) or overturned (the closest correction overturned its cause); for a learned rule, what happened to the cases it was drawn from',
          }),
          scores: scoreBreakdown,
        }),
      )
      .optional()
      .openapi({ description: 'with explain: true, the candidates considered but left out and why, best first' }),
    entities: z.array(GraphHitSchema).optional().openapi({ description: 'relations around the entities the query names, as the "Entities" section shows them' }),
  })
  .openapi('ContextResult');

export const ForgetReportSchema = z
  .object({
    events: z.number().int(),
    facts: z.number().int(),
    docs: z.number().int(),
    embeddings: z.number().int(),
    episodes: z.number().int().optional(),
    links: z.number().int().optional(),
    procedures: z.number().int().optional(),
    examples: z.number().int().optional(),
    entities: z.number().int().optional().openapi({ description: 'knowledge-graph entities removed' }),
    relations: z.number().int().optional().openapi({ description: 'knowledge-graph relations removed' }),
    workingMemories: z.number().int().optional().openapi({ description: "scratchpads of the forgotten user's sessions" }),
  })
  .openapi('ForgetReport');

const RestoreReportSchema = z
  .object({
    written: z.number().int(),
    existing: z.number().int().openapi({ description: 'already stored under the same identity, same content' }),
    kept: z.number().int().openapi({ description: 'stored under the same identity with other content: the stored record was kept' }),
  })
  .openapi('RestoreReport');

export const ImportReportSchema = z
  .object({
    lines: z.number().int(),
    events: z.number().int(),
    facts: z.number().int(),
    duplicates: z.number().int(),
    records: z
      .record(z.enum(BACKUP_KINDS), RestoreReportSchema)
      .optional()
      .openapi({ description: 'a backup restore: per record kind, what was written and what was already there' }),
  })
  .openapi('ImportReport');

export const ApiKeySchema = z
  .object({
    id: z.string().openapi({ example: 'key_01J8ZK3V6W9X2Y4Z5A6B7C8D9E' }),
    tenant: z.string().optional(),
    role: z.enum(['tenant', 'admin']),
    name: z.string(),
    prefix: z.string().openapi({ description: 'first characters of the key, to tell keys apart', example: 'egm_3kT9xQ2a' }),
    created_at: isoTime,
    revoked_at: isoTime.optional(),
  })
  .openapi('ApiKey');

export const CreatedKeySchema = z
  .object({
    key: z.string().openapi({ description: 'the secret; shown only in this response', example: 'egm_…' }),
    record: ApiKeySchema,
  })
  .openapi('CreatedApiKey');

export const ErrorSchema = z
  .object({
    error: z.object({
      code: z.enum([...ERROR_CODES, 'INTERNAL']),
      message: z.string(),
      issues: z.array(z.object({ path: z.string().openapi({ example: 'events.3.type' }), message: z.string() })),
      request_id: z.string().optional(),
    }),
  })
  .openapi('Error');
