/**
 * A real server for tests: a SQLite file in a temp dir, the shared USE-lite embedder (testing/memory-fixture),
 * the app listening on 127.0.0.1 with port 0, an admin key, tenant keys on demand, and captured log lines.
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import type { EngramConfigInput } from '../../core/config.js';
import { openTestMemory, type TestMemory } from '../../../testing/memory-fixture.js';
import { createApiKey } from './keys.js';
import type { ServerOptionsInput } from './options.js';
import { startHttpServer, type HttpServer } from './server.js';

export interface CallOptions {
  key?: string | undefined;
  /** JSON-encoded unless a string (sent as is). */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface TestServer {
  url: string;
  server: HttpServer;
  tm: TestMemory;
  adminKey: string;
  /** Raw log lines written by the server's logger. */
  logs: string[];
  keyFor(tenant: string, name?: string): Promise<string>;
  call(method: string, path: string, opts?: CallOptions): Promise<{ status: number; headers: Headers; body: unknown; text: string }>;
  close(): Promise<void>;
}

export async function startTestServer(opts: { config?: EngramConfigInput; options?: ServerOptionsInput } = {}): Promise<TestServer> {
  const tm = await openTestMemory(opts.config ?? {});
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      logs.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      cb();
    },
  });
  const logger = pino({ level: 'info' }, sink);
  const server = await startHttpServer({ memory: tm.memory, logger, closeMemory: false, options: { port: 0, host: '127.0.0.1', ...opts.options } });
  const admin = await createApiKey(tm.memory.storage, { role: 'admin', name: 'test admin' });

  const call: TestServer['call'] = async (method, path, o = {}) => {
    // A fresh connection per call. The server and this client share one event loop, and the tests block it for
    // seconds at a time (the in-process model embeds synchronously): a kept-alive connection left idle across
    // such a block is closed by the server's keep-alive timeout just as the client reuses it, and the call fails
    // with ECONNRESET ("fetch failed").
    const headers: Record<string, string> = { connection: 'close', ...(o.key ? { authorization: `Bearer ${o.key}` } : {}), ...o.headers };
    let body: string | undefined;
    if (o.body !== undefined) {
      body = typeof o.body === 'string' ? o.body : JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(server.url + path, { method, headers, ...(body !== undefined ? { body } : {}) });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON (export, or an empty body): keep the text
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  };

  return {
    url: server.url,
    server,
    tm,
    adminKey: admin.key,
    logs,
    async keyFor(tenant, name = 'test') {
      return (await createApiKey(tm.memory.storage, { role: 'tenant', tenant, name })).key;
    },
    call,
    async close() {
      await server.shutdown();
      await tm.cleanup();
    },
  };
}
