import { describe, expect, it } from 'vitest';
import { TokenBuckets } from './rate-limit.js';

describe('TokenBuckets', () => {
  it('grants the burst, then refuses with the wait until the next token, and refills over time', () => {
    let now = 0;
    const buckets = new TokenBuckets({ burst: 2, perSecond: 4 }, () => now);
    expect(buckets.take('k')).toBe(0);
    expect(buckets.take('k')).toBe(0);
    expect(buckets.take('k')).toBeCloseTo(250);
    now = 100;
    expect(buckets.take('k')).toBeCloseTo(150);
    now = 250;
    expect(buckets.take('k')).toBe(0);
    expect(buckets.take('other')).toBe(0);
  });

  it('never holds more than the burst however long a key was idle', () => {
    let now = 0;
    const buckets = new TokenBuckets({ burst: 3, perSecond: 10 }, () => now);
    buckets.take('k');
    now = 3_600_000;
    const granted = Array.from({ length: 5 }, () => buckets.take('k')).filter((w) => w === 0).length;
    expect(granted).toBe(3);
  });
});

describe('unauthenticated requests over HTTP', () => {
  it('are limited per client address, refused before the key is looked up, while valid keys go on', async () => {
    const { startTestServer } = await import('./server.test-support.js');
    const t = await startTestServer({ options: { unauthenticatedRateLimit: { perSecond: 0.01, burst: 3 } } });
    try {
      const key = await t.keyFor('acme');
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await t.call('GET', '/v1/me', { headers: { authorization: `Bearer egm_${'A'.repeat(43)}` } })).status);
      const refused = await t.call('GET', '/v1/me');
      statuses.push(refused.status, (await t.call('GET', '/healthz')).status);
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(refused.body).toMatchObject({ error: { code: 'LIMIT' } });
      // An address out of tokens is refused before any key lookup, valid key or not (no lookup is the point).
      expect((await t.call('GET', '/v1/me', { key })).status).toBe(429);
    } finally {
      await t.close();
    }
    const open = await (await import('./server.test-support.js')).startTestServer({ options: { unauthenticatedRateLimit: { perSecond: 0.01, burst: 3 } } });
    try {
      const key = await open.keyFor('acme');
      for (let i = 0; i < 10; i++) expect((await open.call('GET', '/v1/me', { key })).status).toBe(200);
      expect((await open.call('GET', '/healthz')).status).toBe(200);
    } finally {
      await open.close();
    }
  });
});
