/** `engram memories …`: Mem0-style CRUD over semantic memory (docs/scopes.md#crud). */
import type { Command } from 'commander';
import type { Fact } from '../../../core/types.js';
import type { ListInput } from '../../../memories.js';
import { collect, iso, parseIntOption, print, withMemory } from '../context.js';
import { times } from './read.js';

const line = (f: Fact) => `${f.id}  v${f.version} ${f.kind.padEnd(10)} ${iso(f.recordedAt)}  ${f.text}`;

export function registerMemories(program: Command): void {
  const memories = program.command('memories').description('list, read, update, delete and trace semantic memories by id');

  memories
    .command('list')
    .description('current memories by scope and kind, oldest first, a page at a time')
    .option('--user <id>', 'user id')
    .option('--agent <id>', 'agent id')
    .option('--session <id>', 'session id')
    .option('--kind <kind>', 'fact | chunk | preference | heuristic | insight (repeatable)', collect)
    .option('--as-of <time>', 'valid time (ISO-8601): each memory as it held then')
    .option('--known-at <time>', 'transaction time (ISO-8601): what was recorded by then')
    .option('--all', 'every version, superseded and ended ones too')
    .option('--limit <n>', 'page size (default 100)', parseIntOption('limit'))
    .option('--cursor <cursor>', 'next_cursor of the previous page')
    .action(async (o: Record<string, unknown>, cmd: Command) => {
      await withMemory(cmd, 'rows', async (m, g) => {
        const page = await m.memories.list({
          ...(o.user ? { userId: o.user as string } : {}),
          ...(o.agent ? { agentId: o.agent as string } : {}),
          ...(o.session ? { sessionId: o.session as string } : {}),
          ...(o.kind ? { kinds: o.kind as ListInput['kinds'] } : {}),
          ...times(o),
          includeExpired: o.all === true,
          ...(o.limit ? { limit: o.limit as number } : {}),
          ...(o.cursor ? { cursor: o.cursor as string } : {}),
        });
        print(g, { memories: page.memories, next_cursor: page.nextCursor ?? null }, () =>
          [page.memories.map(line).join('\n') || '(no memories)', ...(page.nextCursor ? [`(more: --cursor ${page.nextCursor})`] : [])].join('\n'),
        );
      });
    });

  memories
    .command('get')
    .description('one memory version by id; with --as-of/--known-at, the version of its lineage served then')
    .argument('<id>', 'a memory (fact) id')
    .option('--as-of <time>', 'valid time (ISO-8601)')
    .option('--known-at <time>', 'transaction time (ISO-8601)')
    .action(async (id: string, o: Record<string, unknown>, cmd: Command) => {
      await withMemory(cmd, 'rows', async (m, g) => {
        const fact = await m.memories.get(id, times(o));
        print(g, fact, () => line(fact));
      });
    });

  memories
    .command('update')
    .description('a new version of the memory (any version id); the old one is kept as history and leaves search')
    .argument('<id>', 'the id of any version')
    .argument('<text>', 'the new text')
    .action(async (id: string, text: string, _o: unknown, cmd: Command) => {
      await withMemory(cmd, 'ingest', async (m, g) => {
        const r = await m.memories.update(id, { text });
        print(g, r, () => `${r.status}: ${line(r.fact)}`);
      });
    });

  memories
    .command('delete')
    .description('delete the memory: every version of its lineage')
    .argument('<id>', 'the id of any version')
    .action(async (id: string, _o: unknown, cmd: Command) => {
      await withMemory(cmd, 'rows', async (m, g) => {
        const report = await m.memories.delete(id);
        print(g, report, () => `deleted ${report.facts} version(s) of ${id}`);
      });
    });

  memories
    .command('history')
    .description('every version of a memory, oldest first (by the id of any version, or its key)')
    .argument('<id>', 'the id of any version, or the lineage key')
    .action(async (id: string, _o: unknown, cmd: Command) => {
      await withMemory(cmd, 'rows', async (m, g) => {
        const versions = await m.memories.history(id);
        print(g, versions, () =>
          versions
            .map((f) => `${line(f)}${f.validTo !== undefined ? `  (valid until ${iso(f.validTo)})` : ''}${f.expiredAt !== undefined ? `  (replaced ${iso(f.expiredAt)})` : ''}`)
            .join('\n') || '(no versions)',
        );
      });
    });
}
