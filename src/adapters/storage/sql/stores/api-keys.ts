/**
 * API keys. Only the hash of a secret is ever stored or returned. Lookup by hash is the one read that spans
 * tenants, by design: it is how a request learns which tenant it acts for.
 */
import { EngramError } from '../../../../core/errors.js';
import type { ApiKeyRecord } from '../../../../core/types.js';
import type { Dialect } from '../dialect.js';
import { sql } from '../fragment.js';
import { exec, one, rows, type Step } from '../program.js';
import { insertSql } from '../rows.js';
import { API_KEY_COLUMNS, apiKeyParams, rowToApiKey, type ApiKeyRow } from '../rows-learn.js';

const INSERT_KEY = insertSql('api_keys', API_KEY_COLUMNS);

/**
 * Inserts a key (validated by the caller). Keys are never rewritten (a key is revoked, not edited): the same
 * id or hash again is a CONFLICT, except re-putting an identical record, which is a no-op (an import
 * replayed). A concurrent insert of the same key loses on the unique indexes (CONFLICT).
 */
export function* putApiKey(k: ApiKeyRecord): Step<void> {
  const existing = yield* rows<ApiKeyRow>(sql('SELECT * FROM engram.api_keys WHERE id = ? OR hash = ?', k.id, k.hash));
  if (existing.length === 1 && sameKey(rowToApiKey(existing[0]!), k)) return;
  if (existing.length > 0) {
    const clash = existing[0]!.id === k.id ? 'id' : 'hash';
    throw new EngramError('CONFLICT', `an API key with this ${clash} already exists`, { issues: [{ path: `apiKey.${clash}`, message: 'already exists' }] });
  }
  yield* exec(sql(INSERT_KEY, ...apiKeyParams(k)));
}

function sameKey(a: ApiKeyRecord, b: ApiKeyRecord): boolean {
  const pa = apiKeyParams(a);
  const pb = apiKeyParams(b);
  return pa.every((v, i) => v === pb[i]);
}

/** The key with this hash, revoked or not (the caller refuses a revoked key and can say why). */
export function* findApiKeyByHash(hash: string): Step<ApiKeyRecord | undefined> {
  const r = yield* one<ApiKeyRow>(sql('SELECT * FROM engram.api_keys WHERE hash = ?', hash));
  return r && rowToApiKey(r);
}

/** One tenant's keys, or every key (tenant and admin) when no tenant is given; oldest first. */
export function* listApiKeys(d: Dialect, tenant: string | undefined): Step<ApiKeyRecord[]> {
  const order = `ORDER BY created_at, id${d.byteOrder}`;
  const found =
    tenant === undefined
      ? yield* rows<ApiKeyRow>(sql(`SELECT * FROM engram.api_keys ${order}`))
      : yield* rows<ApiKeyRow>(sql(`SELECT * FROM engram.api_keys WHERE tenant = ? ${order}`, tenant));
  return found.map(rowToApiKey);
}

/** Sets `revokedAt` once (revoking again keeps the first time). False if there is no such key. */
export function* revokeApiKey(d: Dialect, id: string, at: number): Step<boolean> {
  const exists = yield* one(sql(`SELECT 1 FROM engram.api_keys WHERE id = ?${d.forUpdate}`, id));
  if (!exists) return false;
  yield* exec(sql('UPDATE engram.api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', at, id));
  return true;
}
