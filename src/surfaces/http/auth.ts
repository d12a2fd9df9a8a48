/**
 * Authentication by path, default deny: every path except the public ones needs a key; `/admin/…` needs an
 * admin key and every other path a tenant key. So a route module added later is protected without doing
 * anything, and an admin key cannot read tenant data (it names no tenant).
 */
import type { Context, MiddlewareHandler } from 'hono';
import { EngramError } from '../../core/errors.js';
import type { Storage } from '../../ports/storage.js';
import type { AppEnv, Principal } from './env.js';
import { resolveKey } from './keys.js';
import { isUiPath } from './routes/ui.js';

export const PUBLIC_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/openapi.json']);

function isAdminPath(path: string): boolean {
  return path === '/admin' || path.startsWith('/admin/');
}

function presentedKey(c: Context): string | undefined {
  const header = c.req.header('authorization');
  if (!header) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1];
}

export function authenticate(storage: Storage): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // The inspector's static files (no data; the app calls the API with the user's key).
    if (PUBLIC_PATHS.has(c.req.path) || isUiPath(c.req.path)) return next();
    const presented = presentedKey(c);
    if (presented === undefined) {
      c.header('www-authenticate', 'Bearer');
      throw new EngramError('UNAUTHORIZED', 'an API key is required: Authorization: Bearer egm_…');
    }
    const record = await resolveKey(storage, presented);
    if (!record) {
      c.header('www-authenticate', 'Bearer error="invalid_token"');
      throw new EngramError('UNAUTHORIZED', 'the API key is unknown or revoked');
    }
    const principal: Principal =
      record.role === 'admin' ? { role: 'admin', keyId: record.id } : { role: 'tenant', tenant: record.tenant ?? '', keyId: record.id };
    if (principal.role === 'tenant' && principal.tenant === '') throw new EngramError('FORBIDDEN', 'this key names no tenant');
    if (isAdminPath(c.req.path) && principal.role !== 'admin') throw new EngramError('FORBIDDEN', 'this route needs an admin key');
    if (!isAdminPath(c.req.path) && principal.role !== 'tenant') {
      throw new EngramError('FORBIDDEN', 'admin keys manage keys only; use a tenant key for memory routes');
    }
    c.set('principal', principal);
    return next();
  };
}

/** The caller's tenant; only ever from the key. */
export function tenantOf(c: Context<AppEnv>): string {
  const p = c.get('principal');
  if (p.role !== 'tenant') throw new EngramError('FORBIDDEN', 'this route needs a tenant key');
  return p.tenant;
}

/**
 * A request may name its tenant (the library schemas carry `tenant`), but only its own: anything else is
 * FORBIDDEN rather than silently rewritten, so a confused client learns of it.
 */
export function assertOwnTenant(claimed: unknown, tenant: string, path: string): void {
  if (claimed === undefined || claimed === tenant) return;
  throw new EngramError('FORBIDDEN', `${path} names another tenant; a key acts for its own tenant only`, {
    issues: [{ path, message: 'must be omitted or equal to the key\'s tenant' }],
  });
}
