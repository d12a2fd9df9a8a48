import { describe, expect, it } from 'vitest';
import type { ApiKeyRecord } from '../core/types.js';
import { makeApiKey } from './storage-factories-learn.js';
import { NOW } from './storage-factories.js';
import { expectCode, type StorageHarness } from './storage-harness.js';

export function describeSessions(h: StorageHarness): void {
  const wm = (state: Record<string, number | string>, extra: { tenant?: string; sessionId?: string; updatedAt?: number; expiresAt?: number } = {}) => ({
    tenant: 'tenant-a',
    sessionId: 's1',
    state: { ...state },
    updatedAt: NOW - 100,
    ...extra,
  });

  describe('working memory', () => {
    it('creates at version 1 and bumps the version on each successful write', async () => {
      expect(await h.storage.getWorkingMemory('tenant-a', 's1', NOW)).toBeUndefined();
      const v1 = await h.storage.putWorkingMemory(wm({ goal: 'ship', step: 1 }), 0);
      expect(v1).toEqual({ tenant: 'tenant-a', sessionId: 's1', version: 1, state: { goal: 'ship', step: 1 }, updatedAt: NOW - 100 });
      expect(await h.storage.getWorkingMemory('tenant-a', 's1', NOW)).toEqual(v1);
      const v2 = await h.storage.putWorkingMemory(wm({ goal: 'ship', step: 2 }), 1);
      expect(v2.version).toBe(2);
      expect(await h.storage.getWorkingMemory('tenant-a', 's1', NOW)).toEqual(v2);
    });

    it('refuses a stale or premature write with CONFLICT and keeps the stored record', async () => {
      await h.storage.putWorkingMemory(wm({ step: 1 }), 0);
      const v2 = await h.storage.putWorkingMemory(wm({ step: 2 }), 1);
      const stale = await expectCode(h.storage.putWorkingMemory(wm({ step: 'lost update' }), 1), 'CONFLICT');
      expect(stale.issues.map((i) => i.path)).toContain('expectedVersion');
      await expectCode(h.storage.putWorkingMemory(wm({ step: 'create again' }), 0), 'CONFLICT');
      await expectCode(h.storage.putWorkingMemory(wm({ step: 'from the future' }), 7), 'CONFLICT');
      await expectCode(h.storage.putWorkingMemory(wm({ step: 'first' }, { sessionId: 's2' }), 1), 'CONFLICT');
      expect(await h.storage.getWorkingMemory('tenant-a', 's1', NOW)).toEqual(v2);
      expect(await h.storage.getWorkingMemory('tenant-a', 's2', NOW)).toBeUndefined();
      await expectCode(h.storage.putWorkingMemory(wm({ step: 3 }), -1), 'VALIDATION');
    });

    it('lets exactly one of two writers holding the same version win', async () => {
      await h.storage.putWorkingMemory(wm({ n: 0 }), 0);
      const results = await Promise.allSettled([h.storage.putWorkingMemory(wm({ n: 1 }), 1), h.storage.putWorkingMemory(wm({ n: 2 }), 1)]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect((await h.storage.getWorkingMemory('tenant-a', 's1', NOW))!.version).toBe(2);
    });

    it('treats an expired record as absent: hidden from reads, replaced by a write expecting 0, swept', async () => {
      await h.storage.putWorkingMemory(wm({ step: 1 }, { updatedAt: 1000, expiresAt: 2000 }), 0);
      expect(await h.storage.getWorkingMemory('tenant-a', 's1', 1999)).toMatchObject({ version: 1, expiresAt: 2000 });
      expect(await h.storage.getWorkingMemory('tenant-a', 's1', 2000)).toBeUndefined();
      const fresh = await h.storage.putWorkingMemory(wm({ step: 'again' }, { updatedAt: 3000 }), 0);
      expect(fresh).toMatchObject({ version: 1, state: { step: 'again' } });
      expect(fresh.expiresAt).toBeUndefined();
      await h.storage.putWorkingMemory(wm({ x: 1 }, { sessionId: 's2', expiresAt: NOW }), 0);
      await h.storage.sweepExpired(NOW);
      expect(await h.storage.getWorkingMemory('tenant-a', 's2', 0)).toBeUndefined();
      expect(await h.storage.getWorkingMemory('tenant-a', 's1', NOW)).toMatchObject({ state: { step: 'again' } });
    });

    it('deletes a session scratchpad; false when there is none', async () => {
      await h.storage.putWorkingMemory(wm({ step: 1 }), 0);
      expect(await h.storage.deleteWorkingMemory('tenant-a', 's1')).toBe(true);
      expect(await h.storage.getWorkingMemory('tenant-a', 's1', NOW)).toBeUndefined();
      expect(await h.storage.deleteWorkingMemory('tenant-a', 's1')).toBe(false);
      expect((await h.storage.putWorkingMemory(wm({ step: 2 }), 0)).version).toBe(1);
    });
  });

  describe('API keys', () => {
    it('finds a key by hash across tenants, lists by tenant, and lists every key without one', async () => {
      const a = makeApiKey({ createdAt: 1000 });
      const b = makeApiKey({ tenant: 'tenant-b', createdAt: 2000 });
      const admin = makeApiKey({ tenant: undefined, role: 'admin', name: 'root', createdAt: 3000 });
      for (const k of [admin, b, a]) await h.storage.putApiKey(k);
      expect(await h.storage.findApiKeyByHash(b.hash)).toEqual(b);
      expect(await h.storage.findApiKeyByHash(admin.hash)).toEqual(admin);
      expect(await h.storage.findApiKeyByHash('0'.repeat(32))).toBeUndefined();
      expect(await h.storage.listApiKeys('tenant-a')).toEqual([a]);
      expect(await h.storage.listApiKeys('tenant-c')).toEqual([]);
      expect(await h.storage.listApiKeys()).toEqual([a, b, admin]);
    });

    it('revokes once, keeping the first revocation time; a revoked key is still found (to be refused)', async () => {
      const k = makeApiKey();
      await h.storage.putApiKey(k);
      expect(await h.storage.revokeApiKey(k.id, 5000)).toBe(true);
      expect(await h.storage.revokeApiKey(k.id, 6000)).toBe(true);
      expect(await h.storage.findApiKeyByHash(k.hash)).toEqual({ ...k, revokedAt: 5000 });
      expect(await h.storage.revokeApiKey('key_01ARZ3NDEKTSV4RRFFQ69G5FAV', 5000)).toBe(false);
    });

    it('never rewrites a key: the same id or hash again is a CONFLICT, an identical replay a no-op', async () => {
      const k = makeApiKey();
      await h.storage.putApiKey(k);
      await h.storage.putApiKey({ ...k });
      await expectCode(h.storage.putApiKey(makeApiKey({ hash: k.hash })), 'CONFLICT');
      await expectCode(h.storage.putApiKey({ ...k, tenant: 'tenant-b' }), 'CONFLICT');
      expect(await h.storage.listApiKeys()).toEqual([k]);
    });

    it('refuses a tenant key without a tenant and an admin key with one', async () => {
      const err = await expectCode(h.storage.putApiKey(makeApiKey({ tenant: undefined })), 'VALIDATION');
      expect(err.issues.map((i) => i.path)).toContain('apiKey.tenant');
      await expectCode(h.storage.putApiKey(makeApiKey({ role: 'admin' })), 'VALIDATION');
      await expectCode(h.storage.putApiKey({ ...makeApiKey(), role: 'owner' } as unknown as ApiKeyRecord), 'VALIDATION');
      expect(await h.storage.listApiKeys()).toEqual([]);
    });
  });
}
