import type { Command } from 'commander';
import type { ContextConfigInput } from '../../../core/config.js';
import type { FetchEventsInput, SearchInput } from '../../../memory-queries.js';
import { collect, iso, parseIntOption, parseJsonOption, print, withMemory } from '../context.js';

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
    .action(async (query: string, o: Record<string, unknown>, cmd: Command) => {
      await withMemory(
        cmd, 'read',
        async (m, g) => {
          const hits = await m.search({
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
                return `${h.score.toFixed(3)}  ${h.doc.kind.padEnd(5)} ${h.doc.refId}${where ? `  [${where}]` : ''}\n       ${h.doc.text}`;
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
          };
          const ctx = await m.getContext(query, cfg);
          print(g, ctx, () => `${ctx.text}\n\n(${ctx.tokens.used}/${ctx.tokens.budget} tokens, ${ctx.items.length} items, retrieval ${ctx.retrievalId})`);
        }
      );
    });
}
