/**
 * The knowledge-graph routes over real HTTP: snake_case in and out, each answer parsed with its documented
 * (strict) schema, history and as_of, graph search, tenant isolation, and the Entities of /v1/context.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { EntitySchema, GraphHitSchema, RelationSchema } from './schemas/graph.js';
import { startTestServer, type TestServer } from './server.test-support.js';

let t: TestServer;
let key: string;
let other: string;

beforeAll(async () => {
  t = await startTestServer();
  key = await t.keyFor('acme');
  other = await t.keyFor('globex');
});
afterAll(async () => t.close());

const post = (path: string, body: unknown, k = key) => t.call('POST', path, { key: k, body });
const get = (path: string, k = key) => t.call('GET', path, { key: k });
const parse = <S extends z.ZodType>(schema: S, v: unknown): z.output<S> => schema.parse(v);

describe('graph routes', () => {
  it('creates entities and relations, keeps a contradicted relation as history, and reads it back as of then', async () => {
    const made = await post('/v1/entities', { entities: [{ name: 'Alice', entity_type: 'person', observations: ['Leads the payments team'] }, { name: 'Lisbon', entity_type: 'place' }] });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect((made.body as { entities: unknown[] }).entities).toEqual([
      { name: 'Alice', entity_type: 'person', observations: ['Leads the payments team'] },
      { name: 'Lisbon', entity_type: 'place', observations: [] },
    ]);
    const first = await post('/v1/relations', { relations: [{ from: 'Alice', to: 'Lisbon', relation_type: 'lives in', exclusive: true, valid_from: '2024-01-01T00:00:00Z' }] });
    expect(first.body).toEqual({ relations: [{ from: 'Alice', to: 'Lisbon', relation_type: 'lives_in' }] });
    const between = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 5));
    await post('/v1/relations', { relations: [{ from: 'Alice', to: 'Porto', relation_type: 'lives_in', exclusive: true, valid_from: '2025-06-01T00:00:00Z' }] });

    const live = (await get('/v1/relations?entity=alice')).body as { relations: unknown[] };
    expect(live.relations.map((r) => parse(RelationSchema, r)).map((r) => r.to)).toEqual(['Porto']);
    const history = (await get('/v1/relations?entity=Alice&include_expired=true')).body as { relations: unknown[] };
    const rows = history.relations.map((r) => parse(RelationSchema, r));
    expect(rows.map((r) => [r.to, r.expired_at !== undefined, r.valid_to])).toEqual([
      ['Lisbon', true, '2025-06-01T00:00:00.000Z'],
      ['Porto', false, undefined],
    ]);
    const asOf = (await get(`/v1/relations?entity=Alice&as_of=${encodeURIComponent(between)}`)).body as { relations: { to: string }[] };
    expect(asOf.relations.map((r) => r.to)).toEqual(['Lisbon']);
    const validThen = (await get('/v1/relations?entity=Alice&include_expired=true&valid_at=2024-05-01T00:00:00Z')).body as { relations: { to: string }[] };
    expect(validThen.relations.map((r) => r.to)).toEqual(['Lisbon']);

    const search = (await post('/v1/graph/search', { query: 'Where does Alice live?' })).body as { relations: unknown[] };
    const hits = search.relations.map((h) => parse(GraphHitSchema, h));
    expect(hits[0]).toMatchObject({ text: 'Alice lives in Porto', expired: false, provenance: { origin: 'user' } });
    const then = (await post('/v1/graph/search', { query: 'Where does Alice live?', as_of: between })).body as { relations: { text: string }[] };
    expect(then.relations[0]!.text).toBe('Alice lives in Lisbon');

    const list = (await get('/v1/entities?name=alice')).body as { entities: unknown[] };
    const alice = parse(EntitySchema, list.entities[0]);
    expect(alice).toMatchObject({ name: 'Alice', entity_type: 'person', provenance: { origin: 'user', event_ids: [], fact_ids: [] } });
    const added = await post(`/v1/entities/${alice.id}/observations`, { contents: ['Speaks Portuguese', 'Leads the payments team'] });
    expect(added.body).toEqual({ added: ['Speaks Portuguese'] });
    const detail = (await get(`/v1/entities/${alice.id}`)).body as { entity: unknown; relations: unknown[] };
    expect(parse(EntitySchema, detail.entity).observations).toEqual(['Leads the payments team', 'Speaks Portuguese']);
    expect(detail.relations).toHaveLength(1);

    // Another tenant sees none of it; camelCase is refused.
    expect(((await get('/v1/entities', other)).body as { entities: unknown[] }).entities).toEqual([]);
    expect((await post('/v1/relations', { relations: [{ from: 'A', to: 'B', relationType: 'x' }] })).status).toBe(400);
    expect((await get(`/v1/entities/${alice.id}`, other)).status).toBe(404);
  });

  it('getContext carries the Entities of the question; forget by user removes that user\'s graph', async () => {
    await post('/v1/events/batch', { events: [{ type: 'note', user_id: 'u9', content: 'Dana manages Erin.' }, { type: 'note', user_id: 'u9', content: 'Frank manages Dana.' }] });
    await t.tm.memory.flush();
    const ctx = (await post('/v1/context', { query: "Who is Dana's manager?", scope: { user_id: 'u9' } })).body as { entities: unknown[]; text: string };
    expect(parse(GraphHitSchema, ctx.entities[0]).text).toBe('Frank manages Dana');
    expect(ctx.text).toContain('## Entities');
    const report = (await post('/v1/forget', { scope: { user_id: 'u9' } })).body as { entities?: number; relations?: number };
    expect(report).toMatchObject({ entities: 3, relations: 2 });
  });
});
