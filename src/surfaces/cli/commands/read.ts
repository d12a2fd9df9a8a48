import type { Command } from 'commander';
import type { ContextConfigInput } from '../../../core/config.js';
import type { FetchEventsInput, SearchInput } from '../../../memory-queries.js';
import { collect, iso, parseIntOption, parseJsonOption, print, withMemory } from '../context.js';

/** --as-of / --known-at as the library takes them (it validates the times). */
export function times(o: Record<string, unknown>): { asOf?: string; knownAt?: string } {
  return { ...(o.asOf ? { asOf: o.asOf as string } : {}), ...(o.knownAt ? { knownAt: o.knownAt as string } : {}) };
}

export function registerRead(program: Command): void {
  program
    .command('events')
    .description('list timeline events (last N, since T minutes, by session/task/type/tag)')
    .option('--task <id>', 'task id')
    .option('--session <id>', 'session id')
    .option('--user <id>', 'user id')
    .option('--last <n>', 'the last N events', parseIntOption('last'))
    .option('--since-minutes <t>', 'events of the last T minutes', Number)
    .option('--type <type>', 'event type (repeatable)', collect)
    .option('--tag <tag>', 'tag (repeatable; all must match)', collect)
    .option('--filter <json>', 'metadata filter (see docs/filters.md)', parseJsonOption('filter'))
    .option('--limit <n>', 'at most N events', parseIntOption('limit'))
    .option('--agent <id>', 'agent id')
    .option('--as-of <time>', 'valid time (ISO-8601): only events that happened by then')
    .option('--known-at <time>', 'transaction time (ISO-8601): only events recorded by then')
    .action(async (o: Record<string, unknown>, cmd: Command) => {
      await withMemory(
        cmd, 'rows',
        async (m, g) => {
          const events = await m.fetchEvents({
            taskId: o.task as string | undefined,
            sessionId: o.session as string | undefined,
            userId: o.user as string | undefined,
            lastN: o.last as number | undefined,
            sinceMinutes: o.sinceMinutes as number | undefined,
            types: o.type as FetchEventsInput['types'],
            tags: o.tag as string[] | undefined,
            filter: o.filter as Record<string, unknown> | undefined,
            limit: o.limit as number | undefined,
            agentId: o.agent as string | undefined,
            ...times(o),
          });
          print(g, events, () =>
            events.map((e) => `${iso(e.ts)}  ${e.type.padEnd(11)} ${e.actor.padEnd(6)} ${e.content}`).join('\n') || '(no events)',
          );
        }
      );
    });

  program
    .command('search')
    .description('hybrid search (vector + lexical) over events and facts')
    .argument('<query>', 'what to look for')
    .option('--k <n>', 'how many results', parseIntOption('k'), 10)
    .option('--kind <kind>', 'event | fact | episode | example | procedure (repeatable)', collect)
    .option('--filter <json>', 'metadata filter, e.g. {"tags":["policy"]}', parseJsonOption('filter'))
    .option('--mode <mode>', 'hybrid | vector | lexical', 'hybrid')
    .option('--user <id>', 'user id')
    .option('--session <id>', 'session id')
    .option('--agent <id>', 'agent id')
    .option('--scope-mode <mode>', "layered (default: the user's, agent's, session's and shared memories) | strict (exactly this scope)")
    .option('--as-of <time>', 'valid time (ISO-8601): the world as it was then')
    .option('--known-at <time>', 'transaction time (ISO-8601): only what was recorded by then')
    .action(async (query: string, o: Record<string, unknown>, cmd: Command) => {
      await withMemory(
        cmd, 'read',
        async (m, g) => {
          const hits = await m.search({
            sessionId: o.session as string | undefined,
            agentId: o.agent as string | undefined,
            ...(o.scopeMode ? { scopeMode: o.scopeMode as SearchInput['scopeMode'] } : {}),
            ...times(o),
            query,
            k: o.k as number,
            kinds: o.kind as SearchInput['kinds'],
            filter: o.filter as Record<string, unknown> | undefined,
            mode: o.mode as SearchInput['mode'],
            userId: o.user as string | undefined,
          });
          print(g, hits, () =>
            hits
              .map((h) => {
                const where = [h.doc.source, h.doc.section].filter(Boolean).join(' §');
                return `${h.score.toFixed(3)}  ${h.doc.kind.padEnd(5)} ${h.layer.padEnd(7)} ${h.doc.refId}${where ? `  [${where}]` : ''}\n       ${h.doc.text}`;
              })
              .join('\n') || '(no results)',
          );
        }
      );
    });

  program
    .command('context')
    .description("assemble budgeted context for a query (seed 000's hybrid recipe); JSON reports tokens used")
    .argument('<query>', 'the question or task')
    .option('--task <id>', 'task whose recent events form the episodic window')
    .option('--budget <tokens>', 'token budget for the rendered context', parseIntOption('budget'))
    .option('--last <n>', 'events in the episodic window', Number)
    .option('--k <n>', 'semantic top-k', parseIntOption('k'))
    .option('--config <json>', "a full hybrid config (seed 000's JSON); flags override it", parseJsonOption('config'))
    .option('--user <id>', 'who is asking: the user')
    .option('--session <id>', 'who is asking: the session (its recent turns form the window)')
    .option('--agent <id>', 'who is asking: the agent')
    .option('--scope-mode <mode>', 'layered (default) | strict')
    .option('--as-of <time>', 'valid time (ISO-8601): the world as it was then')
    .option('--known-at <time>', 'transaction time (ISO-8601): only what was recorded by then')
    .action(async (query: string, o: Record<string, unknown>, cmd: Command) => {
      await withMemory(
        cmd, 'read',
        async (m, g) => {
          const base = (o.config ?? {}) as ContextConfigInput & Record<string, Record<string, unknown>>;
          const cfg: ContextConfigInput = {
            ...base,
            ...(o.task ? { task_id: o.task as string } : {}),
            episodic_window: { ...base.episodic_window, ...(o.last !== undefined ? { n: o.last as number } : {}) },
            semantic_retrieval: { ...base.semantic_retrieval, ...(o.k ? { top_k: o.k as number } : {}) },
            merge_policy: { ...base.merge_policy, ...(o.budget ? { token_budget: o.budget as number } : {}) },
            ...(o.user || o.session || o.agent
              ? { scope: { ...base.scope, ...(o.user ? { user_id: o.user as string } : {}), ...(o.session ? { session_id: o.session as string } : {}), ...(o.agent ? { agent_id: o.agent as string } : {}) } }
              : {}),
            ...(o.scopeMode ? { scope_mode: o.scopeMode as ContextConfigInput['scope_mode'] } : {}),
            ...(o.asOf ? { as_of: o.asOf as string } : {}),
            ...(o.knownAt ? { known_at: o.knownAt as string } : {}),
          };
          const ctx = await m.getContext(query, cfg);
          print(g, ctx, () => `${ctx.text}\n\n(${ctx.tokens.used}/${ctx.tokens.budget} tokens, ${ctx.items.length} items, retrieval ${ctx.retrievalId})`);
        }
      );
    });
}
