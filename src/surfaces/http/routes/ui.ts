/**
 * The inspector at /ui: the static single-page app built by `npm run build:ui` into dist-ui/ (at install, by
 * `prepare`). Its files carry no data and are public (auth.ts lets /ui through); the app itself calls the
 * REST API with the tenant key the user types in, like any other client.
 */
import { serveStatic } from '@hono/node-server/serve-static';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MiddlewareHandler } from 'hono';
import { EngramError } from '../../../core/errors.js';
import type { AppEnv, EngramApp, RouteModule } from '../env.js';

export const UI_PATH = '/ui';

/** src/surfaces/http/routes or dist/surfaces/http/routes: the package root is four levels up either way. */
export function defaultUiDir(): string {
  return join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', 'dist-ui');
}

export function isUiPath(path: string): boolean {
  return path === UI_PATH || path.startsWith(`${UI_PATH}/`);
}

/**
 * The app only talks to its own origin; inline style attributes are allowed because the graph and chart
 * libraries position their elements with them.
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

const securityHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  c.header('content-security-policy', CSP);
  c.header('x-content-type-options', 'nosniff');
  c.header('referrer-policy', 'no-referrer');
};

export function uiModule(dir: string = defaultUiDir()): RouteModule {
  return {
    name: 'ui',
    register(app: EngramApp): void {
      const built = existsSync(join(dir, 'index.html'));
      app.use(`${UI_PATH}/*`, securityHeaders);
      app.get(UI_PATH, (c) => c.redirect(`${UI_PATH}/`, 301));
      if (!built) {
        app.get(`${UI_PATH}/*`, () => {
          throw new EngramError('NOT_FOUND', 'the inspector is not built: run `npm run build:ui`');
        });
        return;
      }
      app.use(
        `${UI_PATH}/*`,
        serveStatic({ root: dir, rewriteRequestPath: (p) => p.slice(UI_PATH.length) || '/' }),
      );
      // Any other path under /ui is the app's own (it routes by hash, so this is only a typed-in URL).
      app.get(`${UI_PATH}/*`, serveStatic({ root: dir, path: 'index.html' }));
    },
  };
}

export const uiRoutes: RouteModule = uiModule();
