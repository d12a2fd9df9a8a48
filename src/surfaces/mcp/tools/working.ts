/**
 * MemGPT-style self-editing of the session scratchpad (seed 002: the context window is RAM, long-term memory
 * the disk, and the model pages between them). The scratchpad is bounded: when it is full the lowest-priority
 * items are evicted, and every edit reports what went.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { DOC_KINDS } from '../../../core/types.js';
import type { EditResult } from '../../../working/api.js';
import { addTool, need, scopeArgs, sessionOf, type ToolEnv, type ToolReply } from '../tool.js';

const priority = z.number().min(0).max(10).describe('0–10, higher survives eviction longer (notes default 1, evidence 2)');

function editReply(what: string, r: EditResult, max: number, extra: Record<string, unknown> = {}): ToolReply {
  const evicted = r.evicted.length
    ? `\nEvicted: ${r.evicted.map((e) => `${e.id ?? e.unit} (${e.reason}) "${e.content.slice(0, 60)}"`).join('; ')}`
    : '';
  return {
    text: `${what} Scratchpad: ${r.tokens}/${max} tokens (version ${r.version}).${evicted}`,
    data: { ...extra, version: r.version, tokens: r.tokens, max_tokens: max, evicted: r.evicted.map((e) => ({ ...e })) },
  };
}

export function registerWorkingMemoryTools(server: McpServer, env: ToolEnv): void {
  const wm = () => need(env.memory.working, 'working memory');
  const session = { session_id: scopeArgs.session_id };

  addTool(
    server,
    env,
    'working_memory_view',
    {
      title: 'View working memory',
      description:
        'Show the scratchpad of the current session: plan, key facts, evidence with sources, notes (each with its id), summary of earlier turns. Call it at the start of a turn in a long task, or before editing items by id.',
      input: session,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (a) => {
      const v = await wm().view({ tenant: env.scope.tenant, sessionId: sessionOf(a, env) });
      return {
        text: v.text ? `${v.text}\n\n(${v.tokens}/${v.maxTokens} tokens, version ${v.version})` : `(empty scratchpad, cap ${v.maxTokens} tokens)`,
        data: { version: v.version, tokens: v.tokens, max_tokens: v.maxTokens, plan: v.plan ?? null, items: v.items, entities: v.entities, summary: v.summary ?? null },
      };
    },
  );

  addTool(
    server,
    env,
    'working_memory_append',
    {
      title: 'Append to working memory',
      description:
        'Add a note or a piece of evidence to the session scratchpad. Use it during multi-step work to keep intermediate results, hypotheses and findings (evidence needs its source: a file, URL, tool or memory id) instead of holding them only in the conversation. Give a higher priority to what must survive eviction.',
      input: {
        content: z.string().min(1).max(20_000),
        kind: z.enum(['note', 'evidence']).default('note'),
        source: z.string().min(1).max(500).optional().describe('Where the evidence came from (required for evidence)'),
        priority: priority.optional(),
        ...session,
      },
      annotations: { destructiveHint: false, openWorldHint: false },
    },
    async (a) => {
      const r = await wm().append({ tenant: env.scope.tenant, sessionId: sessionOf(a, env), content: a.content, kind: a.kind, ...(a.source ? { source: a.source } : {}), ...(a.priority !== undefined ? { priority: a.priority } : {}) });
      return editReply(`Added ${r.item.id}.`, r, wm().options.maxTokens, { item: r.item });
    },
  );

  addTool(
    server,
    env,
    'working_memory_replace',
    {
      title: 'Replace in working memory',
      description:
        'Correct a scratchpad item: by id, replace its whole content, or with `find`, replace just that text inside it (without an id, the first item containing `find`). Also changes an item’s priority. Use it when a finding turns out wrong or needs updating.',
      input: {
        id: z.string().min(1).max(40).optional().describe('Item id, e.g. n3'),
        find: z.string().min(1).max(20_000).optional().describe('Text to replace inside the item'),
        content: z.string().max(20_000).optional().describe('The new content (or the replacement for `find`)'),
        priority: priority.optional(),
        ...session,
      },
      annotations: { destructiveHint: true, openWorldHint: false },
    },
    async (a) => {
      const r = await wm().replace({
        tenant: env.scope.tenant,
        sessionId: sessionOf(a, env),
        ...(a.id ? { id: a.id } : {}),
        ...(a.find ? { find: a.find } : {}),
        ...(a.content !== undefined ? { content: a.content } : {}),
        ...(a.priority !== undefined ? { priority: a.priority } : {}),
      });
      return editReply(`Updated ${r.item.id}: ${r.item.content.slice(0, 120)}`, r, wm().options.maxTokens, { item: r.item });
    },
  );

  addTool(
    server,
    env,
    'working_memory_remove',
    {
      title: 'Remove from working memory',
      description: 'Remove an item from the scratchpad by id once it is no longer needed (use working_memory_page_out instead to keep it in long-term memory).',
      input: { id: z.string().min(1).max(40).describe('Item id, e.g. n3'), ...session },
      annotations: { destructiveHint: true, openWorldHint: false },
    },
    async (a) => {
      const r = await wm().remove({ tenant: env.scope.tenant, sessionId: sessionOf(a, env), id: a.id });
      return editReply(`Removed ${r.item.id}.`, r, wm().options.maxTokens, { item: r.item });
    },
  );

  addTool(
    server,
    env,
    'working_memory_set_plan',
    {
      title: 'Set plan',
      description: 'Set or replace the current plan of the session (an empty plan clears it). Write the plan when you start a multi-step task and update it as steps complete.',
      input: { plan: z.string().max(20_000).describe('The plan, e.g. numbered steps with their status'), ...session },
      annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    async (a) => {
      const r = await wm().setPlan({ tenant: env.scope.tenant, sessionId: sessionOf(a, env), plan: a.plan.trim() === '' ? null : a.plan });
      return editReply(a.plan.trim() === '' ? 'Plan cleared.' : 'Plan set.', r, wm().options.maxTokens);
    },
  );

  addTool(
    server,
    env,
    'working_memory_page_out',
    {
      title: 'Page out to long-term memory',
      description:
        'Move a scratchpad item into long-term memory and free its space: it stays findable with search_memory and working_memory_page_in. Use it for findings worth keeping beyond this task when the scratchpad is getting full.',
      input: { id: z.string().min(1).max(40).describe('Item id, e.g. e2'), tags: z.array(z.string().min(1).max(100)).max(16).optional(), ...session, user_id: scopeArgs.user_id },
      annotations: { destructiveHint: false, openWorldHint: false },
    },
    async (a) => {
      const r = await wm().pageOut({ tenant: env.scope.tenant, sessionId: sessionOf(a, env), userId: a.user_id ?? env.scope.userId, agentId: env.scope.agentId, id: a.id, ...(a.tags ? { tags: a.tags } : {}) });
      return editReply(`Paged ${r.item.id} out to long-term memory as ${r.memoryId}.`, r, wm().options.maxTokens, { memory_id: r.memoryId, item: r.item });
    },
  );

  addTool(
    server,
    env,
    'working_memory_page_in',
    {
      title: 'Page in from long-term memory',
      description:
        'Search long-term memory by meaning and bring the best matches into the scratchpad (as items with ids, citing their memory ids), skipping ones already there. Use it when the task needs facts or past episodes you do not have in front of you.',
      input: {
        query: z.string().min(1).max(10_000),
        k: z.number().int().min(1).max(20).default(3),
        kinds: z.array(z.enum(DOC_KINDS)).min(1).optional().describe('Restrict to fact, event, episode, procedure or example'),
        priority: priority.optional(),
        ...session,
        user_id: scopeArgs.user_id,
      },
      annotations: { destructiveHint: false, openWorldHint: false },
    },
    async (a) => {
      const r = await wm().pageIn({
        tenant: env.scope.tenant,
        sessionId: sessionOf(a, env),
        userId: a.user_id ?? env.scope.userId,
        agentId: env.scope.agentId,
        query: a.query,
        k: a.k,
        ...(a.kinds ? { kinds: a.kinds } : {}),
        ...(a.priority !== undefined ? { priority: a.priority } : {}),
      });
      const added = r.items.map((i) => `${i.id} [${i.source}] ${i.content.slice(0, 100)}`).join('\n');
      return editReply(r.items.length ? `Paged in ${r.items.length}:\n${added}\n` : 'Nothing new to page in.', r, wm().options.maxTokens, { items: r.items });
    },
  );
}
