/** Semantic memory: remember (a new version of its lineage), get by id, history of a key. */
import { createRoute, z } from '@hono/zod-openapi';
import { EngramError } from '../../../core/errors.js';
import type { FactInput } from '../../../write/input.js';
import { assertOwnTenant, tenantOf } from '../auth.js';
import type { EngramApp, RouteContext, RouteModule } from '../env.js';
import { presentFact } from '../present.js';
import { fromWire } from '../wire.js';
import { FactSchema, RememberResultSchema } from '../schemas/records.js';
import { factHistoryQuery, idParams, writeBodies } from '../schemas/requests.js';
import { commonErrors, json, jsonBody, notFound } from '../schemas/responses.js';

const tags = ['facts'];

function register(app: EngramApp, { memory }: RouteContext): void {
  const bodies = writeBodies(memory.config.limits);

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/facts',
      operationId: 'remember',
      tags,
      summary: 'Remember a fact or document chunk (same key or subject+predicate: a new version; old ones kept)',
      request: { body: jsonBody(bodies.fact) },
      responses: {
        201: json(RememberResultSchema, 'created or versioned'),
        200: json(RememberResultSchema, 'duplicate: the live version already says this; nothing written'),
        ...commonErrors,
      },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const input = c.req.valid('json');
      assertOwnTenant(input.tenant, tenant, 'tenant');
      const r = await memory.remember({ ...(fromWire(input) as FactInput), tenant });
      const body = { fact: presentFact(r.fact), status: r.status, ...(r.supersededId ? { superseded_id: r.supersededId } : {}) };
      return c.json(body, r.status === 'duplicate' ? 200 : 201);
    },
  );

  // Registered before /v1/facts/{id} so that "history" is never read as an id.
  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/facts/history',
      operationId: 'factHistory',
      tags,
      summary: 'Every version of a fact lineage by key, oldest first (bi-temporal: validFrom/validTo, recordedAt/expiredAt)',
      request: { query: factHistoryQuery },
      responses: {
        200: json(z.object({ key: z.string(), versions: z.array(FactSchema) }), 'the versions'),
        ...commonErrors,
        ...notFound,
      },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const { key, tenant: claimed } = c.req.valid('query');
      assertOwnTenant(claimed, tenant, 'query.tenant');
      const versions = await memory.factHistory(key, tenant);
      if (versions.length === 0) throw new EngramError('NOT_FOUND', 'no fact with this key');
      return c.json({ key, versions: versions.map(presentFact) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/facts/{id}',
      operationId: 'getFact',
      tags,
      summary: 'Get one fact version by id',
      request: { params: idParams('fact') },
      responses: { 200: json(FactSchema, 'the fact version'), ...commonErrors, ...notFound },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const { id } = c.req.valid('param');
      return c.json(presentFact(await memory.getFact(id, tenant)), 200);
    },
  );
}

export const factRoutes: RouteModule = { name: 'facts', register };
