/**
 * MCP over streamable HTTP at `/mcp`, on the same server and behind the same keys: the tenant comes from the
 * caller's key exactly as for the REST routes. Stateless: each POST gets a fresh MCP server.
 */
import { createMcpHttpHandler, withLearning } from '../../mcp/index.js';
import { tenantOf } from '../auth.js';
import type { EngramApp, RouteContext, RouteModule } from '../env.js';

function register(app: EngramApp, ctx: RouteContext): void {
  const handle = createMcpHttpHandler({ memory: withLearning(ctx.memory), maxBodyBytes: ctx.options.bodyLimitBytes });
  // The streamable HTTP transport's methods; anything else (TRACE, PUT …) is a 405 from the app.
  app.on(['GET', 'POST', 'DELETE'], '/mcp', async (c) => {
    // Middleware may already have read the body (Hono caches it); hand the MCP transport a fresh Request.
    const raw = c.req.raw;
    const body = raw.method === 'POST' ? await c.req.arrayBuffer() : undefined;
    const request = new Request(raw.url, { method: raw.method, headers: raw.headers, ...(body ? { body } : {}) });
    return handle(request, { tenant: tenantOf(c) });
  });
}

export const mcpRoutes: RouteModule = { name: 'mcp', register };
