/**
 * Seed 003's feedback examples: give feedback on an answer (toggle rules), analyse conversations for implicit
 * feedback, find similar examples and guidance text, list and delete examples.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { assertOwnTenant, tenantOf } from '../auth.js';
import { EngramError } from '../../../core/errors.js';
import type { EngramApp, RouteContext, RouteModule } from '../env.js';
import { AnalysisReportSchema, ExampleSchema, FeedbackResultSchema, GuidanceSchema, SimilarExamplesSchema } from '../schemas/learn-records.js';
import { analyzeBody, examplesQuery, feedbackBody, guidanceBody, similarBody } from '../schemas/learn-requests.js';
import { idParams } from '../schemas/requests.js';
import { commonErrors, json, jsonBody, notFound } from '../schemas/responses.js';
import { fromWire, toWire } from '../wire.js';

const tags = ['feedback'];

function register(app: EngramApp, { memory }: RouteContext): void {
  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/feedback',
      operationId: 'giveFeedback',
      tags,
      summary: "The user's verdict on an answer: stores an example; the same verdict again removes it, the other flips it",
      request: { body: jsonBody(feedbackBody) },
      responses: { 200: json(FeedbackResultSchema, 'what the feedback did'), ...commonErrors },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const b = c.req.valid('json');
      assertOwnTenant(b.tenant, tenant, 'tenant');
      const r = await memory.examples.giveFeedback({ ...fromWire(b), tenant } as Parameters<typeof memory.examples.giveFeedback>[0]);
      return c.json(toWire(r), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/feedback/analyze',
      operationId: 'analyzeConversations',
      tags,
      summary: 'Find implicit feedback (thanks, corrections, rejections) in the latest conversations and store the judged pairs',
      request: { body: jsonBody(analyzeBody) },
      responses: { 200: json(AnalysisReportSchema, 'the judged pairs found'), ...commonErrors },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const b = c.req.valid('json');
      assertOwnTenant(b.tenant, tenant, 'tenant');
      if (b.turns === undefined && b.session_id === undefined) {
        throw new EngramError('VALIDATION', 'give the turns, or a session_id whose messages to analyse', { issues: [{ path: 'turns', message: 'required without session_id' }] });
      }
      const r = await memory.examples.analyzeConversations({ ...fromWire(b), tenant } as Parameters<typeof memory.examples.analyzeConversations>[0]);
      return c.json(toWire(r), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/examples/similar',
      operationId: 'similarExamples',
      tags,
      summary: 'Stored examples similar to a request, best first, up to k of each polarity',
      request: { body: jsonBody(similarBody) },
      responses: { 200: json(SimilarExamplesSchema, 'positive and negative examples'), ...commonErrors },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const b = c.req.valid('json');
      assertOwnTenant(b.tenant, tenant, 'tenant');
      const r = await memory.examples.similar({ ...fromWire(b), tenant } as Parameters<typeof memory.examples.similar>[0]);
      return c.json(toWire(r), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/examples/guidance',
      operationId: 'feedbackGuidance',
      tags,
      summary: 'Similar examples as "Follow … / Avoid …" guidance text for the next answer',
      request: { body: jsonBody(guidanceBody) },
      responses: { 200: json(GuidanceSchema, 'the guidance (empty text when nothing similar exists)'), ...commonErrors },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const { query, ...rest } = c.req.valid('json');
      assertOwnTenant(rest.tenant, tenant, 'tenant');
      const g = await memory.examples.guidance(query, { ...fromWire(rest), tenant } as Parameters<typeof memory.examples.guidance>[1]);
      return c.json(toWire(g), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/examples',
      operationId: 'listExamples',
      tags,
      summary: 'List feedback examples by scope and polarity (oldest first)',
      request: { query: examplesQuery },
      responses: { 200: json(z.object({ examples: z.array(ExampleSchema) }).openapi('ExampleList'), 'the examples'), ...commonErrors },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const q = c.req.valid('query');
      const examples = await memory.examples.list({ ...fromWire(q), tenant, limit: q.limit ?? 100 });
      return c.json({ examples: toWire(examples) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/v1/examples/{id}',
      operationId: 'deleteExample',
      tags,
      summary: 'Delete one example',
      request: { params: idParams('example') },
      responses: { 200: json(z.object({ id: z.string(), deleted: z.literal(true) }).strict(), 'deleted'), ...commonErrors, ...notFound },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const { id } = c.req.valid('param');
      if (!(await memory.examples.delete(id, tenant))) throw new EngramError('NOT_FOUND', `no example ${id}`);
      return c.json({ id, deleted: true as const }, 200);
    },
  );
}

export const exampleRoutes: RouteModule = { name: 'examples', register };
