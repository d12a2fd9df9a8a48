/** Retention: physical deletion by ids or scope (records, index entries, unreferenced embeddings). */
import { createRoute } from '@hono/zod-openapi';
import { assertOwnTenant, tenantOf } from '../auth.js';
import type { EngramApp, RouteContext, RouteModule } from '../env.js';
import { ForgetReportSchema } from '../schemas/records.js';
import { forgetBody } from '../schemas/requests.js';
import { fromWire } from '../wire.js';
import { commonErrors, json, jsonBody } from '../schemas/responses.js';

function register(app: EngramApp, { memory }: RouteContext): void {
  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/forget',
      operationId: 'forget',
      tags: ['retention'],
      summary: 'Delete records for good, by ids and/or scope ({} = the whole tenant); an audit record stays',
      request: { body: jsonBody(forgetBody) },
      responses: { 200: json(ForgetReportSchema, 'how many records of each kind were deleted'), ...commonErrors },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const { ids, scope, tenant: claimed } = c.req.valid('json');
      assertOwnTenant(claimed, tenant, 'tenant');
      const report = await memory.forget({ tenant, ...(ids ? { ids } : {}), ...(scope ? { scope: fromWire(scope) } : {}) });
      return c.json(report, 200);
    },
  );
}

export const forgetRoutes: RouteModule = { name: 'forget', register };
