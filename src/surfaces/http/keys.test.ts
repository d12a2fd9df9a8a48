/** Keys as stored: only a SHA-256 of the secret ever reaches the database file. */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestMemory, type TestMemory } from '../../../testing/memory-fixture.js';
import { bootstrapAdminKey, createApiKey, generateKey, hashKey, listKeys, resolveKey, revokeKey } from './keys.js';

let tm: TestMemory;
beforeAll(async () => {
  tm = await openTestMemory({ indexing: { background: false } });
});
afterAll(async () => tm.cleanup());

describe('API keys', () => {
  it('are egm_ + 32 random bytes, all different', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateKey()));
    expect(keys.size).toBe(1000);
    for (const k of keys) {
      expect(k).toMatch(/^egm_[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(k.slice(4), 'base64url')).toHaveLength(32);
    }
  });

  it('store the hash and never the secret; resolve live keys only', async () => {
    const { key, record } = await createApiKey(tm.memory.storage, { role: 'tenant', tenant: 'acme', name: 'bot' });
    await tm.memory.storage.close();
    const bytes = readFileSync(tm.path).toString('latin1') + readFileSync(`${tm.path}-wal`, { flag: 'a+' }).toString('latin1');
    expect(bytes).not.toContain(key);
    expect(bytes).not.toContain(key.slice(12));
    expect(bytes).toContain(hashKey(key));
    await tm.cleanup();
    tm = await openTestMemory({ indexing: { background: false } });

    const s = tm.memory.storage;
    const again = await createApiKey(s, { role: 'tenant', tenant: 'acme', name: 'bot' });
    expect((await resolveKey(s, again.key))?.id).toBe(again.record.id);
    expect(await resolveKey(s, key)).toBeUndefined();
    expect(await resolveKey(s, `${again.key}x`)).toBeUndefined();
    await revokeKey(s, again.record.id);
    expect(await resolveKey(s, again.key)).toBeUndefined();
    await revokeKey(s, again.record.id);
    expect(await resolveKey(s, again.key)).toBeUndefined();
    await expect(revokeKey(s, 'key_01J8ZK3V6W9X2Y4Z5A6B7C8D9E')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(record.tenant).toBe('acme');
  });

  it('bootstrap an admin key exactly once per database, even after it is revoked', async () => {
    const s = tm.memory.storage;
    const first = await bootstrapAdminKey(s);
    expect(first).toMatch(/^egm_/);
    expect((await resolveKey(s, first!))?.role).toBe('admin');
    expect(await bootstrapAdminKey(s)).toBeUndefined();
    const admin = (await listKeys(s)).find((k) => k.role === 'admin')!;
    await revokeKey(s, admin.id);
    expect(await bootstrapAdminKey(s)).toBeUndefined();
  });

  it('validate tenant names and roles', async () => {
    const s = tm.memory.storage;
    await expect(createApiKey(s, { role: 'tenant', tenant: 'has space', name: 'x' })).rejects.toMatchObject({ code: 'VALIDATION' });
    await expect(createApiKey(s, { role: 'tenant', name: 'x' })).rejects.toMatchObject({ code: 'VALIDATION' });
    await expect(createApiKey(s, { role: 'admin', tenant: 'acme', name: 'x' })).rejects.toMatchObject({ code: 'VALIDATION' });
    await expect(createApiKey(s, { role: 'tenant', tenant: 'acme', name: '  ' })).rejects.toMatchObject({ code: 'VALIDATION' });
  });
});
