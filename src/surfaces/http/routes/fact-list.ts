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
import { commonErrors, json } from '../schemas/responses.js';
import { timeParam } from './time.js';

const scopeId = z.string().min(1).max(200);

/** Query parameters in the wire casing (snake_case), like every other route's. */
export const factListQuery = z
  .object({
    tenant: scopeId.optional().openapi({ description: "optional; if given it must be the key's own tenant (else 403)" }),
    user_id: scopeId.optional(),
    agent_id: scopeId.optional(),
    session_id: scopeId.optional(),
    task_id: scopeId.optional(),
    include_expired: z.enum(['true', 'false']).optional().openapi({ description: 'also superseded and expired versions' }),
    as_of: z.string().min(1).max(40).optional().openapi({ description: 'valid time: each lineage as it held then (ISO-8601 or epoch ms)' }),
    known_at: z.string().min(1).max(40).optional().openapi({ description: 'transaction time: what was recorded by then (ISO-8601 or epoch ms)' }),
    limit: z
      .string()
      .regex(/^\d{1,5}$/, 'expected a whole number')
      .transform(Number)
      .pipe(z.number().int().min(1).max(10_000))
      .optional()
      .openapi({ type: 'integer', description: 'at most this many (default 1000)' }),
  })
  .strict();

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
      const q = c.req.valid('query');
      assertOwnTenant(q.tenant, tenant, 'query.tenant');
      const scope: ScopeFilter = { userId: q.user_id, agentId: q.agent_id, sessionId: q.session_id, taskId: q.task_id };
      const facts = await memory.storage.listFacts({
        tenant,
        scope: Object.fromEntries(Object.entries(scope).filter(([, v]) => v !== undefined)),
        includeExpired: q.include_expired === 'true',
        ...(q.as_of !== undefined ? { asOf: timeParam(q.as_of, 'as_of') } : {}),
        ...(q.known_at !== undefined ? { knownAt: timeParam(q.known_at, 'known_at') } : {}),
        limit: q.limit ?? 1000,
        now: Date.now(),
      });
      return c.json({ facts: facts.map(presentFact) }, 200);
    },
  );
}

export const factListRoutes: RouteModule = { name: 'fact-list', register };
