/**
 * Test support (not a test): a real HTTP server on 127.0.0.1 that records every request and answers through a
 * handler. The protocol fakes in the provider tests build on it.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body, or the raw text when it is not JSON. */
  body: unknown;
}

export type Reply =
  | { status: number; headers?: Record<string, string>; json: unknown }
  /** Never answer: the client's timeout or abort has to end the request. */
  | { hang: true };

export type Handler = (req: RecordedRequest, index: number) => Reply;

export interface Loopback {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startLoopback(handler: Handler): Promise<Loopback> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const recorded: RecordedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: parseBody(text) };
      requests.push(recorded);
      respond(res, handler(recorded, requests.length - 1));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port with nothing listening on it (connections are refused). */
export async function closedPortOrigin(): Promise<string> {
  const lb = await startLoopback(() => ({ status: 500, json: {} }));
  await lb.close();
  return lb.origin;
}

function respond(res: ServerResponse, reply: Reply): void {
  if ('hang' in reply) return;
  res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
  res.end(JSON.stringify(reply.json));
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
