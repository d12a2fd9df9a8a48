/**
 * The learn loop over HTTP: report how an answer built from a retrieval turned out (seed 001's outcome), read
 * back what a retrieval handed out, and run consolidation (catch up, distil heuristics and procedures, apply
 * retention) on demand.
 */
import { createRoute } from '@hono/zod-openapi';
import { EngramError } from '../../../core/errors.js';
import { assertOwnTenant, tenantOf } from '../auth.js';
import type { EngramApp, RouteContext, RouteModule } from '../env.js';
import { presentRetrievedItems } from '../present.js';
import { ConsolidationReportSchema, OutcomeReportSchema, RetrievalSchema } from '../schemas/learn-records.js';
import { consolidateBody, outcomeBody } from '../schemas/learn-requests.js';
import { idParams } from '../schemas/requests.js';
import { commonErrors, json, jsonBody, notFound } from '../schemas/responses.js';
import { toWire } from '../wire.js';
import { timeParam } from './time.js';

const tags = ['learn'];

function register(app: EngramApp, { memory }: RouteContext): void {
  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/outcomes',
      operationId: 'recordOutcome',
      tags,
      summary: "Record how the answer built from a retrieval turned out: closes its episode, links it to what was retrieved, reinforces or contradicts those facts",
      request: { body: jsonBody(outcomeBody) },
      responses: { 201: json(OutcomeReportSchema, 'the outcome episode, its links and the fact updates'), ...commonErrors, ...notFound },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const b = c.req.valid('json');
      assertOwnTenant(b.tenant, tenant, 'tenant');
      const report = await memory.recordOutcome(b.retrieval_id, b.outcome, {
        tenant,
        ...(b.correction !== undefined ? { correction: b.correction } : {}),
        ...(b.details !== undefined ? { details: b.details } : {}),
        ...(b.root_cause !== undefined ? { rootCause: b.root_cause } : {}),
        ...(b.used_item_ids !== undefined ? { usedItemIds: b.used_item_ids } : {}),
      });
      return c.json(toWire(report), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/retrievals/{id}',
      operationId: 'getRetrieval',
      tags,
      summary: 'What one retrieval (POST /v1/context) handed out, in order, and the config it ran with',
      request: { params: idParams('retrieval') },
      responses: { 200: json(RetrievalSchema, 'the retrieval record'), ...commonErrors, ...notFound },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const { id } = c.req.valid('param');
      const record = await memory.storage.getRetrieval(tenant, id);
      if (!record) throw new EngramError('NOT_FOUND', `no retrieval ${id}`);
      const { config, items, ...rest } = record;
      return c.json({ ...toWire(rest), ...(items ? { items: presentRetrievedItems(items) as never } : {}), ...(config !== undefined && config !== null ? { config: config as never } : {}) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/consolidate',
      operationId: 'consolidate',
      tags,
      summary: 'Consolidate now: segment what is pending, distil heuristics and procedures, apply retention',
      request: { body: jsonBody(consolidateBody) },
      responses: { 200: json(ConsolidationReportSchema, 'what consolidation did'), ...commonErrors },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const b = c.req.valid('json');
      assertOwnTenant(b.tenant, tenant, 'tenant');
      const report = await memory.learn.consolidate({ tenant, ...(b.since !== undefined ? { since: timeParam(b.since, 'since') } : {}) });
      return c.json(toWire(report), 200);
    },
  );
}

export const learnRoutes: RouteModule = { name: 'learn', register };
