import type { Command } from 'commander';
import type { EventInput, FactInput } from '../../../write/input.js';
import { collect, iso, parseJsonOption, print, withMemory } from '../context.js';

export function registerWrite(program: Command): void {
  program
    .command('log')
    .description('append an event to the timeline (durable when the command exits; embedded by the next command that searches)')
    .requiredOption('--content <text>', 'what happened')
    .option('--type <type>', 'message | tool_call | tool_result | observation | decision | outcome | correction | feedback | state_change | error | note', 'message')
    .option('--task <id>', 'task id')
    .option('--session <id>', 'session id')
    .option('--user <id>', 'user id')
    .option('--agent <id>', 'agent id')
    .option('--actor <actor>', 'user | agent | system | tool')
    .option('--name <name>', 'display name of the actor (e.g. a speaker)')
    .option('--tool <name>', 'tool name for tool calls')
    .option('--args <json>', 'tool arguments as JSON', parseJsonOption('args'))
    .option('--result <json>', 'tool result as JSON', parseJsonOption('result'))
    .option('--state <label>', 'state label, e.g. debugging')
    .option('--tag <tag>', 'tag (repeatable)', collect)
    .option('--importance <0..1>', 'importance', Number)
    .option('--source <source>', 'source (enables dedupe by source+content)')
    .option('--ts <time>', 'when it happened (ISO-8601); default now')
    .action(async (o: Record<string, unknown>, cmd: Command) => {
      await withMemory(cmd, 'rows', async (m, g) => {
        const e = await m.logEvent({
          content: o.content as string,
          type: o.type as EventInput['type'],
          taskId: o.task as string | undefined,
          sessionId: o.session as string | undefined,
          userId: o.user as string | undefined,
          agentId: o.agent as string | undefined,
          actor: o.actor as EventInput['actor'],
          name: o.name as string | undefined,
          tool: o.tool as string | undefined,
          args: o.args as EventInput['args'],
          result: o.result as EventInput['result'],
          stateLabel: o.state as string | undefined,
          tags: (o.tag as string[] | undefined) ?? [],
          importance: o.importance as number | undefined,
          source: o.source as string | undefined,
          ts: o.ts as string | undefined,
        });
        print(g, e, () => `${e.duplicate ? 'duplicate of' : 'logged'} ${e.id} (seq ${e.seq}, ${iso(e.ts)})`);
      });
    });

  program
    .command('consolidate')
    .description('consolidate now: close idle episodes, distil heuristics and procedures, turn what users said about themselves into facts (versioned when a value changed), apply retention')
    .action(async (_o: Record<string, unknown>, cmd: Command) => {
      await withMemory(cmd, 'rows', async (m, g) => {
        const r = await m.learn.consolidate();
        const facts = r.distilled?.facts ?? [];
        print(g, r, () =>
          [
            `consolidated ${r.tenant}: ${r.segmented.closed} episodes closed, ${r.facts.created.length} heuristics, ${r.procedures.created.length} procedures, ${facts.length} facts distilled`,
            ...facts.map((f) => `  ${f.status} ${f.factId}: ${f.text}${f.supersededId ? ` (supersedes ${f.supersededId})` : ''}`),
          ].join('\n'),
        );
      });
    });

  program
    .command('remember')
    .description('store a fact or document chunk in semantic memory (a new version if its key already exists; durable when the command exits, embedded by the next command that searches)')
    .argument('<text>', 'the fact or chunk')
    .option('--key <key>', 'stable key, e.g. doc_42_para_7; remembering it again makes a new version')
    .option('--source <source>', 'source document, e.g. runbook.md')
    .option('--section <section>', 'section within the source')
    .option('--subject <s>', 'subject (with --predicate: a new value becomes a new version)')
    .option('--predicate <p>', 'predicate')
    .option('--value <v>', 'value')
    .option('--kind <kind>', 'fact | chunk | preference | heuristic | insight', 'fact')
    .option('--tag <tag>', 'tag (repeatable)', collect)
    .option('--pii', 'the text is about a person (filterable as pii=true)')
    .option('--user <id>', 'user id')
    .option('--confidence <0..1>', 'confidence', Number)
    .action(async (text: string, o: Record<string, unknown>, cmd: Command) => {
      await withMemory(cmd, 'rows', async (m, g) => {
        const r = await m.remember({
          text,
          key: o.key as string | undefined,
          source: o.source as string | undefined,
          section: o.section as string | undefined,
          subject: o.subject as string | undefined,
          predicate: o.predicate as string | undefined,
          value: o.value as string | undefined,
          kind: o.kind as FactInput['kind'],
          tags: (o.tag as string[] | undefined) ?? [],
          pii: Boolean(o.pii),
          userId: o.user as string | undefined,
          confidence: o.confidence as number | undefined,
        });
        print(g, r, () => `${r.status} ${r.fact.id} (key ${r.fact.key}, version ${r.fact.version})`);
      });
    });
}
