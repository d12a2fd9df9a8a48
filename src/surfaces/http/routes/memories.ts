/**
 * Semantic memories the way a Mem0 user handles them (docs/scopes.md#crud): list with filters and a cursor,
 * get (optionally at a time), update by any version id (a new version of the same lineage), delete the lineage
 * of an id, history of an id.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { FACT_KINDS } from '../../../core/types.js';
import type { UpdateInput } from '../../../memories.js';
import { assertOwnTenant, tenantOf } from '../auth.js';
import type { EngramApp, RouteContext, RouteModule } from '../env.js';
import { presentFact } from '../present.js';
import { fromWire } from '../wire.js';
import { FactSchema, ForgetReportSchema, RememberResultSchema } from '../schemas/records.js';
import { idParams, writeBodies } from '../schemas/requests.js';
import { intQuery } from '../schemas/learn-requests.js';
import { commonErrors, json, jsonBody, notFound } from '../schemas/responses.js';
import { timeParam } from './time.js';

const tags = ['memories'];
const scopeId = z.string().min(1).max(200);
const tenantField = scopeId.optional().openapi({ description: "optional; if given it must be the key's own tenant (else 403)" });
const timeQuery = (description: string) => z.string().min(1).max(40).optional().openapi({ description });
const asOf = timeQuery('valid time: the version that held then (ISO-8601 or epoch ms)');
const knownAt = timeQuery('transaction time: what was recorded by then (ISO-8601 or epoch ms)');

export const memoryListQuery = z
  .object({
    tenant: tenantField,
    user_id: scopeId.optional(),
    agent_id: scopeId.optional(),
    session_id: scopeId.optional(),
    task_id: scopeId.optional(),
    kind: z
      .union([z.enum(FACT_KINDS), z.array(z.enum(FACT_KINDS)).max(8)])
      .transform((v) => (Array.isArray(v) ? v : [v]))
      .optional()
      .openapi({ description: 'fact kind; repeat for several' }),
    as_of: asOf,
    known_at: knownAt,
    include_expired: z.enum(['true', 'false']).optional().openapi({ description: 'every version, superseded and ended ones too' }),
    limit: intQuery(1, 1000, 'page size (default 100)').optional(),
    cursor: z.string().min(1).max(200).optional().openapi({ description: 'next_cursor of the previous page' }),
  })
  .strict();

const getQuery = z.object({ tenant: tenantField, as_of: asOf, known_at: knownAt }).strict();
const tenantQuery = z.object({ tenant: tenantField }).strict();

const MemoryPage = z
  .object({ memories: z.array(FactSchema), next_cursor: z.string().nullable().openapi({ description: 'pass as cursor for the next page; null on the last' }) })
  .openapi('MemoryPage');

function register(app: EngramApp, { memory }: RouteContext): void {
  const fact = writeBodies(memory.config.limits).fact;
  const updateBody = fact
    .omit({ key: true, tenant: true, user_id: true, agent_id: true, session_id: true, task_id: true })
    .partial()
    .strict()
    .openapi('MemoryUpdate');

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/memories',
      operationId: 'listMemories',
      tags,
      summary: 'List memories (facts) by scope and kind, oldest first, a page at a time; current ones unless as_of/known_at/include_expired',
      request: { query: memoryListQuery },
      responses: { 200: json(MemoryPage, 'a page of memories'), ...commonErrors },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const q = c.req.valid('query');
      assertOwnTenant(q.tenant, tenant, 'query.tenant');
      const page = await memory.memories.list({
        tenant,
        ...(q.user_id ? { userId: q.user_id } : {}),
        ...(q.agent_id ? { agentId: q.agent_id } : {}),
        ...(q.session_id ? { sessionId: q.session_id } : {}),
        ...(q.task_id ? { taskId: q.task_id } : {}),
        ...(q.kind ? { kinds: q.kind } : {}),
        ...(q.as_of !== undefined ? { asOf: timeParam(q.as_of, 'as_of') } : {}),
        ...(q.known_at !== undefined ? { knownAt: timeParam(q.known_at, 'known_at') } : {}),
        includeExpired: q.include_expired === 'true',
        ...(q.limit !== undefined ? { limit: q.limit } : {}),
        ...(q.cursor ? { cursor: q.cursor } : {}),
      });
      return c.json({ memories: page.memories.map(presentFact), next_cursor: page.nextCursor ?? null }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/memories/{id}/history',
      operationId: 'memoryHistory',
      tags,
      summary: 'Every version of the lineage of a memory id (any version), oldest first',
      request: { params: idParams('fact'), query: tenantQuery },
      responses: { 200: json(z.object({ key: z.string(), versions: z.array(FactSchema) }).openapi('MemoryHistory'), 'the versions'), ...commonErrors, ...notFound },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      assertOwnTenant(c.req.valid('query').tenant, tenant, 'query.tenant');
      const versions = await memory.memories.history(c.req.valid('param').id, tenant);
      return c.json({ key: versions[0]!.key, versions: versions.map(presentFact) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/memories/{id}',
      operationId: 'getMemory',
      tags,
      summary: 'One memory version by id; with as_of/known_at, the version of its lineage served then',
      request: { params: idParams('fact'), query: getQuery },
      responses: { 200: json(FactSchema, 'the version'), ...commonErrors, ...notFound },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const q = c.req.valid('query');
      assertOwnTenant(q.tenant, tenant, 'query.tenant');
      const found = await memory.memories.get(c.req.valid('param').id, {
        tenant,
        ...(q.as_of !== undefined ? { asOf: timeParam(q.as_of, 'as_of') } : {}),
        ...(q.known_at !== undefined ? { knownAt: timeParam(q.known_at, 'known_at') } : {}),
      });
      return c.json(presentFact(found), 200);
    },
  );

  for (const method of ['put', 'patch'] as const) {
    app.openapi(
      createRoute({
        method,
        path: '/v1/memories/{id}',
        operationId: method === 'put' ? 'updateMemory' : 'patchMemory',
        tags,
        summary: 'Update a memory by any version id: a new version of the same lineage (fields not given are kept); the old version is closed and leaves search',
        request: { params: idParams('fact'), query: tenantQuery, body: jsonBody(updateBody) },
        responses: { 200: json(RememberResultSchema, 'versioned, or duplicate when nothing changed'), ...commonErrors, ...notFound },
      }),
      async (c) => {
        const tenant = tenantOf(c);
        assertOwnTenant(c.req.valid('query').tenant, tenant, 'query.tenant');
        const r = await memory.memories.update(c.req.valid('param').id, fromWire(c.req.valid('json')) as UpdateInput, tenant);
        return c.json({ fact: presentFact(r.fact), status: r.status, ...(r.supersededId ? { superseded_id: r.supersededId } : {}) }, 200);
      },
    );
  }

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/v1/memories/{id}',
      operationId: 'deleteMemory',
      tags,
      summary: 'Delete a memory: every version of the lineage of this id, with its search entries',
      request: { params: idParams('fact'), query: tenantQuery },
      responses: { 200: json(ForgetReportSchema, 'what was deleted'), ...commonErrors, ...notFound },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      assertOwnTenant(c.req.valid('query').tenant, tenant, 'query.tenant');
      return c.json(await memory.memories.delete(c.req.valid('param').id, tenant), 200);
    },
  );
}

export const memoryRoutes: RouteModule = { name: 'memories', register };
