/**
 * Response schemas of the learn, feedback and working-memory areas, in the wire casing (wire.ts): snake_case
 * keys, ISO-8601 times. Strict, so the document says exactly which fields a response carries.
 */
import { z } from '@hono/zod-openapi';
import { DOC_KINDS, LINK_TYPES, OUTCOMES } from '../../../core/types.js';
import { ITEM_KINDS, TURN_ROLES } from '../../../working/state.js';
import { RETIRE_REASONS } from '../../../learn/retire.js';
import { JsonValue } from './json.js';
import { scoreBreakdown } from './records.js';

export const RetrievedItemSchema = z
  .object({ id: z.string(), kind: z.string(), section: z.string(), scores: scoreBreakdown })
  .strict()
  .openapi('RetrievedItem');

const isoTime = z.string().openapi({ format: 'date-time', example: '2025-09-21T10:15:00.000Z' });
const scope = {
  tenant: z.string(),
  user_id: z.string().optional(),
  agent_id: z.string().optional(),
  session_id: z.string().optional(),
  task_id: z.string().optional(),
};

export const EpisodeSchema = z
  .object({
    ...scope,
    id: z.string().openapi({ example: 'eps_01J8ZK3V6W9X2Y4Z5A6B7C8D9E' }),
    stream_key: z.string(),
    start_seq: z.number().int(),
    end_seq: z.number().int(),
    start_ts: isoTime,
    end_ts: isoTime,
    event_ids: z.array(z.string()),
    state_label: z.string().optional(),
    summary: z.string(),
    outcome: z.enum(OUTCOMES),
    outcome_details: z.string().optional(),
    decisions: z.array(z.string()),
    assumptions: z.array(z.string()),
    corrections: z.array(z.string()),
    root_cause: z.string().optional(),
    importance: z.number(),
    closed: z.boolean(),
    metadata: z.record(z.string(), JsonValue),
    recorded_at: isoTime,
  })
  .strict()
  .openapi('Episode');

export const LinkSchema = z
  .object({
    id: z.string().openapi({ example: 'lnk_01J8ZK3V6W9X2Y4Z5A6B7C8D9E' }),
    tenant: z.string(),
    type: z.enum(LINK_TYPES),
    from_id: z.string(),
    to_id: z.string(),
    weight: z.number(),
    origin: z.enum(['explicit', 'inferred', 'reinforced']),
    evidence: z.string().optional(),
    created_at: isoTime,
  })
  .strict()
  .openapi('Link');

export const EpisodeDetailSchema = z.object({ episode: EpisodeSchema, links: z.array(LinkSchema) }).strict().openapi('EpisodeDetail');

export const CausalChainSchema = z
  .object({
    episode_ids: z.array(z.string()),
    steps: z.array(z.object({ episode_id: z.string(), label: z.string(), outcome: z.enum(OUTCOMES), via: z.enum(LINK_TYPES).nullable() }).strict()),
    narrative: z.string(),
  })
  .strict()
  .openapi('CausalChain');

const factUpdate = {
  fact_id: z.string(),
  key: z.string(),
  live_id: z.string().openapi({ description: 'the live version after the update (a new revision when confidence fell below the threshold)' }),
  version: z.number().int(),
  confidence_before: z.number(),
  confidence: z.number(),
  support_count: z.number().int(),
  contradict_count: z.number().int(),
  added: z.array(z.object({ episode_id: z.string(), polarity: z.enum(['support', 'contradict']), weight: z.number() }).strict()),
  revised_from: z.string().optional().openapi({ description: 'set when this update created a new version' }),
};
export const FactUpdateSchema = z.object(factUpdate).strict().openapi('FactUpdate');

export const OutcomeReportSchema = z
  .object({
    retrieval_id: z.string(),
    episode_id: z.string(),
    outcome: z.enum(OUTCOMES),
    retrieved_episode_ids: z.array(z.string()),
    retrieved_fact_ids: z.array(z.string()),
    bystander_fact_ids: z.array(z.string()).openapi({ description: 'retrieved facts left unchanged: not in used_item_ids, or (without it) not relevant to the query' }),
    links: z.array(LinkSchema),
    facts: z.array(z.object({ ...factUpdate, polarity: z.enum(['support', 'contradict']), weight: z.number(), reason: z.string() }).strict()),
    event_ids: z.array(z.string()).openapi({ description: 'the outcome (and correction) events logged' }),
    episode: EpisodeSchema,
  })
  .strict()
  .openapi('OutcomeReport');

export const ProcedureSchema = z
  .object({
    ...scope,
    id: z.string().openapi({ example: 'prc_01J8ZK3V6W9X2Y4Z5A6B7C8D9E' }),
    name: z.string(),
    trigger: z.string(),
    steps: z.array(z.string()),
    preconditions: z.array(z.string()),
    success_count: z.number().int(),
    failure_count: z.number().int(),
    notes: z.array(z.string()),
    last_used_at: isoTime.optional(),
    source_episode_ids: z.array(z.string()),
    created_at: isoTime,
    updated_at: isoTime,
  })
  .strict()
  .openapi('Procedure');

export const ProcedureMatchSchema = z
  .object({
    procedure: ProcedureSchema,
    score: z.number(),
    match: z.number(),
    lexical: z.number(),
    semantic: z.number().optional(),
    success_rate: z.number(),
  })
  .strict()
  .openapi('ProcedureMatch');

export const DistilledFactSchema = z
  .object({
    fact_id: z.string(),
    key: z.string(),
    subject: z.string(),
    predicate: z.string().openapi({ example: 'lives_in' }),
    value: z.string(),
    text: z.string().openapi({ example: 'The user lives in Toronto.' }),
    status: z.enum(['created', 'versioned']),
    superseded_id: z.string().optional().openapi({ description: 'the version it replaced (a single-valued predicate whose value changed)' }),
    event_ids: z.array(z.string()).openapi({ description: 'the events that stated it (provenance)' }),
  })
  .strict()
  .openapi('DistilledFact');

export const DistillReportSchema = z
  .object({
    turns: z.number().int(),
    statements: z.number().int(),
    facts: z.array(DistilledFactSchema),
    method: z.enum(['patterns', 'llm']),
  })
  .strict()
  .openapi('DistillReport');

export const ConsolidationReportSchema = z
  .object({
    tenant: z.string(),
    since: z.number().nullable().openapi({ description: 'epoch ms given as `since`, or null for the default window' }),
    segmented: z.object({ events: z.number().int(), closed: z.number().int() }).strict(),
    facts: z
      .object({
        created: z.array(FactUpdateSchema),
        updated: z.array(FactUpdateSchema),
        revised: z.array(FactUpdateSchema),
        retired: z
          .array(z.object({ ...factUpdate, reason: z.enum(RETIRE_REASONS) }).strict())
          .openapi({ description: 'learned rules retired: live_id is the closing version (its validity ends when it starts), revised_from the rule' }),
        links: z.array(LinkSchema),
        rejected: z.number().int(),
      })
      .strict(),
    procedures: z.object({ created: z.array(ProcedureSchema), reinforced: z.array(ProcedureSchema) }).strict(),
    distilled: DistillReportSchema.nullable().openapi({ description: 'facts distilled from what users said about themselves; null when learn.engine.distill is off' }),
    expired: z.number().int().openapi({ description: 'raw events forgotten by retention (0 when it is off)' }),
  })
  .strict()
  .openapi('ConsolidationReport');

export const ExampleSchema = z
  .object({
    ...scope,
    id: z.string().openapi({ example: 'exm_01J8ZK3V6W9X2Y4Z5A6B7C8D9E' }),
    polarity: z.enum(['positive', 'negative']),
    query: z.string(),
    response: z.string(),
    reason: z.string().optional(),
    origin: z.enum(['feedback', 'analysis']),
    content_hash: z.string(),
    created_at: isoTime,
  })
  .strict()
  .openapi('Example');

export const FeedbackResultSchema = z
  .object({ action: z.enum(['created', 'deleted', 'flipped']), example: ExampleSchema })
  .strict()
  .openapi('FeedbackResult');

export const AnalysisReportSchema = z
  .object({
    analyzer: z.string(),
    conversations: z.number().int(),
    examples: z.array(
      z
        .object({
          query: z.string(),
          response: z.string(),
          polarity: z.enum(['positive', 'negative']),
          reason: z.string(),
          query_turn: z.number().int(),
          response_turn: z.number().int(),
          feedback_turn: z.number().int(),
          action: z.enum(['created', 'unchanged', 'flipped', 'kept_user_feedback']).optional(),
          example_id: z.string().optional(),
        })
        .strict(),
    ),
  })
  .strict()
  .openapi('AnalysisReport');

const similarExample = z
  .object({
    example: ExampleSchema,
    similarity: z.number(),
    rank: z.number(),
    scores: z.object({ vector: z.number().nullable(), lexical: z.number(), rerank: z.number().nullable() }).strict(),
  })
  .strict();

export const SimilarExamplesSchema = z.object({ positive: z.array(similarExample), negative: z.array(similarExample) }).strict().openapi('SimilarExamples');

export const GuidanceSchema = z
  .object({ text: z.string(), tokens: z.number().int(), follow_ids: z.array(z.string()), avoid_ids: z.array(z.string()) })
  .strict()
  .openapi('Guidance');

export const WmItemSchema = z
  .object({ id: z.string().openapi({ example: 'n1' }), kind: z.enum(ITEM_KINDS), content: z.string(), source: z.string().optional(), priority: z.number(), added_at: isoTime })
  .strict()
  .openapi('WorkingMemoryItem');

export const WorkingMemorySchema = z
  .object({
    tenant: z.string(),
    session_id: z.string(),
    version: z.number().int().openapi({ description: '0 when the session has no scratchpad yet' }),
    plan: z.string().optional(),
    items: z.array(WmItemSchema),
    entities: z.array(z.object({ key: z.string(), value: z.string(), updated_at: isoTime }).strict()),
    summary: z.string().optional(),
    turns: z.array(z.object({ role: z.enum(TURN_ROLES), content: z.string(), at: isoTime }).strict()),
    text: z.string().openapi({ description: 'the scratchpad as prompt text, with item ids' }),
    tokens: z.number().int(),
    max_tokens: z.number().int(),
    evicted_count: z.number().int(),
  })
  .strict()
  .openapi('WorkingMemory');

const evicted = z
  .object({
    unit: z.enum(['item', 'turn', 'entity', 'summary', 'plan']),
    id: z.string().optional(),
    content: z.string(),
    reason: z.enum(['cap', 'window', 'folded']),
    truncated: z.boolean().optional(),
  })
  .strict();

/** What every working-memory change answers, plus the fields of the change (item, items, memory_id, entities). */
export const WmEditSchema = z
  .object({
    version: z.number().int(),
    tokens: z.number().int(),
    evicted: z.array(evicted),
    item: WmItemSchema.optional(),
    items: z.array(WmItemSchema).optional(),
    memory_id: z.string().optional().openapi({ description: 'page-out: the long-term memory (fact) id' }),
    entities: z.array(z.object({ key: z.string(), value: z.string() }).strict()).optional(),
  })
  .strict()
  .openapi('WorkingMemoryEdit');

export const RetrievalSchema = z
  .object({
    id: z.string().openapi({ example: 'ret_01J8ZK3V6W9X2Y4Z5A6B7C8D9E' }),
    tenant: z.string(),
    query: z.string(),
    created_at: isoTime,
    item_ids: z.array(z.string()).openapi({ description: 'what the retrieval handed out, in order' }),
    items: z.array(RetrievedItemSchema).optional().openapi({ description: 'each item with its section and score breakdown (absent on records written before it was kept)' }),
    config: JsonValue.optional().openapi({ description: 'the resolved retrieval config' }),
  })
  .strict()
  .openapi('Retrieval');

export const KIND_ENUM = z.enum(DOC_KINDS);
