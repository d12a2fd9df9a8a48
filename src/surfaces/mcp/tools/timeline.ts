/**
 * The timeline and the reinforcement loop: `log_event` records what happened, `get_context` assembles the
 * budgeted context for a task (and hands back a retrieval id), `record_outcome` tells Engram how the answer
 * built from that context turned out, so what helped gains confidence and what misled loses it.
 */
import { inertText } from '../../../core/prompt-safe.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { EngramError } from '../../../core/errors.js';
import { isId } from '../../../core/ids.js';
import { ACTORS, EVENT_TYPES, OUTCOMES, type Json } from '../../../core/types.js';
import { addTool, identityOf, need, scopeArgs, timeArgs, type ToolEnv } from '../tool.js';

const LOG = [
  'Record an event on the memory timeline: a decision you made, a tool result worth keeping, an observation, an error,',
  'an outcome, or a correction from the user. Call it after significant steps of a task (decisions, failures, fixes,',
  'results) so later tasks can learn from what happened; use type "correction" when the user corrects you and',
  '"outcome" when a task ends. Pass task_id to group the events of one task.',
].join(' ');

const CONTEXT = [
  'Get the relevant memory for the task at hand in one call: the recent events of the task plus facts, past episodes',
  '(with their outcomes and corrections) and procedures retrieved by meaning, ranked and fitted to a token budget, with',
  'provenance. Call it at the start of a task or before answering a question that may need history. The reply',
  'includes a retrieval_id: pass it to record_outcome once you know whether the answer worked.',
].join(' ');

const OUTCOME = [
  'Report how a task turned out after you used get_context for it: SUCCESS, FAILURE, PARTIAL or UNKNOWN, with the',
  "user's correction if they corrected you. Engram links the outcome to exactly the memories it retrieved and",
  'reinforces or weakens them, so call it whenever you learn whether an answer built from get_context worked.',
].join(' ');

const CONSOLIDATE = [
  'Consolidate memory now: finish open episodes, distil lessons and procedures, and turn what users said about',
  'themselves (preferences, where they live or work, relationships, allergies …) into facts, replacing values that',
  'changed. Engram also does this on its own schedule when configured; call it after a long conversation.',
].join(' ');

const jsonValue: z.ZodType<Json> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(jsonValue), z.record(z.string(), jsonValue)]),
);

export function registerTimelineTools(server: McpServer, env: ToolEnv): void {
  addTool(
    server,
    env,
    'log_event',
    {
      title: 'Log event',
      description: LOG,
      input: {
        content: z.string().min(1).max(32_768).describe('What happened, in a sentence or two'),
        type: z.enum(EVENT_TYPES).default('note').describe('message, tool_call, tool_result, observation, decision, outcome, correction, feedback, state_change, error or note'),
        actor: z.enum(ACTORS).default('agent').describe('Who acted: agent (default), user, system or tool'),
        task_id: z.string().min(1).max(200).optional().describe('Groups the events of one task'),
        tool: z.string().min(1).max(200).optional().describe('For tool calls: the tool name'),
        args: jsonValue.optional().describe('For tool calls: the arguments'),
        result: jsonValue.optional().describe('For tool calls: the result'),
        state_label: z.string().min(1).max(100).optional().describe('The workflow state, e.g. "investigating" or "deploying"'),
        tags: z.array(z.string().min(1).max(100)).max(16).optional(),
        importance: z.number().min(0).max(1).optional().describe('0..1; how much this matters later (default from the event type)'),
        ...scopeArgs,
      },
      annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (a, { memory, scope }) => {
      const e = await memory.logEvent({
        tenant: scope.tenant,
        userId: a.user_id ?? scope.userId,
        agentId: scope.agentId,
        sessionId: a.session_id ?? scope.sessionId,
        taskId: a.task_id,
        type: a.type,
        actor: a.actor,
        content: a.content,
        ...(a.tool ? { tool: a.tool } : {}),
        ...(a.args !== undefined ? { args: a.args } : {}),
        ...(a.result !== undefined ? { result: a.result } : {}),
        ...(a.state_label ? { stateLabel: a.state_label } : {}),
        tags: a.tags ?? [],
        ...(a.importance !== undefined ? { importance: a.importance } : {}),
      });
      return {
        text: e.duplicate ? `Already logged as ${e.id}.` : `Logged ${e.type} ${e.id}.`,
        data: { event_id: e.id, seq: e.seq, duplicate: e.duplicate },
      };
    },
  );

  addTool(
    server,
    env,
    'get_context',
    {
      title: 'Get context',
      description: CONTEXT,
      input: {
        query: z.string().min(1).max(10_000).describe('The task or question'),
        task_id: z.string().min(1).max(200).optional().describe('The current task: its recent events form the episodic window'),
        token_budget: z.number().int().min(50).max(100_000).optional().describe('Upper bound of the returned context, in tokens (default 3000)'),
        last_n: z.number().int().min(0).max(500).optional().describe('How many recent task events to include (default 5)'),
        top_k: z.number().int().min(1).max(200).optional().describe('How many memories to retrieve by meaning (default 5)'),
        user_id: scopeArgs.user_id,
        session_id: scopeArgs.session_id.describe('The current session: its recent turns form the episodic window, and its working memory scratchpad is appended'),
        agent_id: scopeArgs.agent_id,
        scope_mode: scopeArgs.scope_mode,
        ...timeArgs,
      },
      annotations: { readOnlyHint: false, openWorldHint: false },
    },
    async (a, env) => {
      const { memory, scope } = env;
      const who = identityOf(a, env);
      const ctx = await memory.getContext(a.query, {
        tenant: scope.tenant,
        ...(a.task_id ? { task_id: a.task_id } : {}),
        scope: Object.fromEntries(Object.entries({ user_id: who.userId, agent_id: who.agentId, session_id: who.sessionId }).filter(([, v]) => v !== undefined)),
        ...(a.scope_mode ? { scope_mode: a.scope_mode } : {}),
        ...(a.as_of !== undefined ? { as_of: a.as_of } : {}),
        ...(a.known_at !== undefined ? { known_at: a.known_at } : {}),
        episodic_window: a.last_n !== undefined ? { n: a.last_n } : {},
        semantic_retrieval: a.top_k !== undefined ? { top_k: a.top_k } : {},
        merge_policy: a.token_budget !== undefined ? { token_budget: a.token_budget } : {},
      });
      const sessionId = who.sessionId;
      const scratchpad = sessionId && memory.working ? await memory.working.toContext({ tenant: scope.tenant, sessionId }) : '';
      const parts = [ctx.text || '(no relevant memories)'];
      if (scratchpad) parts.push(`## Working Memory (session ${inertText(sessionId ?? '')})\n${scratchpad}`);
      parts.push(`(retrieval_id: ${ctx.retrievalId} — ${ctx.tokens.used}/${ctx.tokens.budget} tokens, ${ctx.items.length} items)`);
      return {
        text: parts.join('\n\n'),
        data: {
          retrieval_id: ctx.retrievalId,
          route: ctx.route,
          tokens: ctx.tokens,
          items: ctx.items.map((i) => ({ id: i.id, kind: i.kind, section: i.section, layer: i.layer, text: i.text, score: i.scores.final })),
          conflicts: ctx.conflicts.map((c) => c.note),
          ...(scratchpad ? { working_memory: scratchpad } : {}),
        },
      };
    },
  );

  addTool(
    server,
    env,
    'record_outcome',
    {
      title: 'Record outcome',
      description: OUTCOME,
      input: {
        retrieval_id: z.string().min(1).max(40).describe('The retrieval_id get_context returned'),
        outcome: z.enum(OUTCOMES).describe('SUCCESS, FAILURE, PARTIAL or UNKNOWN'),
        correction: z.string().min(1).max(32_768).optional().describe("What the right answer or approach turned out to be (the user's correction)"),
        details: z.string().min(1).max(32_768).optional().describe('Anything else worth knowing about the outcome'),
        used_item_ids: z
          .array(z.string().min(1).max(40))
          .max(1000)
          .optional()
          .describe('Ids of the get_context items your answer actually used: only these are reinforced or weakened (default: the items relevant to the query)'),
      },
      annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (a, { memory, scope }) => {
      need(memory.recordOutcome, 'record_outcome (the reinforcement loop)');
      if (!isId('retrieval', a.retrieval_id)) {
        throw new EngramError('VALIDATION', 'retrieval_id is not a retrieval id (ret_…) from get_context', { issues: [{ path: 'retrieval_id', message: 'expected ret_<ULID>' }] });
      }
      const r = await memory.recordOutcome!(a.retrieval_id, a.outcome, {
        ...(scope.tenant ? { tenant: scope.tenant } : {}),
        ...(a.correction ? { correction: a.correction } : {}),
        ...(a.details ? { details: a.details } : {}),
        ...(a.used_item_ids ? { usedItemIds: a.used_item_ids } : {}),
      });
      const changed = r.facts.length;
      return {
        text:
          `Recorded ${r.outcome} for ${r.retrievalId} as episode ${r.episodeId}: linked to ${r.retrievedEpisodeIds.length} retrieved episodes ` +
          `and ${r.retrievedFactIds.length} facts${changed ? `; ${changed} facts reinforced or weakened` : ''}.`,
        data: {
          retrieval_id: r.retrievalId,
          outcome: r.outcome,
          episode_id: r.episodeId,
          event_ids: r.eventIds,
          retrieved_episode_ids: r.retrievedEpisodeIds,
          retrieved_fact_ids: r.retrievedFactIds,
          bystander_fact_ids: r.bystanderFactIds,
          links: r.links.map((l) => ({ type: l.type, from: l.fromId, to: l.toId, weight: l.weight })),
          facts: JSON.parse(JSON.stringify(r.facts)) as unknown,
        },
      };
    },
  );

  addTool(
    server,
    env,
    'consolidate',
    {
      title: 'Consolidate memory',
      description: CONSOLIDATE,
      input: {},
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (_a, { memory, scope }) => {
      need(memory.consolidate, 'consolidate');
      const r = await memory.consolidate!({ ...(scope.tenant ? { tenant: scope.tenant } : {}) });
      const facts = r.distilled?.facts ?? [];
      const lines = facts.map((f) => `- ${f.text}${f.status === 'versioned' ? ' (replaces the previous value)' : ''}`);
      return {
        text: [
          `Consolidated: ${r.segmented.closed} episodes closed, ${r.facts.created.length} heuristics created, ${r.procedures.created.length} procedures created, ${facts.length} facts distilled from what users said.`,
          ...lines,
        ].join('\n'),
        data: {
          closed_episodes: r.segmented.closed,
          heuristics_created: r.facts.created.length,
          procedures_created: r.procedures.created.length,
          distilled: facts.map((f) => ({ fact_id: f.factId, subject: f.subject, predicate: f.predicate, value: f.value, text: f.text, status: f.status, ...(f.supersededId ? { superseded_id: f.supersededId } : {}), event_ids: f.eventIds })),
          expired: r.expired,
        },
      };
    },
  );
}
