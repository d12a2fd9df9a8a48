/** `engram graph …`: the knowledge graph from the command line (search, entities, relations with history, writes). */
import type { Command } from 'commander';
import { EngramError } from '../../../core/errors.js';
import { collect, iso, parseIntOption, print, withMemory } from '../context.js';

const time = (flag: string) => (v: string): number => {
  const t = Date.parse(v);
  if (Number.isNaN(t)) throw new EngramError('VALIDATION', `--${flag} takes an ISO-8601 time`, { issues: [{ path: flag, message: 'ISO-8601' }] });
  return t;
};

export function registerGraph(program: Command): void {
  const graph = program.command('graph').description('the knowledge graph: entities and versioned relations read from memories or stated');

  graph
    .command('search')
    .description("relations around the entities a question names, best first (e.g. \"Who is Alice's manager?\")")
    .argument('<query>', 'the question')
    .option('--as-of <time>', 'as Engram held the graph at this time (ISO-8601)', time('as-of'))
    .option('--limit <n>', 'at most N relations', parseIntOption('limit'), 10)
    .option('--user <id>', 'user id')
    .action(async (query: string, o: { asOf?: number; limit: number; user?: string }, cmd: Command) => {
      await withMemory(cmd, 'read', async (m, g) => {
        const hits = await m.graph.search(query, { limit: o.limit, userId: o.user, ...(o.asOf !== undefined ? { asOf: o.asOf } : {}) });
        print(g, hits, () =>
          hits.map((h) => `${h.score.toFixed(2)}  ${h.text}${h.expired ? '  (no longer held)' : ''}  [${h.relationId}; from ${[...h.provenance.eventIds, ...h.provenance.factIds].join(', ') || h.provenance.origin}]`).join('\n') ||
          '(no entity in the question is known)',
        );
      });
    });

  graph
    .command('entities')
    .description('list entities by name or alias, text or type')
    .option('--name <name>', 'name or alias (repeatable)', collect)
    .option('--text <text>', 'substring of name, type, aliases or observations')
    .option('--type <type>', 'entity type (repeatable)', collect)
    .option('--limit <n>', 'at most N', parseIntOption('limit'), 100)
    .option('--user <id>', 'user id')
    .action(async (o: { name?: string[]; text?: string; type?: string[]; limit: number; user?: string }, cmd: Command) => {
      await withMemory(cmd, 'read', async (m, g) => {
        const found = await m.graph.entities({ names: o.name, text: o.text, types: o.type, limit: o.limit, userId: o.user });
        print(g, found, () => found.map((e) => `${e.id}  ${e.entityType.padEnd(12)} ${e.name}${e.aliases.length ? ` (${e.aliases.join(', ')})` : ''}`).join('\n') || '(no entities)');
      });
    });

  graph
    .command('relations')
    .description('relations (live by default), optionally of one entity; --history for closed ones, --as-of for the past')
    .option('--entity <name>', 'touching this entity (name or alias)')
    .option('--direction <dir>', 'out | in | both', 'both')
    .option('--type <type>', 'relation type (repeatable)', collect)
    .option('--history', 'closed relations too', false)
    .option('--as-of <time>', 'as Engram held them at this time (ISO-8601)', time('as-of'))
    .option('--valid-at <time>', 'those that held in the world at this time (ISO-8601)', time('valid-at'))
    .option('--limit <n>', 'at most N', parseIntOption('limit'), 100)
    .action(async (o: { entity?: string; direction: 'out' | 'in' | 'both'; type?: string[]; history: boolean; asOf?: number; validAt?: number; limit: number }, cmd: Command) => {
      await withMemory(cmd, 'read', async (m, g) => {
        const rels = await m.graph.relations({ entity: o.entity, direction: o.direction, types: o.type, includeExpired: o.history, asOf: o.asOf, validAt: o.validAt, limit: o.limit });
        print(g, rels, () =>
          rels.map((r) => `${r.from} ${r.type.replace(/_/g, ' ')} ${r.to}${r.validFrom !== undefined ? `  since ${iso(r.validFrom).slice(0, 10)}` : ''}${r.expiredAt !== undefined ? `  (closed ${iso(r.expiredAt)})` : ''}  [${r.id}]`).join('\n') || '(no relations)',
        );
      });
    });

  graph
    .command('relate')
    .description('state a relation: engram graph relate Carol manages Alice [--exclusive]')
    .argument('<from>', 'source entity name')
    .argument('<type>', 'relation type, e.g. manages, works_at, lives_in')
    .argument('<to>', 'target entity name')
    .option('--exclusive', 'close the source’s live relations of this type to other targets (a move, a new employer)', false)
    .option('--since <time>', 'when it began to hold (ISO-8601)', time('since'))
    .action(async (from: string, type: string, to: string, o: { exclusive: boolean; since?: number }, cmd: Command) => {
      await withMemory(cmd, 'ingest', async (m, g) => {
        const created = await m.graph.createRelations([{ from, to, relationType: type, exclusive: o.exclusive, ...(o.since !== undefined ? { validFrom: o.since } : {}) }]);
        print(g, created, () => (created.length ? `Related: ${from} ${created[0]!.relationType} ${to}` : 'Already known.'));
      });
    });
}
