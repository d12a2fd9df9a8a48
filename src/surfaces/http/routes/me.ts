/** Which tenant and key the caller's key stands for: a cheap way for a client to check its configuration. */
import { createRoute, z } from '@hono/zod-openapi';
import { tenantOf } from '../auth.js';
import type { EngramApp, RouteModule } from '../env.js';
import { commonErrors, json } from '../schemas/responses.js';

function register(app: EngramApp): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/me',
      operationId: 'whoami',
      tags: ['tenant'],
      summary: "The key's tenant and key id",
      responses: { 200: json(z.object({ tenant: z.string(), key_id: z.string() }), 'who the key is'), ...commonErrors },
    }),
    (c) => c.json({ tenant: tenantOf(c), key_id: c.get('principal').keyId }, 200),
  );
}

export const meRoutes: RouteModule = { name: 'me', register };
