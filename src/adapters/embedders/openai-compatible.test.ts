import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { rejection } from '../../core/errors.test-support.js';
import { createOpenAiCompatibleEmbedder, type OpenAiCompatibleConfig } from './openai-compatible.js';

interface Received {
  url: string;
  headers: IncomingHttpHeaders;
  body: { model: string; input: string[]; dimensions?: number };
}

interface Reply {
  status: number;
  json?: unknown;
  text?: string;
  headers?: Record<string, string>;
  /** Never answer (to exercise the client's timeout). */
  hang?: boolean;
}

/** A real HTTP server on 127.0.0.1 speaking the embeddings protocol, answering with `respond`. */
async function startServer(respond: (req: Received, n: number) => Reply) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      const r: Received = { url: req.url ?? '', headers: req.headers, body: JSON.parse(raw) as Received['body'] };
      received.push(r);
      const reply = respond(r, received.length);
      if (reply.hang) return;
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(reply.text ?? JSON.stringify(reply.json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  servers.push(server);
  return { baseUrl: `http://127.0.0.1:${port}/v1`, received };
}

const servers: ReturnType<typeof createServer>[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** A deterministic, text-dependent vector of `dim` values (not normalised, so normalisation is tested). */
function fakeVector(text: string, dim: number): number[] {
  return Array.from({ length: dim }, (_, i) => ((text.charCodeAt(i % Math.max(1, text.length)) || 7) % 13) + i + 1);
}

/** Answers in reverse order with correct `index` fields, as the protocol allows. */
function embeddingsReply(req: Received, dim = 8): Reply {
  const data = req.body.input.map((t, index) => ({ object: 'embedding', index, embedding: fakeVector(t, dim) })).reverse();
  return { status: 200, json: { object: 'list', data, model: req.body.model, usage: { prompt_tokens: 1, total_tokens: 1 } } };
}

function unit(values: number[]): number[] {
  const n = Math.hypot(...values);
  return values.map((v) => v / n);
}

const fastRetry = { retry: { baseDelayMs: 5, maxDelayMs: 20 } };

function config(baseUrl: string, extra: Partial<OpenAiCompatibleConfig> = {}): OpenAiCompatibleConfig {
  return { provider: 'openai-compatible', baseUrl, model: 'test-embed', batchSize: 64, timeoutMs: 5_000, ...extra };
}

describe('OpenAI-compatible embedder', () => {
  it('learns the dimension from a probe and returns unit vectors in input order, batch by batch', async () => {
    const { baseUrl, received } = await startServer((req) => embeddingsReply(req));
    const emb = createOpenAiCompatibleEmbedder(config(baseUrl, { batchSize: 3 }));
    expect(await emb.init()).toEqual({ dimension: 8 });
    expect(emb.dimension).toBe(8);
    expect(received).toHaveLength(1);
    expect(received[0]!.url).toBe('/v1/embeddings');

    const texts = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta'];
    const vectors = await emb.embed(texts);
    expect(received.slice(1).map((r) => r.body.input)).toEqual([texts.slice(0, 3), texts.slice(3, 6), texts.slice(6)]);
    expect(received.every((r) => r.body.model === 'test-embed' && r.body.dimensions === undefined)).toBe(true);
    expect(vectors).toHaveLength(texts.length);
    vectors.forEach((v, i) => {
      expect(v).toBeInstanceOf(Float32Array);
      const expected = unit(fakeVector(texts[i]!, 8));
      v.forEach((x, j) => expect(x).toBeCloseTo(expected[j]!, 5));
    });
    expect(await emb.embed([])).toEqual([]);
  });

  it('sends the API key as a bearer token, and no authorization header without one', async () => {
    const { baseUrl, received } = await startServer((req) => embeddingsReply(req));
    await createOpenAiCompatibleEmbedder(config(`${baseUrl}/`, { apiKey: 'sk-local-test' })).embed(['x']);
    await createOpenAiCompatibleEmbedder(config(baseUrl)).embed(['y']);
    expect(received[0]!.headers.authorization).toBe('Bearer sk-local-test');
    expect(received[0]!.url).toBe('/v1/embeddings');
    expect(received.at(-1)!.headers.authorization).toBeUndefined();
  });

  it('asks for `dimensions` and checks that the server honoured it', async () => {
    const honest = await startServer((req) => embeddingsReply(req, req.body.dimensions ?? 8));
    const emb = createOpenAiCompatibleEmbedder(config(honest.baseUrl, { dimensions: 4 }));
    expect(await emb.init()).toEqual({ dimension: 4 });
    expect(honest.received[0]!.body.dimensions).toBe(4);
    expect(emb.model).toBe('openai-compatible:test-embed@4d');

    const deaf = await startServer((req) => embeddingsReply(req, 8));
    const err = await rejection(createOpenAiCompatibleEmbedder(config(deaf.baseUrl, { dimensions: 4 })).init());
    expect(err.code).toBe('ADAPTER');
    expect(err.message).toMatch(/asked for 4 dimensions, server returned 8/);
  });

  it('rejects a reply whose dimension differs from the one found at init', async () => {
    const { baseUrl } = await startServer((req, n) => embeddingsReply(req, n === 1 ? 8 : 6));
    const emb = createOpenAiCompatibleEmbedder(config(baseUrl));
    await emb.init();
    const err = await rejection(emb.embed(['a', 'b']));
    expect(err.code).toBe('ADAPTER');
    expect(err.message).toMatch(/6 dimensions, expected 8/);
  });

  it('retries 503 and 429 replies, then succeeds', async () => {
    const { baseUrl, received } = await startServer((req, n) => {
      if (n === 1) return { status: 503, json: { error: { message: 'model loading' } } };
      if (n === 2) return { status: 429, json: { error: 'slow down' }, headers: { 'retry-after': '0' } };
      return embeddingsReply(req);
    });
    const emb = createOpenAiCompatibleEmbedder(config(baseUrl), fastRetry);
    const [v] = await emb.embed(['hello']);
    expect(received).toHaveLength(4); // 503, 429, probe ok, embed ok
    expect(v).toHaveLength(8);
  });

  it('gives up after the bounded retries with the last status and server message', async () => {
    const { baseUrl, received } = await startServer(() => ({ status: 502, text: 'bad gateway upstream' }));
    const err = await rejection(
      createOpenAiCompatibleEmbedder(config(baseUrl), { retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 5 } }).init(),
    );
    expect(received).toHaveLength(3);
    expect(err.code).toBe('ADAPTER');
    expect(err.message).toMatch(/after 3 attempts: HTTP 502: bad gateway upstream/);
    expect(err.details.status).toBe(502);
  });

  it('does not retry a 400 and reports the status and the server message', async () => {
    const { baseUrl, received } = await startServer(() => ({
      status: 400,
      json: { error: { message: "'input' must not be empty", type: 'invalid_request_error' } },
    }));
    const err = await rejection(createOpenAiCompatibleEmbedder(config(baseUrl), fastRetry).embed(['']));
    expect(received).toHaveLength(1);
    expect(err.code).toBe('ADAPTER');
    expect(err.details.status).toBe(400);
    expect(err.details.serverMessage).toBe("'input' must not be empty");
    expect(err.message).toContain("HTTP 400: 'input' must not be empty");
  });

  it('rejects replies that break the protocol', async () => {
    const short = await startServer(() => ({ status: 200, json: { data: [] } }));
    expect((await rejection(createOpenAiCompatibleEmbedder(config(short.baseUrl)).init())).message).toMatch(/0 embeddings for 1 inputs/);
    const dup = await startServer((req) => ({
      status: 200,
      json: { data: req.body.input.map((t) => ({ index: 0, embedding: fakeVector(t, 4) })) },
    }));
    const emb = createOpenAiCompatibleEmbedder(config(dup.baseUrl));
    await emb.init();
    expect((await rejection(emb.embed(['a', 'b']))).message).toMatch(/repeated index 0/);
    const notJson = await startServer(() => ({ status: 200, text: '<html>proxy login</html>' }));
    expect((await rejection(createOpenAiCompatibleEmbedder(config(notJson.baseUrl)).init())).message).toMatch(/not JSON/);
  });

  it('reports a refused connection as a typed error after retrying', async () => {
    const { baseUrl } = await startServer((req) => embeddingsReply(req));
    for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
    const err = await rejection(
      createOpenAiCompatibleEmbedder(config(baseUrl), { retry: { retries: 1, baseDelayMs: 1, maxDelayMs: 2 } }).init(),
    );
    expect(err.code).toBe('ADAPTER');
    expect(err.message).toMatch(/after 2 attempts: network error: ECONNREFUSED/);
  });

  it('times out a silent server, and stops at once when the caller aborts', async () => {
    const { baseUrl } = await startServer(() => ({ status: 200, hang: true }));
    const err = await rejection(
      createOpenAiCompatibleEmbedder(config(baseUrl, { timeoutMs: 100 }), { retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 1 } }).init(),
    );
    expect(err.message).toMatch(/no reply within 100 ms/);

    const controller = new AbortController();
    const reason = new Error('caller gave up');
    const pending = createOpenAiCompatibleEmbedder(config(baseUrl)).embed(['x'], { signal: controller.signal });
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });

  it('refuses work after close', async () => {
    const { baseUrl } = await startServer((req) => embeddingsReply(req));
    const emb = createOpenAiCompatibleEmbedder(config(baseUrl));
    await emb.init();
    await emb.close();
    expect((await rejection(emb.embed(['x']))).code).toBe('UNAVAILABLE');
  });
});
