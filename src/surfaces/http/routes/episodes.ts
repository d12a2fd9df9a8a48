/** Episodes (segments of the timeline with outcomes) and the typed links between memories. */
import { createRoute, z } from '@hono/zod-openapi';
import { assertOwnTenant, tenantOf } from '../auth.js';
import type { EngramApp, RouteContext, RouteModule } from '../env.js';
import { CausalChainSchema, EpisodeDetailSchema, EpisodeSchema, LinkSchema } from '../schemas/learn-records.js';
import { chainQuery, episodesQuery, linkBody, linksQuery } from '../schemas/learn-requests.js';
import { idParams } from '../schemas/requests.js';
import { commonErrors, json, jsonBody, notFound } from '../schemas/responses.js';
import { toWire } from '../wire.js';
import { timeParam } from './time.js';

const tags = ['episodes'];

function register(app: EngramApp, { memory }: RouteContext): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/episodes',
      operationId: 'listEpisodes',
      tags,
      summary: 'List episodes by scope, state and outcome (newest first by default)',
      request: { query: episodesQuery },
      responses: { 200: json(z.object({ episodes: z.array(EpisodeSchema) }).openapi('EpisodeList'), 'matching episodes'), ...commonErrors },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const q = c.req.valid('query');
      const outcomes = q.outcome === undefined ? undefined : Array.isArray(q.outcome) ? q.outcome : [q.outcome];
      const episodes = await memory.learn.episodes({
        tenant,
        scope: { userId: q.user_id, agentId: q.agent_id, sessionId: q.session_id, taskId: q.task_id },
        ...(q.closed !== undefined ? { closed: q.closed === 'true' } : {}),
        ...(outcomes ? { outcomes } : {}),
        ...(q.since !== undefined ? { since: timeParam(q.since, 'query.since') } : {}),
        order: q.order ?? 'desc',
        limit: q.limit ?? 50,
      });
      return c.json({ episodes: toWire(episodes) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/episodes/{id}',
      operationId: 'getEpisode',
      tags,
      summary: 'One episode and every link touching it',
      request: { params: idParams('episode') },
      responses: { 200: json(EpisodeDetailSchema, 'the episode and its links'), ...commonErrors, ...notFound },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const { id } = c.req.valid('param');
      const episode = await memory.learn.getEpisode(id, tenant);
      const links = await memory.learn.links(id, { tenant });
      return c.json({ episode: toWire(episode), links: toWire(links) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/episodes/{id}/chain',
      operationId: 'causalChain',
      tags,
      summary: 'The causal narrative through an episode (CAUSED_BY, LED_TO, RETRY_OF, LEARNED_FROM links)',
      request: { params: idParams('episode'), query: chainQuery },
      responses: { 200: json(CausalChainSchema, 'the chain, oldest step first'), ...commonErrors, ...notFound },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const { id } = c.req.valid('param');
      const q = c.req.valid('query');
      const chain = await memory.learn.causalChain(id, {
        tenant,
        ...(q.max_depth !== undefined ? { maxDepth: q.max_depth } : {}),
        ...(q.max_steps !== undefined ? { maxSteps: q.max_steps } : {}),
      });
      return c.json(toWire(chain), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/links',
      operationId: 'createLink',
      tags,
      summary: 'Assert a typed link between two memories (re-asserting one keeps it and raises its weight)',
      request: { body: jsonBody(linkBody) },
      responses: { 201: json(LinkSchema, 'the link as stored'), ...commonErrors, ...notFound },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const b = c.req.valid('json');
      assertOwnTenant(b.tenant, tenant, 'tenant');
      const link = await memory.learn.link({
        tenant,
        type: b.type,
        fromId: b.from_id,
        toId: b.to_id,
        ...(b.weight !== undefined ? { weight: b.weight } : {}),
        ...(b.evidence !== undefined ? { evidence: b.evidence } : {}),
      });
      return c.json(toWire(link), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/links',
      operationId: 'listLinks',
      tags,
      summary: 'Links touching one memory (from it, to it, or both)',
      request: { query: linksQuery },
      responses: { 200: json(z.object({ links: z.array(LinkSchema) }).openapi('LinkList'), 'the links'), ...commonErrors },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const q = c.req.valid('query');
      const links = await memory.learn.links(q.id, { tenant, direction: q.direction ?? 'both' });
      return c.json({ links: toWire(links) }, 200);
    },
  );
}

export const episodeRoutes: RouteModule = { name: 'episodes', register };
