/**
 * Listing semantic memory: the live versions of a tenant's facts (or, with includeExpired, every version),
 * filtered by scope. The inspector's Facts view reads it; history and single versions stay in facts.ts.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { ScopeFilter } from '../../../ports/storage.js';
import { assertOwnTenant, tenantOf } from '../auth.js';
import type { EngramApp, RouteContext, RouteModule } from '../env.js';
import { presentFact } from '../present.js';
import { FactSchema } from '../schemas/records.js';
import { factListQuery } from '../schemas/requests.js';
import { commonErrors, json } from '../schemas/responses.js';

function register(app: EngramApp, { memory }: RouteContext): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/facts',
      operationId: 'listFacts',
      tags: ['facts'],
      summary: 'List facts by scope, oldest first: live versions only unless includeExpired=true',
      request: { query: factListQuery },
      responses: { 200: json(z.object({ facts: z.array(FactSchema) }).openapi('FactList'), 'matching facts'), ...commonErrors },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const { tenant: claimed, includeExpired, limit, ...scope } = c.req.valid('query');
      assertOwnTenant(claimed, tenant, 'query.tenant');
      const facts = await memory.storage.listFacts({
        tenant,
        scope: scope as ScopeFilter,
        includeExpired: includeExpired === 'true',
        limit: limit ?? 1000,
        now: Date.now(),
      });
      return c.json({ facts: facts.map(presentFact) }, 200);
    },
  );
}

export const factListRoutes: RouteModule = { name: 'fact-list', register };
