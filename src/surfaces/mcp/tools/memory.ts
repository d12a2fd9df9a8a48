/**
 * Seed 003's semantic-memory tools. `manage_memory` stores (and corrects, and deletes) facts the user shares;
 * `search_memory` finds them again by meaning, however the question is phrased.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { EngramError } from '../../../core/errors.js';
import { idKind, isId } from '../../../core/ids.js';
import { DOC_KINDS, FACT_KINDS, type DocKind } from '../../../core/types.js';
import { addTool, identityOf, iso, need, scopeArgs, timeArgs, timesOf, type ToolEnv } from '../tool.js';

const MANAGE = [
  'Store, update or delete a long-term memory about the user or their work.',
  'Call it whenever the user shares a preference, fact or detail worth remembering for later conversations —',
  'their name, role, preferences ("I prefer TypeScript", "use metric units"), tools and configurations they use,',
  'project details, decisions, deadlines, people and relationships — even when they did not ask you to remember it.',
  'Store one self-contained fact per call, written so it makes sense on its own later ("The user prefers dark mode in',
  'all editors"), not "he likes it". To correct a memory that changed, call with action "update" and its memory_id',
  '(the old version is kept as history); to remove one the user asks you to forget, action "delete".',
  'Do not store secrets, passwords or one-off small talk.',
].join(' ');

const SEARCH = [
  'Search long-term memory by meaning.',
  'Call it before answering whenever the question may depend on something the user told you before — their',
  'preferences, past decisions, project details, earlier conversations ("what do I usually…", "as I mentioned…",',
  '"last time…") — or when you need context you do not have. The query can be phrased differently from how the',
  'memory was stored. Returns the best matches with ids, kinds and when they were recorded.',
].join(' ');

export function registerMemoryTools(server: McpServer, env: ToolEnv): void {
  addTool(
    server,
    env,
    'manage_memory',
    {
      title: 'Manage memory',
      description: MANAGE,
      input: {
        action: z.enum(['create', 'update', 'delete']).default('create').describe('create (default), update an existing memory, or delete one'),
        content: z.string().min(1).max(32_768).optional().describe('The fact to remember, self-contained (required for create and update)'),
        memory_id: z.string().min(1).max(40).optional().describe('The id of the memory to update or delete (from search_memory)'),
        kind: z.enum(['fact', 'preference']).default('fact').describe('"preference" for likes, dislikes and how the user wants things done'),
        subject: z.string().min(1).max(500).optional().describe('What the fact is about, e.g. "user" or a project name (optional)'),
        predicate: z.string().min(1).max(200).optional().describe('The attribute, e.g. "prefers editor theme" (optional; a new value for the same subject+predicate supersedes the old one)'),
        tags: z.array(z.string().min(1).max(100)).max(16).optional(),
        user_id: scopeArgs.user_id,
      },
      annotations: { destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    async (a, { memory, scope }) => {
      const tenant = scope.tenant;
      const userId = a.user_id ?? scope.userId;
      if (a.action !== 'delete' && a.content === undefined) {
        throw new EngramError('VALIDATION', `content is required to ${a.action} a memory`, { issues: [{ path: 'content', message: 'required' }] });
      }
      if (a.action !== 'create' && a.memory_id === undefined) {
        throw new EngramError('VALIDATION', `memory_id is required to ${a.action} a memory`, { issues: [{ path: 'memory_id', message: 'required' }] });
      }
      // The id is checked here so the error names this tool's argument, not the library's (`ids.0`, `id`).
      if (a.memory_id !== undefined && (a.action === 'update' ? !isId('fact', a.memory_id) : idKind(a.memory_id) === undefined)) {
        const expected = a.action === 'update' ? 'a fact id (fct_…) from search_memory' : 'a memory id from search_memory';
        throw new EngramError('VALIDATION', `memory_id ${JSON.stringify(a.memory_id)} is not ${expected}`, { issues: [{ path: 'memory_id', message: `expected ${expected}` }] });
      }
      if (a.action === 'delete') {
        const report = await memory.forget({ tenant, ids: [a.memory_id!] });
        const removed = report.facts + report.events + (report.episodes ?? 0) + (report.procedures ?? 0) + (report.examples ?? 0);
        if (removed === 0) throw new EngramError('NOT_FOUND', `no memory ${a.memory_id}`, { issues: [{ path: 'memory_id', message: 'not found' }] });
        return { text: `Deleted memory ${a.memory_id}.`, data: { action: 'deleted', memory_id: a.memory_id } };
      }
      const base = {
        text: a.content!,
        tenant,
        userId,
        agentId: scope.agentId,
        kind: a.kind,
        ...(a.subject ? { subject: a.subject } : {}),
        ...(a.predicate ? { predicate: a.predicate } : {}),
        tags: a.tags ?? [],
      };
      if (a.action === 'update') {
        const old = await memory.getFact(a.memory_id!, tenant);
        const r = await memory.remember({ ...base, key: old.key, userId: userId ?? old.userId });
        return {
          text: `Updated memory ${old.id} → ${r.fact.id} (version ${r.fact.version}): ${r.fact.text}`,
          data: { action: r.status === 'duplicate' ? 'unchanged' : 'updated', memory_id: r.fact.id, previous_id: old.id, version: r.fact.version },
        };
      }
      const r = await memory.remember(base);
      const verb = r.status === 'duplicate' ? 'Already remembered' : r.status === 'versioned' ? 'Updated' : 'Remembered';
      return {
        text: `${verb} as ${r.fact.id}: ${r.fact.text}`,
        data: { action: r.status === 'duplicate' ? 'unchanged' : r.status === 'versioned' ? 'updated' : 'created', memory_id: r.fact.id, version: r.fact.version },
      };
    },
  );

  addTool(
    server,
    env,
    'search_memory',
    {
      title: 'Search memory',
      description: SEARCH,
      input: {
        query: z.string().min(1).max(10_000).describe('What you are looking for, in natural language'),
        k: z.number().int().min(1).max(50).default(5).describe('How many results (default 5)'),
        kinds: z
          .array(z.enum(DOC_KINDS))
          .min(1)
          .optional()
          .describe('Restrict to kinds: fact (stored memories), event (timeline), episode (past tasks with outcomes), procedure, example'),
        user_id: scopeArgs.user_id,
        session_id: scopeArgs.session_id,
        agent_id: scopeArgs.agent_id,
        scope_mode: scopeArgs.scope_mode,
        ...timeArgs,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (a, env) => {
      const kinds: DocKind[] = a.kinds ?? ['fact', 'event', 'episode'];
      const hits = await env.memory.search({
        query: a.query,
        k: a.k,
        kinds,
        tenant: env.scope.tenant,
        ...identityOf(a, env),
        ...(a.scope_mode ? { scopeMode: a.scope_mode } : {}),
        ...timesOf(a),
      });
      const results = hits.map((h) => ({ id: h.doc.refId, kind: h.doc.kind, layer: h.layer, text: h.doc.text, score: Math.round(h.score * 1000) / 1000, recorded: iso(h.doc.ts) }));
      const text = results.length
        ? `Found ${results.length} ${results.length === 1 ? 'memory' : 'memories'}:\n${results.map((r, i) => `${i + 1}. [${r.kind} ${r.id} · ${r.layer}] (score ${r.score}, ${r.recorded.slice(0, 10)}) ${r.text}`).join('\n')}`
        : 'No matching memories.';
      return { text, data: { results } };
    },
  );

  addTool(
    server,
    env,
    'list_memories',
    {
      title: 'List memories',
      description:
        'List stored long-term memories (facts and preferences) of a user, oldest first, a page at a time. Use it to review everything remembered about the user; pass next_cursor from the previous page to continue.',
      input: {
        user_id: scopeArgs.user_id,
        agent_id: scopeArgs.agent_id,
        kinds: z.array(z.enum(FACT_KINDS)).min(1).optional().describe('Only these kinds (fact, preference, …)'),
        limit: z.number().int().min(1).max(200).default(50).describe('Page size (default 50)'),
        cursor: z.string().min(1).max(200).optional().describe('next_cursor of the previous page'),
        ...timeArgs,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (a, env) => {
      const api = need(env.memory.memories, 'listing memories');
      const who = identityOf(a, env);
      const page = await api.list({
        tenant: env.scope.tenant,
        ...(who.userId ? { userId: who.userId } : {}),
        ...(who.agentId ? { agentId: who.agentId } : {}),
        ...(a.kinds ? { kinds: a.kinds } : {}),
        limit: a.limit,
        ...(a.cursor ? { cursor: a.cursor } : {}),
        ...timesOf(a),
      });
      const memories = page.memories.map((f) => ({ id: f.id, kind: f.kind, text: f.text, version: f.version, recorded: iso(f.recordedAt) }));
      const lines = memories.map((m, i) => `${i + 1}. [${m.kind} ${m.id} v${m.version}] ${m.text}`);
      const more = page.nextCursor ? `\n(more: cursor ${page.nextCursor})` : '';
      return {
        text: memories.length ? `${memories.length} ${memories.length === 1 ? 'memory' : 'memories'}:\n${lines.join('\n')}${more}` : 'No memories.',
        data: { memories, next_cursor: page.nextCursor ?? null },
      };
    },
  );

  addTool(
    server,
    env,
    'memory_history',
    {
      title: 'Memory history',
      description: 'Show how a memory changed over time: every version of it, oldest first, with when each held. Takes the id of any version (from search_memory or list_memories).',
      input: { memory_id: z.string().min(1).max(40).describe('The id of any version of the memory (fct_…)') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (a, env) => {
      if (!isId('fact', a.memory_id)) {
        throw new EngramError('VALIDATION', `memory_id ${JSON.stringify(a.memory_id)} is not a fact id (fct_…)`, { issues: [{ path: 'memory_id', message: 'expected a fact id' }] });
      }
      const versions = await need(env.memory.memories, 'memory history').history(a.memory_id, env.scope.tenant);
      const rows = versions.map((f) => ({
        id: f.id,
        version: f.version,
        text: f.text,
        valid_from: f.validFrom !== undefined ? iso(f.validFrom) : null,
        valid_to: f.validTo !== undefined ? iso(f.validTo) : null,
        recorded: iso(f.recordedAt),
        replaced: f.expiredAt !== undefined ? iso(f.expiredAt) : null,
      }));
      const text = rows.map((r) => `v${r.version} ${r.id}: ${r.text} (valid ${r.valid_from ?? '…'} – ${r.valid_to ?? 'now'}${r.replaced ? `, replaced ${r.replaced}` : ''})`).join('\n');
      return { text, data: { key: versions[0]?.key ?? null, versions: rows } };
    },
  );
}
