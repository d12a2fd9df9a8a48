/**
 * The knowledge-graph tools. The first nine carry the reference MCP memory server's names and argument shapes
 * (`@modelcontextprotocol/server-memory`), and answer as it does — the result as indented JSON text (plus the
 * same data as structured content), or a "… deleted successfully" line — so a client configured for that server
 * works unchanged against `engram mcp`. `graph_search` is Engram's own: relations around the entities a question
 * names, ranked for it, with history and `as_of`.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { GraphScope } from '../../../graph/api.js';
import { addTool, json, need, scopeArgs, type ToolEnv } from '../tool.js';

const name = z.string().min(1).max(500);
const text = z.string().max(10_000);
const entity = z.strictObject({
  name: name.describe('The name of the entity'),
  entityType: z.string().min(1).max(200).describe('The type of the entity'),
  observations: z.array(text).max(1000).describe('An array of observation contents associated with the entity'),
});
const relation = z.strictObject({
  from: name.describe('The name of the entity where the relation starts'),
  to: name.describe('The name of the entity where the relation ends'),
  relationType: z.string().min(1).max(200).describe('The type of the relation'),
});

export function registerGraphTools(server: McpServer, env: ToolEnv): void {
  const graph = () => need(env.memory.graph, 'the knowledge graph');
  const scope = (): GraphScope => ({ tenant: env.scope.tenant, userId: env.scope.userId, agentId: env.scope.agentId });
  const reply = (value: unknown, key?: string) => ({ text: json(value), data: (key ? { [key]: value } : value) as Record<string, unknown> });
  const done = (message: string) => ({ text: message, data: { success: true, message } });

  addTool(
    server,
    env,
    'create_entities',
    {
      title: 'Create entities',
      description: 'Create multiple new entities in the knowledge graph',
      input: { entities: z.array(entity).max(1000) },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (a) => reply(await graph().createEntities(a.entities, scope()), 'entities'),
  );
  addTool(
    server,
    env,
    'create_relations',
    {
      title: 'Create relations',
      description: 'Create multiple new relations between entities in the knowledge graph. Relations should be in active voice',
      input: { relations: z.array(relation).max(1000) },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (a) => reply(await graph().createRelations(a.relations, scope()), 'relations'),
  );
  addTool(
    server,
    env,
    'add_observations',
    {
      title: 'Add observations',
      description: 'Add new observations to existing entities in the knowledge graph',
      input: {
        observations: z
          .array(z.strictObject({ entityName: name.describe('The name of the entity to add the observations to'), contents: z.array(text).max(1000).describe('An array of observation contents to add') }))
          .max(1000),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (a) => reply(await graph().addObservations(a.observations, scope()), 'results'),
  );
  addTool(
    server,
    env,
    'delete_entities',
    {
      title: 'Delete entities',
      description: 'Delete multiple entities and their associated relations from the knowledge graph',
      input: { entityNames: z.array(name).max(1000).describe('An array of entity names to delete') },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    async (a) => {
      await graph().deleteEntities(a.entityNames, scope());
      return done('Entities deleted successfully');
    },
  );
  addTool(
    server,
    env,
    'delete_observations',
    {
      title: 'Delete observations',
      description: 'Delete specific observations from entities in the knowledge graph',
      input: {
        deletions: z
          .array(z.strictObject({ entityName: name.describe('The name of the entity containing the observations'), observations: z.array(text).max(1000).describe('An array of observations to delete') }))
          .max(1000),
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    async (a) => {
      await graph().deleteObservations(a.deletions, scope());
      return done('Observations deleted successfully');
    },
  );
  addTool(
    server,
    env,
    'delete_relations',
    {
      title: 'Delete relations',
      description: 'Delete multiple relations from the knowledge graph (Engram keeps them as history: graph_search with as_of still finds them)',
      input: { relations: z.array(relation).max(1000).describe('An array of relations to delete') },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    async (a) => {
      await graph().deleteRelations(a.relations, scope());
      return done('Relations deleted successfully');
    },
  );
  addTool(
    server,
    env,
    'read_graph',
    { title: 'Read graph', description: 'Read the entire knowledge graph', input: {}, annotations: { readOnlyHint: true, openWorldHint: false } },
    async () => reply(await graph().readGraph(scope())),
  );
  addTool(
    server,
    env,
    'search_nodes',
    {
      title: 'Search nodes',
      description: 'Search for nodes in the knowledge graph based on a query',
      input: { query: z.string().max(10_000).describe('The search query to match against entity names, types, and observation content') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (a) => reply(await graph().searchNodes(a.query, scope())),
  );
  addTool(
    server,
    env,
    'open_nodes',
    {
      title: 'Open nodes',
      description: 'Open specific nodes in the knowledge graph by their names',
      input: { names: z.array(name).max(1000).describe('An array of entity names to retrieve') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (a) => reply(await graph().openNodes(a.names, scope())),
  );
  addTool(
    server,
    env,
    'graph_search',
    {
      title: 'Graph search',
      description: [
        'Answer a question about people, places, organisations and how they relate, from the knowledge graph Engram',
        'keeps (read from conversations and stated with create_relations). Returns the relations around the entities the',
        'question names, best first, with direction ("Carol manages Alice"), when each held, and the memories they were',
        'read from. Pass as_of (ISO-8601) to see what was known at that time.',
      ].join(' '),
      input: {
        query: z.string().min(1).max(10_000).describe('The question, e.g. "Who is Alice\'s manager?"'),
        as_of: z.iso.datetime({ offset: true }).optional().describe('Read the graph as it was known at this time (ISO-8601)'),
        limit: z.number().int().min(1).max(100).default(10),
        user_id: scopeArgs.user_id,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (a) => {
      const hits = await graph().search(a.query, { ...scope(), userId: a.user_id ?? env.scope.userId, limit: a.limit, ...(a.as_of ? { asOf: Date.parse(a.as_of) } : {}) });
      const lines = hits.map((h, i) => `${i + 1}. ${h.text}${h.expired ? ' (no longer held)' : ''}${h.validFrom ? ` since ${h.validFrom.slice(0, 10)}` : ''} [${h.relationId}; from ${[...h.provenance.eventIds, ...h.provenance.factIds].join(', ') || h.provenance.origin}]`);
      return { text: hits.length ? `Relations:\n${lines.join('\n')}` : 'No entity in the question is known.', data: { relations: hits } };
    },
  );
}
