/** The read path: hybrid search, and seed 000's budgeted context. */
import { mergeScope } from '../../../read/scopes.js';
import { createRoute, z } from '@hono/zod-openapi';
import { assertOwnTenant, tenantOf } from '../auth.js';
import type { EngramApp, RouteContext, RouteModule } from '../env.js';
import type { ContextConfigInput } from '../../../core/config.js';
import type { SearchInput } from '../../../memory-queries.js';
import { presentHit } from '../present.js';
import { fromWire, toWire } from '../wire.js';
import { ContextResultSchema, SearchHitSchema } from '../schemas/records.js';
import { contextBody, searchBody } from '../schemas/requests.js';
import { commonErrors, json, jsonBody } from '../schemas/responses.js';

const tags = ['retrieval'];

function register(app: EngramApp, { memory }: RouteContext): void {
  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/search',
      operationId: 'search',
      tags,
      summary: 'Hybrid search (vector + lexical, fused and reranked) over events, facts and other memories',
      request: { body: jsonBody(searchBody) },
      responses: { 200: json(z.object({ hits: z.array(SearchHitSchema) }), 'best first, with a score breakdown'), ...commonErrors },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const input = c.req.valid('json');
      assertOwnTenant(input.tenant, tenant, 'tenant');
      const { scope, ...rest } = input;
      const fields = fromWire(rest) as SearchInput;
      // `scope: {user_id, …}` as on /v1/context, merged with the top-level fields (they must agree).
      const merged = scope ? mergeScope({ userId: fields.userId, agentId: fields.agentId, sessionId: fields.sessionId }, scope) : {};
      const hits = await memory.search({ ...fields, ...merged, tenant });
      return c.json({ hits: hits.map(presentHit) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/context',
      operationId: 'getContext',
      tags,
      summary: "Build a budgeted context: seed 000's hybrid config (episodic window + semantic retrieval) as the body",
      request: { body: jsonBody(contextBody) },
      responses: { 200: json(ContextResultSchema, 'items with provenance and scores, and the rendered text'), ...commonErrors },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const { query, tenant: claimed, ...config } = c.req.valid('json') as ContextConfigInput & { query: string; tenant?: string };
      assertOwnTenant(claimed, tenant, 'tenant');
      const result = await memory.getContext(query, { ...config, tenant });
      return c.json(toWire(result), 200);
    },
  );
}

export const retrievalRoutes: RouteModule = { name: 'retrieval', register };
