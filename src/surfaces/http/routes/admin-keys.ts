/** Key management for operators (admin keys only, enforced by path in auth.ts). */
import { createRoute, z } from '@hono/zod-openapi';
import type { EngramApp, RouteContext, RouteModule } from '../env.js';
import { createApiKey, listKeys, revokeKey } from '../keys.js';
import { presentKey } from '../present.js';
import { ApiKeySchema, CreatedKeySchema } from '../schemas/records.js';
import { createKeyBody, idParams, listKeysQuery } from '../schemas/requests.js';
import { commonErrors, json, jsonBody, notFound } from '../schemas/responses.js';

const tags = ['admin'];

function register(app: EngramApp, { memory }: RouteContext): void {
  const storage = memory.storage;

  app.openapi(
    createRoute({
      method: 'post',
      path: '/admin/keys',
      operationId: 'createKey',
      tags,
      summary: 'Create a tenant key; the secret is in this response only (only its SHA-256 is stored)',
      request: { body: jsonBody(createKeyBody) },
      responses: { 201: json(CreatedKeySchema, 'created'), ...commonErrors },
    }),
    async (c) => {
      const { tenant, name } = c.req.valid('json');
      const { key, record } = await createApiKey(storage, { role: 'tenant', tenant, name });
      return c.json({ key, record: presentKey(record) }, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/keys',
      operationId: 'listKeys',
      tags,
      summary: 'List keys (all, or one tenant’s), without secrets or hashes',
      request: { query: listKeysQuery },
      responses: { 200: json(z.object({ keys: z.array(ApiKeySchema) }), 'keys'), ...commonErrors },
    }),
    async (c) => {
      const { tenant } = c.req.valid('query');
      return c.json({ keys: (await listKeys(storage, tenant)).map(presentKey) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/admin/keys/{id}',
      operationId: 'revokeKey',
      tags,
      summary: 'Revoke a key (idempotent); it is refused (401) from the next request on',
      request: { params: idParams('key') },
      responses: { 200: json(z.object({ id: z.string(), revoked: z.literal(true) }), 'revoked'), ...commonErrors, ...notFound },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      await revokeKey(storage, id);
      return c.json({ id, revoked: true as const }, 200);
    },
  );
}

export const adminKeyRoutes: RouteModule = { name: 'admin-keys', register };
