/**
 * One log line per request: request id, method, route pattern, status, duration, key id. Never bodies,
 * queries, paths with ids, or keys: the route is the registered pattern (`/v1/events/:id`), not the URL.
 */
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { Logger } from 'pino';
import type { AppEnv } from './env.js';

const INCOMING_ID_RE = /^[A-Za-z0-9._-]{1,64}$/;

export function requestLog(logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && INCOMING_ID_RE.test(incoming) ? incoming : randomUUID();
    c.set('requestId', requestId);
    c.header('x-request-id', requestId);
    await next();
    const principal = c.get('principal') as AppEnv['Variables']['principal'] | undefined;
    const status = c.res.status;
    const line = {
      reqId: requestId,
      method: c.req.method,
      route: matchedRoute(c),
      status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      ...(principal ? { keyId: principal.keyId } : {}),
    };
    if (status >= 500) logger.error(line, 'request');
    else logger.info(line, 'request');
  };
}

/** The pattern of the handler that answered; `*` when nothing matched (a 404 or a middleware refusal). */
function matchedRoute(c: Parameters<MiddlewareHandler<AppEnv>>[0]): string {
  try {
    return routePath(c, -1);
  } catch {
    return '*';
  }
}
