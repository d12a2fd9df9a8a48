/**
 * API keys. A key is `egm_` + 32 crypto-random bytes (base64url): 256 bits of entropy. Only its SHA-256 is
 * stored (the storage port's api-key table), so a stolen database does not yield usable keys; the secret is
 * shown once, when it is created. The same functions serve the admin HTTP routes and `engram keys`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { EngramError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { ApiKeyRecord } from '../../core/types.js';
import type { Storage } from '../../ports/storage.js';

export const KEY_PREFIX = 'egm_';
const SECRET_BYTES = 32;
const KEY_RE = /^egm_[A-Za-z0-9_-]{43}$/;
/** Tenants are named by operators and travel in logs and URLs: a conservative alphabet. */
export const TENANT_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

export type PublicApiKey = Omit<ApiKeyRecord, 'hash'>;

export function generateKey(): string {
  return KEY_PREFIX + randomBytes(SECRET_BYTES).toString('base64url');
}

/** Cheap shape check before any lookup: garbage never reaches storage. */
export function looksLikeKey(value: string): boolean {
  return KEY_RE.test(value);
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function publicKey(k: ApiKeyRecord): PublicApiKey {
  const { hash: _hash, ...rest } = k;
  return rest;
}

export interface CreateKeyInput {
  role: ApiKeyRecord['role'];
  /** Required for tenant keys, absent for admin keys. */
  tenant?: string | undefined;
  name: string;
}

export function assertTenantName(tenant: unknown, path = 'tenant'): string {
  if (typeof tenant !== 'string' || !TENANT_RE.test(tenant)) {
    throw new EngramError('VALIDATION', `${path} must be 1-100 letters, digits, "_", "." or "-" (starting with a letter or digit)`, {
      issues: [{ path, message: 'invalid tenant name' }],
    });
  }
  return tenant;
}

/** Creates a key and returns the secret (the only time it exists outside the caller's hands) with its record. */
export async function createApiKey(storage: Storage, input: CreateKeyInput, now = Date.now()): Promise<{ key: string; record: PublicApiKey }> {
  if (input.role === 'tenant') assertTenantName(input.tenant);
  if (input.role === 'admin' && input.tenant !== undefined) {
    throw new EngramError('VALIDATION', 'admin keys have no tenant', { issues: [{ path: 'tenant', message: 'not allowed for admin keys' }] });
  }
  const name = input.name.trim();
  if (name === '' || name.length > 200) {
    throw new EngramError('VALIDATION', 'name must be 1-200 characters', { issues: [{ path: 'name', message: '1-200 characters' }] });
  }
  const key = generateKey();
  const record: ApiKeyRecord = {
    id: newId('key', now),
    ...(input.role === 'tenant' ? { tenant: input.tenant } : {}),
    role: input.role,
    name,
    prefix: key.slice(0, KEY_PREFIX.length + 8),
    hash: hashKey(key),
    createdAt: now,
  };
  await storage.putApiKey(record);
  return { key, record: publicKey(record) };
}

/** The live record a presented key names, or undefined (unknown, malformed or revoked). */
export async function resolveKey(storage: Storage, presented: string): Promise<ApiKeyRecord | undefined> {
  if (!looksLikeKey(presented)) return undefined;
  const record = await storage.findApiKeyByHash(hashKey(presented));
  if (!record || record.revokedAt !== undefined) return undefined;
  return record;
}

export async function listKeys(storage: Storage, tenant?: string): Promise<PublicApiKey[]> {
  return (await storage.listApiKeys(tenant)).map(publicKey);
}

/** Idempotent: revoking a revoked key keeps its first revocation time. NOT_FOUND only for an unknown id. */
export async function revokeKey(storage: Storage, id: string, now = Date.now()): Promise<void> {
  if (!(await storage.revokeApiKey(id, now))) throw new EngramError('NOT_FOUND', `no key ${id}`);
}

/**
 * First start: when the database has never held an admin key, creates one and returns its secret so the
 * caller can print it once. Afterwards (even if every admin key was revoked) it returns undefined: a new
 * admin key then comes from `engram keys create --admin`, run by someone with access to the database.
 */
export async function bootstrapAdminKey(storage: Storage, now = Date.now()): Promise<string | undefined> {
  const keys = await storage.listApiKeys();
  if (keys.some((k) => k.role === 'admin')) return undefined;
  const { key } = await createApiKey(storage, { role: 'admin', name: 'bootstrap admin' }, now);
  return key;
}
