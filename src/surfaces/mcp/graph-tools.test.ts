/**
 * A client configured for the reference MCP memory server (`@modelcontextprotocol/server-memory`) works unchanged:
 * its documented tool calls, replayed with the official SDK client, get the reference's answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, openTestMemory, textOf, type TestClient, type TestMemory } from './memory.test-support.js';

let m: TestMemory;
let c: TestClient;

beforeAll(async () => {
  m = await openTestMemory();
  c = await connectClient({ memory: m.facade, tenant: 'acme', userId: 'bob' });
});
afterAll(async () => {
  await c?.close();
  await m?.close();
});

/** The reference answers with the result as indented JSON text; Engram adds the same data as structured content. */
const parsed = (r: Awaited<ReturnType<TestClient['call']>>) => {
  expect(r.isError, textOf(r)).toBeFalsy();
  return JSON.parse(textOf(r)) as unknown;
};

const john = { name: 'John_Smith', entityType: 'person', observations: ['Speaks fluent Spanish'] };
const anthropic = { name: 'Anthropic', entityType: 'organization', observations: [] };
const worksAt = { from: 'John_Smith', to: 'Anthropic', relationType: 'works_at' };

describe('the reference memory server tools over the MCP SDK client', () => {
  it('publishes the reference names and argument shapes', async () => {
    const { tools } = await c.client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const n of ['create_entities', 'create_relations', 'add_observations', 'delete_entities', 'delete_observations', 'delete_relations', 'read_graph', 'search_nodes', 'open_nodes']) {
      expect(byName.has(n), n).toBe(true);
    }
    const items = (name: string, arg: string) => (byName.get(name)!.inputSchema.properties![arg] as { items: { required: string[] } }).items.required;
    expect(byName.get('create_entities')!.inputSchema.required).toEqual(['entities']);
    expect(items('create_entities', 'entities')).toEqual(['name', 'entityType', 'observations']);
    expect(items('create_relations', 'relations')).toEqual(['from', 'to', 'relationType']);
    expect(items('add_observations', 'observations')).toEqual(['entityName', 'contents']);
    expect(items('delete_observations', 'deletions')).toEqual(['entityName', 'observations']);
    expect(byName.get('delete_entities')!.inputSchema.required).toEqual(['entityNames']);
    expect(byName.get('search_nodes')!.inputSchema.required).toEqual(['query']);
    expect(byName.get('open_nodes')!.inputSchema.required).toEqual(['names']);
  });

  it('replays the documented calls: create, skip existing, observe, search, open, read, delete', async () => {
    expect(parsed(await c.call('create_entities', { entities: [john, anthropic] }))).toEqual([john, anthropic]);
    // An existing name is skipped, as the reference does.
    expect(parsed(await c.call('create_entities', { entities: [john] }))).toEqual([]);
    const created = await c.call('create_relations', { relations: [worksAt] });
    expect(parsed(created)).toEqual([worksAt]);
    expect(created.structuredContent).toEqual({ relations: [worksAt] });
    expect(parsed(await c.call('create_relations', { relations: [worksAt] }))).toEqual([]);

    const observed = await c.call('add_observations', { observations: [{ entityName: 'John_Smith', contents: ['Graduated in 2019', 'Prefers morning meetings', 'Speaks fluent Spanish'] }] });
    expect(parsed(observed)).toEqual([{ entityName: 'John_Smith', addedObservations: ['Graduated in 2019', 'Prefers morning meetings'] }]);
    const unknown = await c.call('add_observations', { observations: [{ entityName: 'Nobody', contents: ['x'] }] });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain('Entity with name Nobody not found');

    const johnNow = { ...john, observations: ['Speaks fluent Spanish', 'Graduated in 2019', 'Prefers morning meetings'] };
    expect(parsed(await c.call('search_nodes', { query: 'spanish' }))).toEqual({ entities: [johnNow], relations: [] });
    expect(parsed(await c.call('search_nodes', { query: 'organization' }))).toEqual({ entities: [anthropic], relations: [] });
    expect(parsed(await c.call('open_nodes', { names: ['John_Smith', 'Anthropic', 'Missing'] }))).toEqual({ entities: [johnNow, anthropic], relations: [worksAt] });
    const graph = await c.call('read_graph', {});
    expect(parsed(graph)).toEqual({ entities: [johnNow, anthropic], relations: [worksAt] });
    expect(graph.structuredContent).toEqual(parsed(graph));

    const od = await c.call('delete_observations', { deletions: [{ entityName: 'John_Smith', observations: ['Graduated in 2019'] }] });
    expect(textOf(od)).toBe('Observations deleted successfully');
    const beforeDelete = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 5));
    expect(textOf(await c.call('delete_relations', { relations: [worksAt] }))).toBe('Relations deleted successfully');
    expect(parsed(await c.call('read_graph', {}))).toEqual({ entities: [{ ...johnNow, observations: ['Speaks fluent Spanish', 'Prefers morning meetings'] }, anthropic], relations: [] });

    // Engram's own: the deleted relation is history, found as of before the deletion.
    const now = await c.call('graph_search', { query: 'Where does John_Smith work?' });
    expect((now.structuredContent as { relations: { text: string; expired: boolean }[] }).relations.filter((r) => !r.expired)).toEqual([]);
    const then = await c.call('graph_search', { query: 'Where does John_Smith work?', as_of: beforeDelete });
    expect((then.structuredContent as { relations: { text: string }[] }).relations.map((r) => r.text)).toEqual(['John_Smith works at Anthropic']);

    expect(textOf(await c.call('delete_entities', { entityNames: ['Anthropic'] }))).toBe('Entities deleted successfully');
    expect((parsed(await c.call('read_graph', {})) as { entities: { name: string }[] }).entities.map((e) => e.name)).toEqual(['John_Smith']);
    // The tenant is the server's: another tenant sees nothing.
    const other = await connectClient({ memory: m.facade, tenant: 'other' });
    expect(JSON.parse(textOf(await other.call('read_graph', {})))).toEqual({ entities: [], relations: [] });
    await other.close();
  });

  it('rejects arguments the reference does not take, naming them', async () => {
    const r = await c.call('create_entities', { entities: [{ ...john, extra: 1 }] });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/extra/);
  });
});
