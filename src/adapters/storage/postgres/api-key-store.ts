/**
 * API keys. Only the hash of a secret is ever stored or returned. Lookup by hash is the one read that spans
 * tenants, by design: it is how a request learns which tenant it acts for.
 */
import { EngramError } from '../../../core/errors.js';
import type { ApiKeyRecord } from '../../../core/types.js';
import { API_KEY_COLUMNS, apiKeyParams, rowToApiKey, type ApiKeyRow } from '../sql/rows-learn.js';
import { assertApiKey } from '../sql/validate-learn.js';
import type { PgContext } from './context.js';
import { sql } from './sql.js';

const INSERT_KEY = `INSERT INTO engram.api_keys (${API_KEY_COLUMNS.join(', ')}) VALUES (${API_KEY_COLUMNS.map(() => '?').join(', ')})`;

/**
 * Inserts a key. The same id or hash again is a CONFLICT, except re-putting an identical record, which is a
 * no-op (an import replayed). A concurrent insert of the same key loses on the unique indexes (CONFLICT).
 */
export async function putApiKey(ctx: PgContext, k: ApiKeyRecord): Promise<void> {
  assertApiKey(k);
  await ctx.db.tx('putApiKey', async (tx) => {
    const existing = await tx.rows<ApiKeyRow>(sql('SELECT * FROM engram.api_keys WHERE id = ? OR hash = ?', k.id, k.hash));
    if (existing.length === 1 && sameKey(rowToApiKey(existing[0]!), k)) return;
    if (existing.length > 0) {
      const clash = existing[0]!.id === k.id ? 'id' : 'hash';
      throw new EngramError('CONFLICT', `an API key with this ${clash} already exists`, { issues: [{ path: `apiKey.${clash}`, message: 'already exists' }] });
    }
    await tx.exec(sql(INSERT_KEY, ...apiKeyParams(k)));
  });
}

function sameKey(a: ApiKeyRecord, b: ApiKeyRecord): boolean {
  const pa = apiKeyParams(a);
  const pb = apiKeyParams(b);
  return pa.every((v, i) => v === pb[i]);
}

/** The key with this hash, revoked or not (the caller refuses a revoked key and can say why). */
export async function findApiKeyByHash(ctx: PgContext, hash: string): Promise<ApiKeyRecord | undefined> {
  const r = await ctx.db.one<ApiKeyRow>(sql('SELECT * FROM engram.api_keys WHERE hash = ?', hash));
  return r && rowToApiKey(r);
}

/** One tenant's keys, or every key (tenant and admin) when no tenant is given; oldest first. */
export async function listApiKeys(ctx: PgContext, tenant: string | undefined): Promise<ApiKeyRecord[]> {
  const rows =
    tenant === undefined
      ? await ctx.db.rows<ApiKeyRow>(sql('SELECT * FROM engram.api_keys ORDER BY created_at, id COLLATE "C"'))
      : await ctx.db.rows<ApiKeyRow>(sql('SELECT * FROM engram.api_keys WHERE tenant = ? ORDER BY created_at, id COLLATE "C"', tenant));
  return rows.map(rowToApiKey);
}

/** Sets `revokedAt` once (revoking again keeps the first time). False if there is no such key. */
export async function revokeApiKey(ctx: PgContext, id: string, at: number): Promise<boolean> {
  return ctx.db.tx('revokeApiKey', async (tx) => {
    const exists = await tx.one(sql('SELECT 1 FROM engram.api_keys WHERE id = ? FOR UPDATE', id));
    if (!exists) return false;
    await tx.exec(sql('UPDATE engram.api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', at, id));
    return true;
  });
}
