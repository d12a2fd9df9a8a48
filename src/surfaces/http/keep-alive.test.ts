/**
 * `server.keepAliveTimeoutMs` over a real socket: an idle kept-alive connection is closed by the server once the
 * setting's time has passed, and not before; the setting is validated with the other server options.
 */
import { connect, type Socket } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestMemory, type TestMemory } from '../../../testing/memory-fixture.js';
import { parseServerOptions } from './options.js';
import { startHttpServer, type HttpServer } from './server.js';

const silent = pino({ level: 'silent' });

/** One HTTP/1.1 keep-alive request on a raw socket; resolves with the socket once the response has arrived. */
function probe(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let got = '';
    socket.on('data', (b) => {
      got += b.toString();
      if (got.includes('\r\n\r\n')) resolve(socket);
    });
    socket.once('error', reject);
    socket.write('GET /healthz HTTP/1.1\r\nhost: localhost\r\nconnection: keep-alive\r\n\r\n');
  });
}

const closedWithin = (socket: Socket, ms: number) =>
  new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });

describe('server.keepAliveTimeoutMs', () => {
  let tm: TestMemory;
  let short: HttpServer;
  let long: HttpServer;
  beforeAll(async () => {
    tm = await openTestMemory();
    short = await startHttpServer({ memory: tm.memory, logger: silent, closeMemory: false, options: { port: 0, keepAliveTimeoutMs: 1000 } });
    long = await startHttpServer({ memory: tm.memory, logger: silent, closeMemory: false, options: { port: 0, keepAliveTimeoutMs: 60_000 } });
  });
  afterAll(async () => {
    await short.shutdown();
    await long.shutdown();
    await tm.cleanup();
  });

  it('closes an idle kept-alive connection after the configured time, and keeps it open while a longer one runs', async () => {
    const [a, b] = await Promise.all([probe(short.port), probe(long.port)]);
    const [aClosed, bClosed] = await Promise.all([closedWithin(a, 4000), closedWithin(b, 2500)]);
    b.destroy();
    expect(aClosed).toBe(true);
    expect(bClosed).toBe(false);
  });

  it('defaults to 5 s and refuses a value under a second as a CONFIG error', () => {
    expect(parseServerOptions({}).keepAliveTimeoutMs).toBe(5000);
    expect(() => parseServerOptions({ keepAliveTimeoutMs: 10 })).toThrow(expect.objectContaining({ code: 'CONFIG' }));
  });
});
