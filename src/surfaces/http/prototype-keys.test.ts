/**
 * User keys that collide with Object.prototype (`constructor`, `__proto__`, `toString` …) on every route that
 * turns user keys into object keys: event metadata, args and result; fact metadata; filters of
 * /v1/events/query, /v1/search and /v1/context (and the rest of a context config); top-level body fields;
 * query strings; import lines. Property: never a 5xx — the answer is a success that treats the key as data, or
 * a 400 whose issues name a path — and the server keeps working.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './server.test-support.js';

const PROTO_KEYS = [
  'constructor', '__proto__', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf',
  'propertyIsEnumerable', 'toLocaleString', '__defineGetter__', '__defineSetter__', '__lookupGetter__',
  '__lookupSetter__', 'then', 'length', 'caller', 'arguments',
];

/** A JSON object literal with `key` as an own key (JSON.stringify would drop a `__proto__` set by assignment). */
const obj = (key: string, value: unknown): string => `{${JSON.stringify(key)}:${JSON.stringify(value)}}`;

type Build = (key: string) => { method: string; path: string; body?: string; contentType?: string };

const ROUTES: Record<string, Build> = {
  'event metadata': (k) => ({ method: 'POST', path: '/v1/events', body: `{"content":"proto ${k}","metadata":${obj(k, 'v')}}` }),
  'event metadata nested': (k) => ({ method: 'POST', path: '/v1/events', body: `{"content":"nested ${k}","metadata":{"a":${obj(k, { b: 1 })}}}` }),
  'event args': (k) => ({ method: 'POST', path: '/v1/events', body: `{"type":"tool_call","tool":"t","args":${obj(k, 1)},"result":${obj(k, [obj])}}`.replace(',[null]', '') }),
  'event result': (k) => ({ method: 'POST', path: '/v1/events', body: `{"type":"tool_call","tool":"t","result":${obj(k, 'x')}}` }),
  'event top-level': (k) => ({ method: 'POST', path: '/v1/events', body: `{"content":"x",${JSON.stringify(k)}:1}` }),
  'batch event metadata': (k) => ({ method: 'POST', path: '/v1/events/batch', body: `{"events":[{"content":"b ${k}","metadata":${obj(k, 2)}}]}` }),
  'fact metadata': (k) => ({ method: 'POST', path: '/v1/facts', body: `{"text":"Fact about ${k}.","metadata":${obj(k, true)}}` }),
  'fact top-level': (k) => ({ method: 'POST', path: '/v1/facts', body: `{"text":"x",${JSON.stringify(k)}:"y"}` }),
  'events query filter': (k) => ({ method: 'POST', path: '/v1/events/query', body: `{"filter":${obj(k, 'v')}}` }),
  'events query filter op': (k) => ({ method: 'POST', path: '/v1/events/query', body: `{"filter":{"source":${obj(k, 'v')}}}` }),
  'events query metadata path': (k) => ({ method: 'POST', path: '/v1/events/query', body: `{"filter":${obj(`metadata.${k}`, 1)}}` }),
  'events query top-level': (k) => ({ method: 'POST', path: '/v1/events/query', body: obj(k, 1) }),
  'search filter': (k) => ({ method: 'POST', path: '/v1/search', body: `{"query":"proto","filter":${obj(k, { eq: 1 })}}` }),
  'search filter in or': (k) => ({ method: 'POST', path: '/v1/search', body: `{"query":"proto","filter":{"or":[${obj(k, 1)},{"type":"message"}]}}` }),
  'context filter': (k) => ({ method: 'POST', path: '/v1/context', body: `{"query":"proto","config":{"semantic_retrieval":{"filters":${obj(k, 'x')}}}}` }),
  'context window filter': (k) => ({ method: 'POST', path: '/v1/context', body: `{"query":"proto","config":{"episodic_window":{"filters":${obj(k, 'x')}}}}` }),
  'context config key': (k) => ({ method: 'POST', path: '/v1/context', body: `{"query":"proto","config":${obj(k, {})}}` }),
  'context scoring key': (k) => ({ method: 'POST', path: '/v1/context', body: `{"query":"proto","config":{"scoring":${obj(k, 1)}}}` }),
  'forget top-level': (k) => ({ method: 'POST', path: '/v1/forget', body: obj(k, ['x']) }),
  'list query string': (k) => ({ method: 'GET', path: `/v1/events?${encodeURIComponent(k)}=1` }),
  'history query string': (k) => ({ method: 'GET', path: `/v1/facts/history?key=${encodeURIComponent(k)}` }),
  'event id param': (k) => ({ method: 'GET', path: `/v1/events/${encodeURIComponent(k)}` }),
  'import line': (k) => ({
    method: 'POST',
    path: '/v1/import',
    contentType: 'application/x-ndjson',
    body: `{"record":"event","content":"imported ${k}","metadata":${obj(k, 1)}}\n{"record":"fact","text":"Imported.",${JSON.stringify(k)}:1}\n`,
  }),
};

let t: TestServer;
let key: string;

beforeAll(async () => {
  // The property sends hundreds of requests in a burst: rate limiting is not what this tests.
  t = await startTestServer({ options: { rateLimit: { perSecond: 0 } } });
  key = await t.keyFor('proto');
});
afterAll(async () => {
  await t.close();
});

async function send(r: ReturnType<Build>) {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (r.body !== undefined) headers['content-type'] = r.contentType ?? 'application/json';
  const res = await fetch(t.url + r.path, { method: r.method, headers, ...(r.body !== undefined ? { body: r.body } : {}) });
  const text = await res.text();
  return { status: res.status, text };
}

describe('prototype-named keys on every route that takes user keys', () => {
  it('never answer 5xx; a 400 names the path', async () => {
    const seen = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...Object.keys(ROUTES)), fc.constantFrom(...PROTO_KEYS), async (route, k) => {
        const r = await send(ROUTES[route]!(k));
        seen.set(`${route}:${r.status}`, (seen.get(`${route}:${r.status}`) ?? 0) + 1);
        expect(r.status, `${route} with "${k}": ${r.text.slice(0, 300)}`).toBeLessThan(500);
        if (r.status === 400) {
          const body = JSON.parse(r.text) as { error: { code: string; issues: { path: string }[] } };
          expect(body.error.code).toBe('VALIDATION');
          expect(body.error.issues.length, `${route} with "${k}"`).toBeGreaterThan(0);
        }
      }),
      { numRuns: 400 },
    );
    // The property ran on every route, and the server still answers a plain request.
    expect(new Set([...seen.keys()].map((s) => s.split(':')[0])).size).toBe(Object.keys(ROUTES).length);
    expect((await send({ method: 'POST', path: '/v1/search', body: '{"query":"proto"}' })).status).toBe(200);
  }, 120_000);

  it('keeps such keys as plain data where they are legal: metadata round-trips and filters match on them', async () => {
    const logged = await send({ method: 'POST', path: '/v1/events', body: `{"content":"has a constructor key","metadata":{"constructor":"ctor","toString":"ts"}}` });
    expect(logged.status).toBe(201);
    const q = await send({ method: 'POST', path: '/v1/events/query', body: '{"filter":{"constructor":"ctor","toString":{"eq":"ts"}}}' });
    expect(q.status).toBe(200);
    const events = (JSON.parse(q.text) as { events: { content: string; metadata: Record<string, unknown> }[] }).events;
    expect(events.map((e) => e.content)).toEqual(['has a constructor key']);
    expect(events[0]!.metadata).toEqual({ constructor: 'ctor', toString: 'ts' });
  });

  it('rejects __proto__ as a key with its path', async () => {
    const r = await send({ method: 'POST', path: '/v1/events', body: '{"content":"x","metadata":{"a":{"__proto__":{"polluted":1}}}}' });
    expect(r.status).toBe(400);
    expect(JSON.parse(r.text).error.issues[0].path).toBe('metadata.a.__proto__');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const escaped = await send({ method: 'POST', path: '/v1/search', body: '{"query":"x","filter":{"or":[{"\\u005f_proto__":1}]}}' });
    expect(escaped.status).toBe(400);
    expect(JSON.parse(escaped.text).error.issues[0].path).toBe('filter.or.0.__proto__');
  });
});
