/**
 * The HTTP server around the app: listen on host:port, count in-flight requests, and shut down gracefully —
 * stop accepting connections, let every in-flight request finish and be acknowledged, close idle keep-alive
 * connections, then close memory (which drains queued writes and the embedding backlog).
 */
import { createAdaptorServer, type Http2Bindings, type HttpBindings } from '@hono/node-server';
import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino, type Logger } from 'pino';
import { EngramError } from '../../core/errors.js';
import type { Memory } from '../../memory.js';
import { createApp } from './app.js';
import type { RouteModule } from './env.js';
import { errorBody } from './errors.js';
import { parseServerOptions, type ServerOptions, type ServerOptionsInput } from './options.js';
import { ROUTE_MODULES } from './routes/index.js';

export interface StartServerInput {
  memory: Memory;
  options?: ServerOptionsInput;
  logger?: Logger;
  modules?: readonly RouteModule[];
  /** Whether shutdown closes `memory` (default true; tests that share a memory pass false). */
  closeMemory?: boolean;
  /** Called once the port is bound, before the "listening" log line (e.g. to print a first-start banner). */
  onListening?: (url: string) => void;
}

export interface HttpServer {
  readonly url: string;
  readonly port: number;
  readonly options: ServerOptions;
  /** Requests received and not yet fully answered. */
  inFlight(): number;
  /** Idempotent. Resolves when every in-flight request is answered and memory is closed. */
  shutdown(): Promise<void>;
}

export async function startHttpServer(input: StartServerInput): Promise<HttpServer> {
  const options = parseServerOptions(input.options ?? {});
  const logger = input.logger ?? pino({ level: 'info' });
  let draining = false;
  const inFlight = new Set<ServerResponse>();
  const idleWaiters: (() => void)[] = [];

  const app = createApp({ memory: input.memory, options, logger, isDraining: () => draining }, input.modules ?? ROUTE_MODULES);

  const onSettled = () => {
    if (!draining) return;
    server.closeIdleConnections();
    if (inFlight.size === 0) idleWaiters.splice(0).forEach((w) => w());
  };

  /**
   * A request answered before its body was read (401, 413, …) leaves unread bytes on the connection; the
   * adapter then destroys it, so the client must be told not to reuse it.
   */
  const answer = async (req: Request, env: HttpBindings): Promise<Response> => {
    const response = await app.fetch(req, env);
    if (!env.incoming.complete && !env.outgoing.headersSent) env.outgoing.setHeader('connection', 'close');
    return response;
  };

  const server = createAdaptorServer({
    hostname: options.host,
    fetch: (req: Request, bindings: HttpBindings | Http2Bindings) => {
      // We create a plain HTTP/1.1 server, so the bindings are node:http's.
      const env = bindings as HttpBindings;
      const res = env.outgoing;
      if (draining) {
        // A request on a kept-alive connection after shutdown began: refuse it and close the connection.
        res.setHeader('connection', 'close');
        const { status, body } = errorBody(new EngramError('UNAVAILABLE', 'shutting down'), undefined);
        return Response.json(body, { status, headers: { 'retry-after': '5' } });
      }
      inFlight.add(res);
      res.once('close', () => {
        inFlight.delete(res);
        onSettled();
      });
      return answer(req, env);
    },
  }) as Server;
  server.keepAliveTimeout = options.keepAliveTimeoutMs;
  // A request's headers must be allowed longer than an idle connection lives (Node's own rule for the two).
  server.headersTimeout = Math.max(server.headersTimeout, options.keepAliveTimeoutMs + 1000);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const url = `http://${host}:${port}`;

  let closing: Promise<void> | undefined;
  const shutdown = () =>
    (closing ??= (async () => {
      draining = true;
      logger.info({ inFlight: inFlight.size }, 'shutting down: draining in-flight requests');
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Responses not yet started tell their client this connection ends with them.
      for (const res of inFlight) if (!res.headersSent) res.setHeader('connection', 'close');
      server.closeIdleConnections();
      const drained = inFlight.size === 0 ? Promise.resolve(true) : new Promise<boolean>((resolve) => idleWaiters.push(() => resolve(true)));
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), options.shutdownTimeoutMs);
      });
      const clean = await Promise.race([drained, timedOut]);
      clearTimeout(timer);
      if (!clean) {
        logger.warn({ inFlight: inFlight.size }, 'shutdown timeout: closing remaining connections');
        server.closeAllConnections();
      }
      await closed;
      if (input.closeMemory !== false) await input.memory.close();
      logger.info('shut down');
    })());

  input.onListening?.(url);
  logger.info({ url }, 'listening');
  return { url, port, options, inFlight: () => inFlight.size, shutdown };
}
