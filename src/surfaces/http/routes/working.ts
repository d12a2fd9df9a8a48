/**
 * Working memory: the bounded per-session scratchpad (plan, items, key facts, recent turns, summary) at
 * `/v1/sessions/{session_id}/working-memory`. Every change answers its new version, its token count and what
 * it evicted to stay within the cap.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { tenantOf } from '../auth.js';
import type { AppEnv, EngramApp, RouteContext, RouteModule } from '../env.js';
import { WmEditSchema, WorkingMemorySchema } from '../schemas/learn-records.js';
import {
  entityParams,
  itemParams,
  sessionParams,
  wmAppendBody,
  wmEntityBody,
  wmPageInBody,
  wmPageOutBody,
  wmPlanBody,
  wmReplaceBody,
  wmScopeQuery,
  wmTurnBody,
} from '../schemas/learn-requests.js';
import { commonErrors, conflict, json, jsonBody } from '../schemas/responses.js';
import { toWire } from '../wire.js';

const tags = ['working memory'];
const BASE = '/v1/sessions/{session_id}/working-memory';

/** The library's session reference: tenant from the key, session from the path, user/agent from the body. */
function ref(c: Context<AppEnv>, session: string, scope: { user_id?: string | undefined; agent_id?: string | undefined }) {
  return {
    tenant: tenantOf(c),
    sessionId: session,
    ...(scope.user_id !== undefined ? { userId: scope.user_id } : {}),
    ...(scope.agent_id !== undefined ? { agentId: scope.agent_id } : {}),
  };
}

const WorkingMemoryClearedSchema = z.object({ session_id: z.string(), cleared: z.boolean() }).strict().openapi('WorkingMemoryCleared');

const edit = { 200: json(WmEditSchema, 'the change: new version, tokens and what was evicted'), ...commonErrors, ...conflict };

function register(app: EngramApp, { memory }: RouteContext): void {
  const wm = memory.working;
  app.openapi(
    createRoute({
      method: 'get',
      path: BASE,
      operationId: 'getWorkingMemory',
      tags,
      summary: "The session's scratchpad, with its rendered prompt text (version 0 when it has none)",
      request: { params: sessionParams, query: wmScopeQuery },
      responses: { 200: json(WorkingMemorySchema, 'the scratchpad'), ...commonErrors },
    }),
    async (c) => {
      const { session_id } = c.req.valid('param');
      return c.json(toWire(await wm.view(ref(c, session_id, c.req.valid('query')))), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: `${BASE}/turns`,
      operationId: 'addWorkingMemoryTurn',
      tags,
      summary: 'Record a conversation turn (key facts extracted; window or summary applied)',
      request: { params: sessionParams, body: jsonBody(wmTurnBody) },
      responses: edit,
    }),
    async (c) => {
      const { session_id } = c.req.valid('param');
      const { role, content, ...scope } = c.req.valid('json');
      return c.json(toWire(await wm.addTurn({ ...ref(c, session_id, scope), role, content })), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: `${BASE}/items`,
      operationId: 'appendWorkingMemoryItem',
      tags,
      summary: 'Add a note, or evidence with its source',
      request: { params: sessionParams, body: jsonBody(wmAppendBody) },
      responses: edit,
    }),
    async (c) => {
      const { session_id } = c.req.valid('param');
      const { content, kind, source, priority, ...scope } = c.req.valid('json');
      const r = await wm.append({ ...ref(c, session_id, scope), content, ...(kind ? { kind } : {}), ...(source ? { source } : {}), ...(priority !== undefined ? { priority } : {}) });
      return c.json(toWire(r), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: `${BASE}/items/{item_id}`,
      operationId: 'replaceWorkingMemoryItem',
      tags,
      summary: 'Correct an item: its whole content, or `find` → `content` inside it; or its priority or source',
      request: { params: itemParams, body: jsonBody(wmReplaceBody) },
      responses: edit,
    }),
    async (c) => {
      const { session_id, item_id } = c.req.valid('param');
      const { find, content, priority, source, ...scope } = c.req.valid('json');
      const r = await wm.replace({
        ...ref(c, session_id, scope),
        id: item_id,
        ...(find !== undefined ? { find } : {}),
        ...(content !== undefined ? { content } : {}),
        ...(priority !== undefined ? { priority } : {}),
        ...(source !== undefined ? { source } : {}),
      });
      return c.json(toWire(r), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: `${BASE}/items/{item_id}`,
      operationId: 'removeWorkingMemoryItem',
      tags,
      summary: 'Remove an item',
      request: { params: itemParams },
      responses: edit,
    }),
    async (c) => {
      const { session_id, item_id } = c.req.valid('param');
      return c.json(toWire(await wm.remove({ ...ref(c, session_id, {}), id: item_id })), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: `${BASE}/plan`,
      operationId: 'setWorkingMemoryPlan',
      tags,
      summary: 'Set or clear (null) the plan',
      request: { params: sessionParams, body: jsonBody(wmPlanBody) },
      responses: edit,
    }),
    async (c) => {
      const { session_id } = c.req.valid('param');
      const { plan, ...scope } = c.req.valid('json');
      return c.json(toWire(await wm.setPlan({ ...ref(c, session_id, scope), plan })), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: `${BASE}/entities/{key}`,
      operationId: 'setWorkingMemoryEntity',
      tags,
      summary: 'Set or remove (null) a key fact',
      request: { params: entityParams, body: jsonBody(wmEntityBody) },
      responses: edit,
    }),
    async (c) => {
      const { session_id, key } = c.req.valid('param');
      const { value, ...scope } = c.req.valid('json');
      return c.json(toWire(await wm.setEntity({ ...ref(c, session_id, scope), key, value })), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: `${BASE}/items/{item_id}/page-out`,
      operationId: 'pageOutWorkingMemoryItem',
      tags,
      summary: 'Move an item into long-term memory (a fact) and out of the scratchpad',
      request: { params: itemParams, body: jsonBody(wmPageOutBody) },
      responses: edit,
    }),
    async (c) => {
      const { session_id, item_id } = c.req.valid('param');
      const { tags: itemTags, ...scope } = c.req.valid('json');
      return c.json(toWire(await wm.pageOut({ ...ref(c, session_id, scope), id: item_id, ...(itemTags ? { tags: itemTags } : {}) })), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: `${BASE}/page-in`,
      operationId: 'pageInWorkingMemory',
      tags,
      summary: 'Search long-term memory and bring the best matches into the scratchpad',
      request: { params: sessionParams, body: jsonBody(wmPageInBody) },
      responses: edit,
    }),
    async (c) => {
      const { session_id } = c.req.valid('param');
      const { query, k, priority, kinds, ...scope } = c.req.valid('json');
      const r = await wm.pageIn({ ...ref(c, session_id, scope), query, ...(k !== undefined ? { k } : {}), ...(priority !== undefined ? { priority } : {}), ...(kinds ? { kinds } : {}) });
      return c.json(toWire(r), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: BASE,
      operationId: 'clearWorkingMemory',
      tags,
      summary: "End the session's scratchpad (seed 004: discarded at task end)",
      request: { params: sessionParams },
      responses: { 200: json(WorkingMemoryClearedSchema, 'cleared is false when the session had no scratchpad'), ...commonErrors },
    }),
    async (c) => {
      const { session_id } = c.req.valid('param');
      const cleared = await wm.clear(ref(c, session_id, {}));
      return c.json({ session_id, cleared }, 200);
    },
  );
}

export const workingRoutes: RouteModule = { name: 'working-memory', register };
