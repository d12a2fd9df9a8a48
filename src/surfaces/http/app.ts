/**
 * The Hono application: middleware in request order (request log → auth → rate limit → body limit → JSON
 * depth limit), the route modules, the OpenAPI document, and the one error handler that renders every
 * failure through the code → status table in errors.ts.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { bodyLimit } from 'hono/body-limit';
import { EngramError } from '../../core/errors.js';
import { authenticate } from './auth.js';
import type { AppEnv, EngramApp, RouteContext, RouteModule } from './env.js';
import { errorBody, toEngramError, validationHook } from './errors.js';
import { jsonGuard } from './json-guard.js';
import { addressRateLimit, rateLimit } from './rate-limit.js';
import { requestLog } from './request-log.js';
import { ROUTE_MODULES } from './routes/index.js';
import { IMPORT_PATH } from './routes/transfer.js';
import type { ServerOptions } from './options.js';

export const OPENAPI_PATH = '/openapi.json';
export const API_VERSION = '0.1.0';

export function createApp(ctx: RouteContext, modules: readonly RouteModule[] = ROUTE_MODULES): EngramApp {
  const app: EngramApp = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  app.use('*', requestLog(ctx.logger));
  const o = ctx.options;
  app.use('*', addressRateLimit(o.rateLimit.perSecond > 0 ? o.unauthenticatedRateLimit : { perSecond: 0, burst: 1 }));
  app.use('*', authenticate(ctx.memory.storage));
  app.use('*', rateLimit(ctx.options.rateLimit));
  app.use('*', bodyLimits(ctx.options));
  app.use('*', jsonGuard());

  app.openAPIRegistry.registerComponent('securitySchemes', 'apiKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'An Engram API key: Authorization: Bearer egm_…',
  });
  for (const m of modules) m.register(app, ctx);
  serveOpenApi(app);

  const allowed = allowedMethods(app);
  app.notFound((c) => {
    const allow = allowed(c.req.path);
    if (allow.length === 0) return renderError(c, new EngramError('NOT_FOUND', `no route ${c.req.method} ${c.req.path}`), ctx);
    c.header('allow', allow.join(', '));
    return renderError(c, new EngramError('NOT_FOUND', `${c.req.method} is not allowed on ${c.req.path} (allowed: ${allow.join(', ')})`, { details: { allow } }), ctx);
  });
  app.onError((err, c) => renderError(c, err, ctx));
  return app;
}

function renderError(c: Context<AppEnv>, err: unknown, ctx: RouteContext): Response {
  const engram = toEngramError(err);
  const requestId = c.get('requestId') as string | undefined;
  const { status, body } = errorBody(engram, requestId);
  if (status >= 500) {
    ctx.logger.error({ reqId: requestId, code: engram?.code ?? 'INTERNAL', err: engram ?? err }, 'request failed');
  }
  if (status === 503) c.header('retry-after', '5');
  return c.json(body, status as ContentfulStatusCode);
}

/** JSON bodies get `bodyLimitBytes`; the JSONL import its own, larger limit. Over the limit: LIMIT (413). */
function bodyLimits(o: ServerOptions): MiddlewareHandler<AppEnv> {
  const tooLarge = (limit: number) => () => {
    throw new EngramError('LIMIT', `request body is larger than ${limit} bytes`, {
      issues: [{ path: '', message: `at most ${limit} bytes` }],
      details: { limit: 'size', maxBytes: limit },
    });
  };
  const general = bodyLimit({ maxSize: o.bodyLimitBytes, onError: tooLarge(o.bodyLimitBytes) });
  const jsonl = bodyLimit({ maxSize: o.importLimitBytes, onError: tooLarge(o.importLimitBytes) });
  return (c, next) => (c.req.path === IMPORT_PATH ? jsonl : general)(c, next);
}

/** Generated once, on first request: the same zod schemas that validate the requests. */
function serveOpenApi(app: EngramApp): void {
  let doc: unknown;
  app.get(OPENAPI_PATH, (c) => {
    doc ??= app.getOpenAPI31Document({
      openapi: '3.1.0',
      info: {
        title: 'Engram',
        version: API_VERSION,
        description:
          'Memory engine for LLM agents: timeline, facts, hybrid retrieval and budgeted context, episodes, procedures, feedback examples and working memory. Every key on the wire is snake_case and every time ISO-8601. A tenant key acts for its own tenant only.',
        license: { name: 'Apache-2.0', url: 'https://www.apache.org/licenses/LICENSE-2.0' },
      },
      // Relative: the API is served beside this document, wherever the server listens.
      servers: [{ url: '/', description: 'this server' }],
      security: [{ apiKey: [] }],
    });
    return c.json(doc as object, 200);
  });
}

/**
 * The methods the app serves on a path (`/v1/events/:id` patterns included), for 405 + Allow: a known path
 * asked with another method is not "not found". Middleware (`*`, ALL) does not count.
 */
function allowedMethods(app: EngramApp): (path: string) => string[] {
  const routes = app.routes
    .filter((r) => r.method !== 'ALL' && r.path !== '*' && r.path !== '/*')
    .map((r) => ({ method: r.method, re: new RegExp(`^${r.path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:[^/]+/g, '[^/]+').replace(/\*/g, '.*')}$`) }));
  return (path) => {
    const methods = new Set(routes.filter((r) => r.re.test(path)).map((r) => r.method));
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort();
  };
}
