/**
 * API keys. Only the hash of a secret is ever stored or returned. Lookup by hash is the one read that spans
 * tenants, by design: it is how a request learns which tenant it acts for.
 */
import { EngramError } from '../../../core/errors.js';
import type { ApiKeyRecord } from '../../../core/types.js';
import type { StoreContext } from './context.js';
import { insertSql } from '../sql/rows.js';
import { API_KEY_COLUMNS, apiKeyParams, rowToApiKey, type ApiKeyRow } from '../sql/rows-learn.js';
import { assertApiKey } from '../sql/validate-learn.js';

const INSERT_KEY = insertSql('api_keys', API_KEY_COLUMNS);

/**
 * Inserts a key. Keys are never rewritten (a key is revoked, not edited): the same id or hash again is a
 * CONFLICT, except re-putting an identical record, which is a no-op (an import replayed).
 */
export function putApiKey(ctx: StoreContext, k: ApiKeyRecord): void {
  assertApiKey(k);
  ctx.write(() => {
    const existing = ctx.stmts.get('SELECT * FROM api_keys WHERE id = ? OR hash = ?').all(k.id, k.hash) as ApiKeyRow[];
    if (existing.length === 1 && sameKey(rowToApiKey(existing[0]!), k)) return;
    if (existing.length > 0) {
      const clash = existing[0]!.id === k.id ? 'id' : 'hash';
      throw new EngramError('CONFLICT', `an API key with this ${clash} already exists`, { issues: [{ path: `apiKey.${clash}`, message: 'already exists' }] });
    }
    ctx.stmts.get(INSERT_KEY).run(...apiKeyParams(k));
  });
}

function sameKey(a: ApiKeyRecord, b: ApiKeyRecord): boolean {
  const pa = apiKeyParams(a);
  const pb = apiKeyParams(b);
  return pa.every((v, i) => v === pb[i]);
}

/** The key with this hash, revoked or not (the caller refuses a revoked key and can say why). */
export function findApiKeyByHash(ctx: StoreContext, hash: string): ApiKeyRecord | undefined {
  const r = ctx.stmts.get('SELECT * FROM api_keys WHERE hash = ?').get(hash) as ApiKeyRow | undefined;
  return r && rowToApiKey(r);
}

/** One tenant's keys, or every key (tenant and admin) when no tenant is given; oldest first. */
export function listApiKeys(ctx: StoreContext, tenant: string | undefined): ApiKeyRecord[] {
  const rows = (
    tenant === undefined
      ? ctx.stmts.get('SELECT * FROM api_keys ORDER BY created_at, id').all()
      : ctx.stmts.get('SELECT * FROM api_keys WHERE tenant = ? ORDER BY created_at, id').all(tenant)
  ) as ApiKeyRow[];
  return rows.map(rowToApiKey);
}

/** Sets `revokedAt` once (revoking again keeps the first time). False if there is no such key. */
export function revokeApiKey(ctx: StoreContext, id: string, at: number): boolean {
  return ctx.write(() => {
    const exists = ctx.stmts.get('SELECT 1 FROM api_keys WHERE id = ?').get(id);
    if (!exists) return false;
    ctx.stmts.get('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, id);
    return true;
  });
}
