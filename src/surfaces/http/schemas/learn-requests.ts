/**
 * Request schemas of the learn, feedback and working-memory areas, in the wire casing (snake_case). They
 * mirror the library's input schemas (which are camelCase); the library validates again behind them, so a
 * drift can only make the HTTP layer stricter. Optional fields with a default are optional here too.
 */
import { z } from '@hono/zod-openapi';
import { DOC_KINDS, LINK_TYPES, OUTCOMES } from '../../../core/types.js';

const scopeId = z.string().min(1).max(200);
const tenantField = scopeId.optional().openapi({ description: "optional; if given it must be the key's own tenant (else 403)" });
const text = (max: number) => z.string().min(1).max(max);
const priority = z.number().min(0).max(10).openapi({ description: 'higher is kept longer (0–10)' });

/** Whole numbers in a query string, typed as integers in the document. */
export function intQuery(min: number, max: number, description?: string) {
  return z
    .string()
    .regex(/^\d{1,16}$/, 'expected a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .openapi({ type: 'integer', minimum: min, maximum: max, ...(description ? { description } : {}) });
}

export const scopeQuery = {
  user_id: scopeId.optional(),
  agent_id: scopeId.optional(),
  session_id: scopeId.optional(),
  task_id: scopeId.optional(),
};

export const outcomeBody = z
  .object({
    tenant: tenantField,
    retrieval_id: z.string().regex(/^ret_[0-9A-HJKMNP-TV-Z]{26}$/, 'expected ret_<ULID>').openapi({ description: 'from POST /v1/context', example: 'ret_01J8ZK3V6W9X2Y4Z5A6B7C8D9E' }),
    outcome: z.enum([...OUTCOMES, 'success', 'failure', 'partial', 'unknown']),
    correction: text(10_000).optional().openapi({ description: 'what was wrong, logged as a correction event' }),
    details: text(10_000).optional(),
    root_cause: text(10_000).optional(),
    used_item_ids: z
      .array(z.string().min(1).max(40))
      .max(1000)
      .optional()
      .openapi({ description: 'ids of the context items the answer actually used: only these are credited or blamed (default: the items relevant to the query)' }),
  })
  .strict()
  .openapi('OutcomeInput');

export const consolidateBody = z
  .object({
    tenant: tenantField,
    since: z.union([z.number().int().min(0), z.string().min(1).max(40)]).optional().openapi({
      description: 'episodes that ended at or after this time (ISO-8601 or epoch ms) feed procedures; default: the most recent window',
    }),
  })
  .strict()
  .openapi('ConsolidateInput');

export const episodesQuery = z
  .object({
    ...scopeQuery,
    closed: z.enum(['true', 'false']).optional().openapi({ description: 'only closed (true) or open (false) episodes' }),
    outcome: z
      .union([z.enum(OUTCOMES), z.array(z.enum(OUTCOMES)).max(4)])
      .optional()
      .openapi({ description: 'repeat for several' }),
    since: z.string().min(1).max(40).optional().openapi({ description: 'episodes that ended at or after this time (ISO-8601 or epoch ms)' }),
    order: z.enum(['asc', 'desc']).optional().openapi({ description: 'by end time; default desc (newest first)' }),
    limit: intQuery(1, 1000, 'default 50').optional(),
  })
  .strict();

export const chainQuery = z.object({ max_depth: intQuery(1, 20).optional(), max_steps: intQuery(1, 200).optional() }).strict();

export const linkBody = z
  .object({
    tenant: tenantField,
    type: z.enum(LINK_TYPES),
    from_id: scopeId.openapi({ description: 'an episode, fact, event or procedure id', example: 'eps_01J8ZK3V6W9X2Y4Z5A6B7C8D9E' }),
    to_id: scopeId.openapi({ example: 'fct_01J8ZK3V6W9X2Y4Z5A6B7C8D9E' }),
    weight: z.number().min(0).max(1).optional().openapi({ description: 'default 1' }),
    evidence: z.string().max(2000).optional(),
  })
  .strict()
  .openapi('LinkInput');

export const linksQuery = z
  .object({
    id: scopeId.openapi({ description: 'the memory whose links to list (episode, fact, event or procedure id)' }),
    direction: z.enum(['out', 'in', 'both']).optional().openapi({ description: 'default both' }),
  })
  .strict();

export const limitQuery = z.object({ limit: intQuery(1, 5000, 'default 100').optional() }).strict();

export const procedureBody = z
  .object({
    tenant: tenantField,
    id: z.string().regex(/^prc_[0-9A-HJKMNP-TV-Z]{26}$/).optional().openapi({ description: 'replace this procedure (its creation time is kept)' }),
    ...scopeQuery,
    name: text(200),
    trigger: text(2000).openapi({ description: 'the situation it applies to' }),
    steps: z.array(text(2000)).min(1).max(100),
    preconditions: z.array(text(2000)).max(50).optional(),
    notes: z.array(text(2000)).max(1000).optional(),
    success_count: z.number().int().min(0).optional(),
    failure_count: z.number().int().min(0).optional(),
    source_episode_ids: z.array(scopeId).max(1000).optional(),
  })
  .strict()
  .openapi('ProcedureInput');

export const procedureMatchBody = z
  .object({ tenant: tenantField, situation: text(10_000), limit: z.number().int().min(1).max(100).optional() })
  .strict()
  .openapi('ProcedureMatchInput');

export const procedureOutcomeBody = z
  .object({ success: z.boolean(), notes: z.union([text(2000), z.array(text(2000)).max(20)]).optional() })
  .strict()
  .openapi('ProcedureOutcomeInput');

const exampleScope = { tenant: tenantField, ...scopeQuery };

export const feedbackBody = z
  .object({
    ...exampleScope,
    query: text(20_000).openapi({ description: "the user's original request" }),
    response: text(20_000).openapi({ description: 'the answer the verdict is about' }),
    feedback: z.enum(['positive', 'negative']),
    reason: z.string().max(2000).optional(),
  })
  .strict()
  .openapi('FeedbackInput');

export const analyzeBody = z
  .object({
    ...exampleScope,
    turns: z
      .array(z.object({ role: z.enum(['user', 'agent', 'assistant', 'tool', 'system']), content: z.string().max(20_000), tool: text(200).optional() }).strict())
      .max(400)
      .optional()
      .openapi({ description: "the conversation, oldest first; without it the session's messages are read (session_id required)" }),
    store: z.boolean().optional().openapi({ description: 'store what was found (default true)' }),
    use_llm: z.boolean().optional().openapi({ description: 'use the configured LLM when there is one (default true)' }),
  })
  .strict()
  .openapi('AnalyzeInput');

export const similarBody = z
  .object({
    tenant: tenantField,
    user_id: scopeId.optional(),
    agent_id: scopeId.optional(),
    query: text(10_000),
    k: z.number().int().min(1).max(20).optional().openapi({ description: 'examples of each polarity (default 3)' }),
    min_similarity: z.number().min(0).max(1).optional(),
  })
  .strict()
  .openapi('SimilarExamplesInput');

export const guidanceBody = similarBody
  .extend({ max_tokens: z.number().int().min(50).max(20_000).optional().openapi({ description: 'default 800' }) })
  .strict()
  .openapi('GuidanceInput');

export const examplesQuery = z
  .object({ ...scopeQuery, polarity: z.enum(['positive', 'negative']).optional(), limit: intQuery(1, 5000, 'default 100').optional() })
  .strict();

// --- working memory: /v1/sessions/{session_id}/working-memory/… ---

export const sessionParams = z
  .object({ session_id: scopeId.openapi({ param: { name: 'session_id', in: 'path' }, example: 'chat-42' }) })
  .strict();

export const itemParams = sessionParams
  .extend({ item_id: z.string().min(1).max(40).openapi({ param: { name: 'item_id', in: 'path' }, example: 'n1' }) })
  .strict();

export const entityParams = sessionParams
  .extend({ key: z.string().min(1).max(40).openapi({ param: { name: 'key', in: 'path' }, example: 'customer' }) })
  .strict();

const wmScope = { user_id: scopeId.optional(), agent_id: scopeId.optional() };

export const wmTurnBody = z
  .object({ ...wmScope, role: z.enum(['user', 'agent', 'assistant', 'tool', 'system']), content: text(20_000) })
  .strict()
  .openapi('WorkingMemoryTurnInput');

export const wmAppendBody = z
  .object({
    ...wmScope,
    content: text(20_000),
    kind: z.enum(['note', 'evidence']).optional().openapi({ description: 'default note; evidence needs its source' }),
    source: text(500).optional(),
    priority: priority.optional(),
  })
  .strict()
  .openapi('WorkingMemoryAppendInput');

export const wmReplaceBody = z
  .object({
    ...wmScope,
    find: text(20_000).optional().openapi({ description: 'replace only this text inside the item' }),
    content: z.string().max(20_000).optional(),
    priority: priority.optional(),
    source: text(500).optional(),
  })
  .strict()
  .openapi('WorkingMemoryReplaceInput');

export const wmPlanBody = z
  .object({ ...wmScope, plan: z.string().max(20_000).nullable().openapi({ description: 'null clears the plan' }) })
  .strict()
  .openapi('WorkingMemoryPlanInput');

export const wmEntityBody = z
  .object({ ...wmScope, value: z.string().max(500).nullable().openapi({ description: 'null removes the key fact' }) })
  .strict()
  .openapi('WorkingMemoryEntityInput');

export const wmPageOutBody = z
  .object({ ...wmScope, tags: z.array(text(100)).max(16).optional() })
  .strict()
  .openapi('WorkingMemoryPageOutInput');

export const wmPageInBody = z
  .object({
    ...wmScope,
    query: text(10_000),
    k: z.number().int().min(1).max(20).optional().openapi({ description: 'default 3' }),
    priority: priority.optional(),
    kinds: z.array(z.enum(DOC_KINDS)).min(1).optional(),
  })
  .strict()
  .openapi('WorkingMemoryPageInInput');

export const wmScopeQuery = z.object(wmScope).strict();
