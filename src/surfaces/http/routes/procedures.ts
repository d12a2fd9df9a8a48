/** Procedural memory: learned (or written) workflows with a trigger, steps and a success record. */
import { createRoute, z } from '@hono/zod-openapi';
import { EngramError } from '../../../core/errors.js';
import { assertOwnTenant, tenantOf } from '../auth.js';
import type { EngramApp, RouteContext, RouteModule } from '../env.js';
import { ProcedureMatchSchema, ProcedureSchema } from '../schemas/learn-records.js';
import { limitQuery, procedureBody, procedureMatchBody, procedureOutcomeBody } from '../schemas/learn-requests.js';
import { idParams } from '../schemas/requests.js';
import { commonErrors, json, jsonBody, notFound } from '../schemas/responses.js';
import { fromWire, toWire } from '../wire.js';

const tags = ['procedures'];

function register(app: EngramApp, { memory }: RouteContext): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/procedures',
      operationId: 'listProcedures',
      tags,
      summary: 'List procedures (oldest first)',
      request: { query: limitQuery },
      responses: { 200: json(z.object({ procedures: z.array(ProcedureSchema) }).openapi('ProcedureList'), 'the procedures'), ...commonErrors },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const { limit } = c.req.valid('query');
      return c.json({ procedures: toWire(await memory.procedures.list({ tenant, limit: limit ?? 100 })) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/procedures/{id}',
      operationId: 'getProcedure',
      tags,
      summary: 'One procedure',
      request: { params: idParams('procedure') },
      responses: { 200: json(ProcedureSchema, 'the procedure'), ...commonErrors, ...notFound },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const { id } = c.req.valid('param');
      const [proc] = await memory.storage.getProcedures(tenant, [id]);
      if (!proc) throw new EngramError('NOT_FOUND', `no procedure ${id}`);
      return c.json(toWire(proc), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/procedures',
      operationId: 'putProcedure',
      tags,
      summary: 'Create a procedure, or replace the one with `id`',
      request: { body: jsonBody(procedureBody) },
      responses: { 200: json(ProcedureSchema, 'the procedure as stored'), ...commonErrors, ...notFound },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const b = c.req.valid('json');
      assertOwnTenant(b.tenant, tenant, 'tenant');
      const proc = await memory.procedures.put({ ...(fromWire(b) as Parameters<typeof memory.procedures.put>[0]), tenant });
      return c.json(toWire(proc), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/procedures/match',
      operationId: 'findProcedures',
      tags,
      summary: 'Procedures whose trigger matches a situation, best first (score = match × success rate)',
      request: { body: jsonBody(procedureMatchBody) },
      responses: { 200: json(z.object({ matches: z.array(ProcedureMatchSchema) }).openapi('ProcedureMatches'), 'best first'), ...commonErrors },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const b = c.req.valid('json');
      assertOwnTenant(b.tenant, tenant, 'tenant');
      const matches = await memory.procedures.findApplicable(b.situation, { tenant, ...(b.limit !== undefined ? { limit: b.limit } : {}) });
      return c.json({ matches: toWire(matches) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/procedures/{id}/outcome',
      operationId: 'recordProcedureOutcome',
      tags,
      summary: 'One more use of a procedure: counts its success or failure and keeps the notes',
      request: { params: idParams('procedure'), body: jsonBody(procedureOutcomeBody) },
      responses: { 200: json(ProcedureSchema, 'the procedure after the update'), ...commonErrors, ...notFound },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const { id } = c.req.valid('param');
      const b = c.req.valid('json');
      return c.json(toWire(await memory.procedures.recordOutcome(id, b.success, b.notes, { tenant })), 200);
    },
  );
}

export const procedureRoutes: RouteModule = { name: 'procedures', register };
