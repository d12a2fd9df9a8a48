/** Keys and roles over real HTTP: 401 without a valid key, 403 for the wrong role, revocation, rate limits. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './server.test-support.js';

type Json = Record<string, unknown>;
let t: TestServer;
let limited: TestServer;

beforeAll(async () => {
  t = await startTestServer({ config: { indexing: { background: false } } });
  limited = await startTestServer({ config: { indexing: { background: false } }, options: { rateLimit: { burst: 3, perSecond: 0.01 } } });
});
afterAll(async () => {
  await t.close();
  await limited.close();
});

describe('authentication', () => {
  it('refuses a missing, malformed or unknown key with 401 and a Bearer challenge', async () => {
    const none = await t.call('GET', '/v1/events');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toContain('Bearer');
    expect((none.body as { error: Json }).error.code).toBe('UNAUTHORIZED');
    for (const header of ['Bearer', 'Bearer nonsense', 'Basic dXNlcjpwYXNz', `Bearer egm_${'A'.repeat(43)}`]) {
      const res = await t.call('GET', '/v1/events', { headers: { authorization: header } });
      expect(res.status, header).toBe(401);
    }
  });

  it('leaves health, readiness and the OpenAPI document public', async () => {
    for (const path of ['/healthz', '/readyz', '/openapi.json']) expect((await t.call('GET', path)).status, path).toBe(200);
  });

  it('403 for the wrong role: admin keys cannot touch tenant data, tenant keys cannot manage keys', async () => {
    const tenantKey = await t.keyFor('roles');
    const asAdmin = await t.call('POST', '/v1/events', { key: t.adminKey, body: { content: 'x' } });
    expect(asAdmin.status).toBe(403);
    expect((asAdmin.body as { error: Json }).error.code).toBe('FORBIDDEN');
    expect((await t.call('GET', '/admin/keys', { key: tenantKey })).status).toBe(403);
    expect((await t.call('POST', '/admin/keys', { key: tenantKey, body: { tenant: 'roles', name: 'escalate' } })).status).toBe(403);
    // 403 for another tenant named in the request is covered in tenants.test.ts.
  });
});

describe('admin key management', () => {
  it('creates a tenant key (secret once), lists without secrets, and a revoked key is refused from then on', async () => {
    const created = await t.call('POST', '/admin/keys', { key: t.adminKey, body: { tenant: 'globex', name: 'support-bot' } });
    expect(created.status).toBe(201);
    const { key, record } = created.body as { key: string; record: Json };
    expect(key).toMatch(/^egm_[A-Za-z0-9_-]{43}$/);
    expect(record).toMatchObject({ tenant: 'globex', role: 'tenant', name: 'support-bot', prefix: key.slice(0, 12) });
    expect(record).not.toHaveProperty('hash');

    expect((await t.call('POST', '/v1/events', { key, body: { content: 'globex writes' } })).status).toBe(201);
    expect((await t.call('GET', '/v1/me', { key })).body).toMatchObject({ tenant: 'globex', key_id: record.id });

    const list = await t.call('GET', '/admin/keys?tenant=globex', { key: t.adminKey });
    const keys = (list.body as { keys: Json[] }).keys;
    expect(keys.map((k) => k.id)).toEqual([record.id]);
    expect(list.text).not.toContain(key);
    expect(list.text).not.toContain('"hash"');

    const revoked = await t.call('DELETE', `/admin/keys/${record.id as string}`, { key: t.adminKey });
    expect(revoked.status).toBe(200);
    const after = await t.call('GET', '/v1/events', { key });
    expect(after.status).toBe(401);
    expect((await t.call('DELETE', `/admin/keys/${record.id as string}`, { key: t.adminKey })).status).toBe(200);
    expect((await t.call('DELETE', '/admin/keys/key_01J8ZK3V6W9X2Y4Z5A6B7C8D9E', { key: t.adminKey })).status).toBe(404);
    const listed = (await t.call('GET', '/admin/keys?tenant=globex', { key: t.adminKey })).body as { keys: Json[] };
    expect(listed.keys[0]!.revoked_at).toEqual(expect.any(String));
  });

  it('validates the tenant name and refuses unknown fields', async () => {
    const bad = await t.call('POST', '/admin/keys', { key: t.adminKey, body: { tenant: 'no spaces!', name: 'x' } });
    expect(bad.status).toBe(400);
    expect((bad.body as { error: { issues: { path: string }[] } }).error.issues[0]!.path).toBe('tenant');
    const extra = await t.call('POST', '/admin/keys', { key: t.adminKey, body: { tenant: 'ok', name: 'x', role: 'admin' } });
    expect(extra.status).toBe(400);
    expect((extra.body as { error: { issues: { path: string }[] } }).error.issues[0]!.path).toBe('role');
  });
});

describe('rate limiting', () => {
  it('gives each key its burst, then 429 with retry-after; other keys and public routes are unaffected', async () => {
    const a = await limited.keyFor('rl-a');
    const b = await limited.keyFor('rl-b');
    for (let i = 0; i < 3; i++) expect((await limited.call('GET', '/v1/me', { key: a })).status).toBe(200);
    const refused = await limited.call('GET', '/v1/me', { key: a });
    expect(refused.status).toBe(429);
    expect((refused.body as { error: Json }).error.code).toBe('LIMIT');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await limited.call('POST', '/v1/events', { key: a, body: { content: 'not written' } })).status).toBe(429);
    expect((await limited.call('GET', '/v1/me', { key: b })).status).toBe(200);
    expect((await limited.call('GET', '/healthz')).status).toBe(200);
    expect(await limited.tm.memory.fetchEvents({ tenant: 'rl-a' })).toEqual([]);
  });
});
