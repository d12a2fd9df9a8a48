/**
 * Oversize bodies: a 10 MB body, declared (Content-Length) or streamed (chunked), to JSON routes, /mcp and the
 * import gets a readable 413 — the client finishes writing and reads the answer (no EPIPE or reset), and the
 * server never holds the body whole (it stops at the limit).
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './server.test-support.js';

let t: TestServer;
let key: string;
beforeAll(async () => {
  t = await startTestServer({ options: { importLimitBytes: 2 * 1024 * 1024 } });
  key = await t.keyFor('big');
});
afterAll(async () => {
  await t.close();
});

function send(path: string, size: number, declared: boolean, contentType = 'application/json'): Promise<{ status?: number; body: string; error?: string }> {
  return new Promise((resolve) => {
    const u = new URL(t.url);
    const headers: Record<string, string | number> = { authorization: `Bearer ${key}`, 'content-type': contentType };
    if (declared) headers['content-length'] = size;
    const req = request({ host: u.hostname, port: u.port, path, method: 'POST', headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ body: '', error: e.code ?? e.message }));
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let sent = 0;
    const write = () => {
      while (sent < size) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', write);
      }
      req.end();
    };
    write();
  });
}

describe('10 MB bodies', () => {
  it('get a readable 413 LIMIT on every route kind, declared or streamed', async () => {
    const cases: [string, string][] = [
      ['/v1/events', 'application/json'],
      ['/v1/search', 'application/json'],
      ['/mcp', 'application/json'],
      ['/v1/import', 'application/x-ndjson'],
    ];
    for (const [path, type] of cases) {
      for (const declared of [true, false]) {
        const r = await send(path, 10 * 1024 * 1024, declared, type);
        expect(r.error, `${path} declared=${declared}`).toBeUndefined();
        expect(r.status, `${path} declared=${declared}`).toBe(413);
        expect(JSON.parse(r.body)).toMatchObject({ error: { code: 'LIMIT' } });
      }
    }
    expect((await t.call('POST', '/v1/search', { key, body: { query: 'still up' } })).status).toBe(200);
  });
});
