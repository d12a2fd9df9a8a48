/**
 * Graceful shutdown over real HTTP: a write in flight when shutdown begins completes, is acknowledged and is
 * durable; new connections are refused; memory is closed; a request that never finishes is cut off at the
 * shutdown timeout instead of holding the process.
 */
import { connect } from 'node:net';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { openSqliteStorage } from '../../adapters/storage/sqlite/index.js';
import { openTestMemory } from '../../../testing/memory-fixture.js';
import { createApiKey } from './keys.js';
import { startHttpServer, type HttpServer } from './server.js';

const silent = pino({ level: 'silent' });

/** A request body the test feeds by hand, so the request is provably in flight. */
function manualBody() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  const enc = new TextEncoder();
  return { stream, send: (s: string) => controller.enqueue(enc.encode(s)), end: () => controller.close() };
}

async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 5));
}

function refusesConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

function startWrite(server: HttpServer, key: string) {
  const body = manualBody();
  const response = fetch(`${server.url}/v1/events`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body.stream,
    duplex: 'half',
  } as RequestInit);
  return { body, response };
}

describe('graceful shutdown', () => {
  it('finishes an in-flight write, acknowledges it, refuses new connections, closes memory, and the write is durable', async () => {
    const tm = await openTestMemory({ indexing: { background: false } });
    const { key } = await createApiKey(tm.memory.storage, { role: 'tenant', tenant: 'acme', name: 't' });
    const server = await startHttpServer({ memory: tm.memory, logger: silent, options: { port: 0 } });

    const { body, response } = startWrite(server, key);
    body.send('{"content":"written while the server drains",');
    await until(() => server.inFlight() === 1);

    const stopped = server.shutdown();
    expect(await refusesConnections(server.port)).toBe(true);
    body.send('"session_id":"drain"}');
    body.end();

    const res = await response;
    expect(res.status).toBe(201);
    const event = (await res.json()) as { id: string };
    await stopped;
    expect(server.inFlight()).toBe(0);
    await expect(tm.memory.fetchEvents({ tenant: 'acme' })).rejects.toThrow();

    const reopened = await openSqliteStorage({ path: tm.path });
    await reopened.init({ embeddingModel: tm.memory.embedder.model, dimension: tm.memory.embedder.dimension });
    const [stored] = await reopened.getEvents('acme', [event.id]);
    expect(stored).toMatchObject({ content: 'written while the server drains', sessionId: 'drain' });
    await reopened.close();
    await tm.cleanup();
  });

  it('cuts off a request that never finishes once the shutdown timeout passes', async () => {
    const tm = await openTestMemory({ indexing: { background: false } });
    const { key } = await createApiKey(tm.memory.storage, { role: 'tenant', tenant: 'acme', name: 't' });
    const server = await startHttpServer({ memory: tm.memory, logger: silent, options: { port: 0, shutdownTimeoutMs: 100 } });

    const { body, response } = startWrite(server, key);
    body.send('{"content":"never finished"');
    await until(() => server.inFlight() === 1);
    await server.shutdown();
    await expect(response.then((r) => r.status)).rejects.toThrow();
    const reopened = await openSqliteStorage({ path: tm.path });
    await reopened.init({ embeddingModel: tm.memory.embedder.model, dimension: tm.memory.embedder.dimension });
    expect(await reopened.queryEvents({ tenant: 'acme', now: Date.now() })).toEqual([]);
    await reopened.close();
    await tm.cleanup();
  });
});
