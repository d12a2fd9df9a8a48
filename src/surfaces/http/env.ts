/** What routes share: the Hono environment, the principal a key resolves to, and the route-module contract. */
import type { HttpBindings } from '@hono/node-server';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Logger } from 'pino';
import type { Memory } from '../../memory.js';
import type { ServerOptions } from './options.js';

/** Who is calling: resolved from the API key, never from the request body or query. */
export type Principal =
  | { role: 'tenant'; tenant: string; keyId: string }
  | { role: 'admin'; keyId: string };

export interface AppEnv {
  Bindings: HttpBindings;
  Variables: {
    requestId: string;
    principal: Principal;
    /** Set when the server starts draining; readiness turns 503. */
    draining: boolean;
  };
}

export type EngramApp = OpenAPIHono<AppEnv>;

export interface RouteContext {
  memory: Memory;
  options: ServerOptions;
  logger: Logger;
  /** True once shutdown has begun. */
  isDraining(): boolean;
}

/**
 * One area of the API (events, facts, retrieval, admin keys, …). Later areas (outcomes, episodes, links,
 * procedures, examples, working memory, MCP) are new modules added to `ROUTE_MODULES` in routes/index.ts.
 * Authentication is by path (auth.ts): everything except the public paths needs a key; `/admin` needs an
 * admin key; the rest a tenant key. A module reads the caller's tenant with `tenantOf(c)`.
 */
export interface RouteModule {
  name: string;
  register(app: EngramApp, ctx: RouteContext): void;
}
