export { createApp, OPENAPI_PATH } from './app.js';
export { startHttpServer, type HttpServer, type StartServerInput } from './server.js';
export { parseServerOptions, serverOptionsSchema, type ServerOptions, type ServerOptionsInput } from './options.js';
export type { AppEnv, EngramApp, Principal, RouteContext, RouteModule } from './env.js';
export { ROUTE_MODULES } from './routes/index.js';
export { STATUS_BY_CODE, statusOf } from './errors.js';
export { bootstrapAdminKey, createApiKey, hashKey, listKeys, revokeKey, resolveKey, type PublicApiKey } from './keys.js';
export { assertOwnTenant, tenantOf } from './auth.js';
