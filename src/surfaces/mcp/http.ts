/**
 * The streamable HTTP transport as a Web-standard handler, for the REST server to mount at `/mcp`:
 *
 *   const mcp = createMcpHttpHandler({ memory });
 *   app.all('/mcp', (c) => mcp(c.req.raw, { tenant: tenantOf(c) }));      // after the API-key middleware
 *
 * Stateless: every POST gets a fresh server bound to the caller's tenant (taken from its API key by the
 * caller, never from the request), answers in JSON, and is closed. GET (a server-initiated event stream) and
 * DELETE (session end) have no meaning without sessions and answer 405, as the specification allows.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { McpMemory, McpScope } from './facade.js';
import { createMcpServer } from './server.js';

export interface McpHttpOptions {
  /** The facade, or a function giving the facade for a tenant. */
  memory: McpMemory | ((tenant: string) => McpMemory | Promise<McpMemory>);
  /** Largest JSON-RPC body accepted (413 above). Default 1 MiB. */
  maxBodyBytes?: number;
  /** Keep internal failure messages out of tool errors (default true). */
  hideInternalErrors?: boolean;
}

export type McpHttpHandler = (request: Request, ctx: McpScope & { tenant: string }) => Promise<Response>;

const DEFAULT_MAX_BODY = 1024 * 1024;

function methodNotAllowed(): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless; use POST.' }, id: null }), {
    status: 405,
    headers: { 'content-type': 'application/json', allow: 'POST' },
  });
}

export function createMcpHttpHandler(opts: McpHttpOptions): McpHttpHandler {
  const memoryFor = typeof opts.memory === 'function' ? opts.memory : () => opts.memory as McpMemory;
  return async (request, ctx) => {
    if (request.method !== 'POST') return methodNotAllowed();
    const server = createMcpServer({ ...ctx, memory: await memoryFor(ctx.tenant), hideInternalErrors: opts.hideInternalErrors ?? true });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: opts.maxBodyBytes ?? DEFAULT_MAX_BODY,
    });
    try {
      await server.connect(transport);
      return await transport.handleRequest(request);
    } finally {
      // JSON mode: the reply is complete once handleRequest resolves.
      await server.close();
    }
  };
}
