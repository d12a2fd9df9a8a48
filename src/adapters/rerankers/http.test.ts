import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { rejection } from '../../core/errors.test-support.js';
import { createHttpReranker, MAX_DOCUMENTS_PER_REQUEST, type HttpRerankerConfig } from './http.js';

interface RerankBody {
  model?: string;
  query: string;
  documents?: string[];
  texts?: string[];
  top_n?: number;
  return_documents?: boolean;
}

interface Received {
  url: string;
  headers: IncomingHttpHeaders;
  body: RerankBody;
}

interface Reply {
  status: number;
  json?: unknown;
  text?: string;
}

const servers: ReturnType<typeof createServer>[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** A real HTTP server on 127.0.0.1 answering POST /rerank with `respond`. */
async function startServer(respond: (req: Received, n: number) => Reply) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      const r: Received = { url: req.url ?? '', headers: req.headers, body: JSON.parse(raw) as RerankBody };
      received.push(r);
      const reply = respond(r, received.length);
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(reply.text ?? JSON.stringify(reply.json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

/** Stand-in relevance: the share of query words found in the document (what a real model would refine). */
function relevance(query: string, doc: string): number {
  const words = query.toLowerCase().split(/\W+/).filter(Boolean);
  const text = doc.toLowerCase();
  return words.filter((w) => text.includes(w)).length / Math.max(1, words.length);
}

/** Scores sorted best first, as the servers send them. */
function ranked(query: string, docs: string[]): Array<{ index: number; score: number }> {
  return docs.map((d, index) => ({ index, score: relevance(query, d) })).sort((a, b) => b.score - a.score);
}

/** Cohere/vLLM/Jina: `documents` in, `{results: [{index, relevance_score}]}` out, honouring top_n. */
function cohereServer(req: Received): Reply {
  const docs = req.body.documents;
  if (!Array.isArray(docs)) return { status: 400, json: { message: 'documents is required' } };
  const results = ranked(req.body.query, docs)
    .slice(0, req.body.top_n ?? docs.length)
    .map(({ index, score }) => ({ index, relevance_score: score }));
  return { status: 200, json: { id: 'r1', results, meta: { billed_units: { search_units: 1 } } } };
}

/** TEI: `texts` in (a body without it fails to deserialize, 422), bare `[{index, score}]` out. */
function teiServer(req: Received): Reply {
  if (!Array.isArray(req.body.texts)) {
    return { status: 422, text: 'Failed to deserialize the JSON body into the target type: missing field `texts` at line 1 column 97' };
  }
  return { status: 200, json: ranked(req.body.query, req.body.texts) };
}

const CANDIDATES = [
  { id: 'm1', text: 'The nightly backup job failed with a disk full error.' },
  { id: 'm2', text: 'Lunch was pizza.' },
  { id: 'm3', text: 'Backup retention is thirty days.' },
];
const QUERY = 'why did the backup job fail';

function config(baseUrl: string, extra: Partial<HttpRerankerConfig> = {}): HttpRerankerConfig {
  return { provider: 'http', baseUrl, timeoutMs: 5_000, ...extra };
}

describe('HTTP reranker', () => {
  it('speaks the Cohere/vLLM/Jina dialect and maps scores back to candidates by index', async () => {
    const { baseUrl, received } = await startServer(cohereServer);
    const reranker = createHttpReranker(config(`${baseUrl}/v1/`, { model: 'bge-reranker-v2-m3', apiKey: 'rk-test' }));
    const scores = await reranker.rerank(QUERY, CANDIDATES);
    expect(scores.map((s) => s.id)).toEqual(['m1', 'm2', 'm3']);
    scores.forEach((s, i) => expect(s.score).toBeCloseTo(relevance(QUERY, CANDIDATES[i]!.text)));
    expect(scores[0]!.score).toBeGreaterThan(scores[2]!.score);
    expect(received).toHaveLength(1);
    expect(received[0]!.url).toBe('/v1/rerank');
    expect(received[0]!.headers.authorization).toBe('Bearer rk-test');
    expect(received[0]!.body).toEqual({
      model: 'bge-reranker-v2-m3',
      query: QUERY,
      documents: CANDIDATES.map((c) => c.text),
      top_n: 3,
      return_documents: false,
    });
    expect(reranker.name).toBe('http:bge-reranker-v2-m3');
  });

  it('switches to the TEI dialect when the server asks for `texts`, and stays with it', async () => {
    const { baseUrl, received } = await startServer(teiServer);
    const reranker = createHttpReranker(config(baseUrl));
    const first = await reranker.rerank(QUERY, CANDIDATES);
    first.forEach((s, i) => expect(s.score).toBeCloseTo(relevance(QUERY, CANDIDATES[i]!.text)));
    expect(received.map((r) => Array.isArray(r.body.texts))).toEqual([false, true]);
    expect(received[1]!.headers.authorization).toBeUndefined();

    const second = await reranker.rerank('pizza', CANDIDATES);
    expect(second.map((s) => s.score)).toEqual([0, 1, 0]);
    expect(received).toHaveLength(3);
    expect(received[2]!.body.texts).toEqual(CANDIDATES.map((c) => c.text));
    expect(received[2]!.body.documents).toBeUndefined();
  });

  it('splits long candidate lists into several requests and reassembles them in order', async () => {
    const { baseUrl, received } = await startServer(cohereServer);
    const many = Array.from({ length: 2 * MAX_DOCUMENTS_PER_REQUEST + 5 }, (_, i) => ({
      id: `c${i}`,
      text: i % 3 === 0 ? `backup job number ${i} failed` : `note ${i} about lunch`,
    }));
    const scores = await createHttpReranker(config(baseUrl)).rerank(QUERY, many);
    expect(received.map((r) => r.body.documents!.length).sort((a, b) => a - b)).toEqual([5, MAX_DOCUMENTS_PER_REQUEST, MAX_DOCUMENTS_PER_REQUEST]);
    expect(scores.map((s) => s.id)).toEqual(many.map((c) => c.id));
    scores.forEach((s, i) => expect(s.score).toBeCloseTo(relevance(QUERY, many[i]!.text)));
  });

  it('lets the caller pick the model per call', async () => {
    const { baseUrl, received } = await startServer(cohereServer);
    await createHttpReranker(config(baseUrl, { model: 'default-model' })).rerank(QUERY, CANDIDATES, { model: 'rerank-english-v3.0' });
    expect(received[0]!.body.model).toBe('rerank-english-v3.0');
  });

  it('ranks candidates the server left out below those it scored', async () => {
    const { baseUrl } = await startServer((req) => cohereServer({ ...req, body: { ...req.body, top_n: 1 } }));
    const scores = await createHttpReranker(config(baseUrl)).rerank(QUERY, CANDIDATES);
    expect(scores[0]!.score).toBeGreaterThan(0);
    expect(scores[1]!.score).toBe(0);
    expect(scores[2]!.score).toBe(0);
  });

  it('retries a 503 and then succeeds', async () => {
    const { baseUrl, received } = await startServer((req, n) => (n === 1 ? { status: 503, json: { error: 'warming up' } } : cohereServer(req)));
    const scores = await createHttpReranker(config(baseUrl), { retry: { baseDelayMs: 5, maxDelayMs: 10 } }).rerank(QUERY, CANDIDATES);
    expect(received).toHaveLength(2);
    expect(scores[0]!.score).toBeCloseTo(relevance(QUERY, CANDIDATES[0]!.text));
  });

  it('reports other client errors with status and message, without retrying or switching dialect', async () => {
    const { baseUrl, received } = await startServer(() => ({ status: 401, json: { message: 'invalid api token' } }));
    const err = await rejection(createHttpReranker(config(baseUrl), { retry: { baseDelayMs: 1 } }).rerank(QUERY, CANDIDATES));
    expect(received).toHaveLength(1);
    expect(err.code).toBe('ADAPTER');
    expect(err.details.status).toBe(401);
    expect(err.message).toContain('HTTP 401: invalid api token');
  });

  it('rejects replies that break the protocol', async () => {
    const badIndex = await startServer(() => ({ status: 200, json: { results: [{ index: 7, relevance_score: 0.5 }] } }));
    expect((await rejection(createHttpReranker(config(badIndex.baseUrl)).rerank(QUERY, CANDIDATES))).message).toMatch(/bad or repeated index 7/);
    const noScore = await startServer(() => ({ status: 200, json: [{ index: 0, relevance: 'high' }] }));
    expect((await rejection(createHttpReranker(config(noScore.baseUrl)).rerank(QUERY, CANDIDATES))).message).toMatch(/no numeric/);
    const shapeless = await startServer(() => ({ status: 200, json: { data: [] } }));
    expect((await rejection(createHttpReranker(config(shapeless.baseUrl)).rerank(QUERY, CANDIDATES))).message).toMatch(/neither a list/);
  });

  it('sends nothing for an empty candidate list', async () => {
    const { baseUrl, received } = await startServer(cohereServer);
    expect(await createHttpReranker(config(baseUrl)).rerank(QUERY, [])).toEqual([]);
    expect(received).toHaveLength(0);
  });
});
