/**
 * The knowledge graph over HTTP: entities (create, list, one with its relations, observations, delete), relations
 * (create, query with history, `as_of` and `valid_at`, close), and graph search for a question.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { EngramError } from '../../../core/errors.js';
import { assertOwnTenant, tenantOf } from '../auth.js';
import type { EngramApp, RouteContext, RouteModule } from '../env.js';
import { EntitySchema, GraphHitSchema, RelationSchema, entitiesBody, entitiesQuery, graphSearchBody, observationsBody, relationsBody, relationsQuery } from '../schemas/graph.js';
import { idParams } from '../schemas/requests.js';
import { commonErrors, json, jsonBody, notFound } from '../schemas/responses.js';
import { toWire } from '../wire.js';

const tags = ['graph'];
const list = (v: string | undefined) => v?.split(',').map((x) => x.trim()).filter((x) => x !== '');
const time = (v: string | undefined) => (v === undefined ? undefined : Date.parse(v));

function register(app: EngramApp, { memory }: RouteContext): void {
  const g = memory.graph;

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/entities',
      operationId: 'listEntities',
      tags,
      summary: 'Entities, by name or alias, text or type (oldest first)',
      request: { query: entitiesQuery },
      responses: { 200: json(z.object({ entities: z.array(EntitySchema) }).openapi('EntityList'), 'the entities'), ...commonErrors },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const entities = await g.entities({ tenant: tenantOf(c), userId: q.user_id, agentId: q.agent_id, names: list(q.name), text: q.q, types: list(q.type), limit: q.limit });
      return c.json({ entities: toWire(entities) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/entities',
      operationId: 'createEntities',
      tags,
      summary: 'Create entities; a name that exists is skipped (returns those created)',
      request: { body: jsonBody(entitiesBody) },
      responses: { 200: json(z.object({ entities: z.array(z.object({ name: z.string(), entity_type: z.string(), observations: z.array(z.string()) })) }).openapi('CreatedEntities'), 'the entities created'), ...commonErrors },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const b = c.req.valid('json');
      assertOwnTenant(b.tenant, tenant, 'tenant');
      const created = await g.createEntities(
        b.entities.map((e) => ({ name: e.name, entityType: e.entity_type, observations: e.observations })),
        { tenant, userId: b.user_id, agentId: b.agent_id },
      );
      return c.json({ entities: toWire(created) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/entities/{id}',
      operationId: 'getEntity',
      tags,
      summary: 'One entity and its live relations',
      request: { params: idParams('entity') },
      responses: { 200: json(z.object({ entity: EntitySchema, relations: z.array(RelationSchema) }).openapi('EntityDetail'), 'the entity'), ...commonErrors, ...notFound },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const { id } = c.req.valid('param');
      const [entity] = await memory.storage.getEntities(tenant, [id]);
      if (!entity) throw new EngramError('NOT_FOUND', `no entity ${id}`);
      const relations = await g.relations({ tenant, entity: entity.name, userId: entity.userId, agentId: entity.agentId });
      return c.json({ entity: toWire(entity), relations: toWire(relations.filter((r) => r.sourceId === id || r.targetId === id)) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/entities/{id}/observations',
      operationId: 'addObservations',
      tags,
      summary: 'Add observations to an entity (those it has are skipped)',
      request: { params: idParams('entity'), body: jsonBody(observationsBody) },
      responses: { 200: json(z.object({ added: z.array(z.string()) }).openapi('AddedObservations'), 'the observations added'), ...commonErrors, ...notFound },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const { id } = c.req.valid('param');
      const b = c.req.valid('json');
      assertOwnTenant(b.tenant, tenant, 'tenant');
      const [entity] = await memory.storage.getEntities(tenant, [id]);
      if (!entity) throw new EngramError('NOT_FOUND', `no entity ${id}`);
      const [r] = await g.addObservations([{ entityName: entity.name, contents: b.contents }], { tenant, userId: entity.userId, agentId: entity.agentId });
      return c.json({ added: r?.addedObservations ?? [] }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/v1/entities/{id}',
      operationId: 'deleteEntity',
      tags,
      summary: 'Delete an entity and every relation touching it',
      request: { params: idParams('entity') },
      responses: { 200: json(z.object({ entities: z.number().int(), relations: z.number().int() }).openapi('EntityDeletion'), 'how many were deleted'), ...commonErrors },
    }),
    async (c) => c.json(await memory.storage.deleteEntities(tenantOf(c), [c.req.valid('param').id]), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/relations',
      operationId: 'listRelations',
      tags,
      summary: 'Relations, live by default; history with include_expired, or as held at as_of; valid_at for the world time',
      request: { query: relationsQuery },
      responses: { 200: json(z.object({ relations: z.array(RelationSchema) }).openapi('RelationList'), 'oldest first'), ...commonErrors },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const relations = await g.relations({
        tenant: tenantOf(c),
        userId: q.user_id,
        agentId: q.agent_id,
        entity: q.entity,
        direction: q.direction,
        types: list(q.type),
        asOf: time(q.as_of),
        validAt: time(q.valid_at),
        includeExpired: q.include_expired === 'true',
        limit: q.limit,
      });
      return c.json({ relations: toWire(relations) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/relations',
      operationId: 'createRelations',
      tags,
      summary: 'Create relations (a repeated one is skipped; an unknown entity is created); exclusive ones close the old edge',
      request: { body: jsonBody(relationsBody) },
      responses: { 200: json(z.object({ relations: z.array(z.object({ from: z.string(), to: z.string(), relation_type: z.string() })) }).openapi('CreatedRelations'), 'the relations created'), ...commonErrors },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const b = c.req.valid('json');
      assertOwnTenant(b.tenant, tenant, 'tenant');
      const created = await g.createRelations(
        b.relations.map((r) => ({ from: r.from, to: r.to, relationType: r.relation_type, validFrom: time(r.valid_from), exclusive: r.exclusive, confidence: r.confidence, text: r.text })),
        { tenant, userId: b.user_id, agentId: b.agent_id },
      );
      return c.json({ relations: toWire(created) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/relations/{id}/close',
      operationId: 'closeRelation',
      tags,
      summary: 'Close a live relation now (it stays as history and for as_of reads)',
      request: { params: idParams('relation') },
      responses: { 200: json(z.object({ closed: z.number().int() }).openapi('RelationClosed'), '1 when it was live, else 0'), ...commonErrors },
    }),
    async (c) => c.json({ closed: await memory.storage.closeRelations(tenantOf(c), [c.req.valid('param').id], Date.now()) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/graph/search',
      operationId: 'graphSearch',
      tags,
      summary: 'Relations around the entities a question names, ranked for it (direction kept), with provenance; as_of reads the past',
      request: { body: jsonBody(graphSearchBody) },
      responses: { 200: json(z.object({ relations: z.array(GraphHitSchema) }).openapi('GraphSearchResult'), 'best first'), ...commonErrors },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const b = c.req.valid('json');
      assertOwnTenant(b.tenant, tenant, 'tenant');
      const hits = await g.search(b.query, { tenant, userId: b.user_id, agentId: b.agent_id, asOf: time(b.as_of), limit: b.limit });
      return c.json({ relations: toWire(hits) }, 200);
    },
  );
}

export const graphRoutes: RouteModule = { name: 'graph', register };
