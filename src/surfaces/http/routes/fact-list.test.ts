import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../server.test-support.js';

interface Listed {
  facts: { key: string; text: string; version: number; tenant: string }[];
}

describe('GET /v1/facts', () => {
  let t: TestServer;
  let a: string;
  let b: string;

  beforeAll(async () => {
    t = await startTestServer();
    a = await t.keyFor('acme');
    b = await t.keyFor('globex');
    await t.call('POST', '/v1/facts', { key: a, body: { key: 'diet', text: 'Alice is vegetarian', user_id: 'alice' } });
    await t.call('POST', '/v1/facts', { key: a, body: { key: 'diet', text: 'Alice is vegan', user_id: 'alice' } });
    await t.call('POST', '/v1/facts', { key: a, body: { key: 'tz', text: 'Bob lives in Berlin', user_id: 'bob' } });
    await t.call('POST', '/v1/facts', { key: b, body: { key: 'secret', text: 'Globex plans a merger' } });
  });
  afterAll(() => t.close());

  it('lists the live version of each lineage of the key’s tenant, filtered by scope', async () => {
    const all = (await t.call('GET', '/v1/facts', { key: a })).body as Listed;
    expect(all.facts.map((f) => f.text).sort()).toEqual(['Alice is vegan', 'Bob lives in Berlin']);
    expect(all.facts.every((f) => f.tenant === 'acme')).toBe(true);
    const bob = (await t.call('GET', '/v1/facts?user_id=bob', { key: a })).body as Listed;
    expect(bob.facts.map((f) => f.text)).toEqual(['Bob lives in Berlin']);
  });

  it('includes superseded versions on request, and honours the limit', async () => {
    const every = (await t.call('GET', '/v1/facts?include_expired=true&user_id=alice', { key: a })).body as Listed;
    expect(every.facts.map((f) => f.version)).toEqual([1, 2]);
    const one = (await t.call('GET', '/v1/facts?include_expired=true&limit=1', { key: a })).body as Listed;
    expect(one.facts).toHaveLength(1);
  });

  it('never shows another tenant’s facts, and refuses a foreign tenant or a bad parameter', async () => {
    const other = (await t.call('GET', '/v1/facts', { key: b })).body as Listed;
    expect(other.facts.map((f) => f.text)).toEqual(['Globex plans a merger']);
    expect((await t.call('GET', '/v1/facts?tenant=acme', { key: b })).status).toBe(403);
    expect((await t.call('GET', '/v1/facts?limit=0', { key: a })).status).toBe(400);
    expect((await t.call('GET', '/v1/facts?color=red', { key: a })).status).toBe(400);
    expect((await t.call('GET', '/v1/facts')).status).toBe(401);
  });
});
