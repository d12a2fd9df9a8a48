import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RerankCandidate } from '../../ports/reranker.js';
import { createHeuristicReranker } from './heuristic.js';
import { createHttpReranker } from './http.js';
import { createModelRoutedReranker } from './routed.js';

const CANDIDATES: RerankCandidate[] = [
  { id: 'a', text: 'lunch menu' },
  { id: 'b', text: 'disk full error on backup' },
];

/** A local /rerank server that records the model it is asked for and prefers the first document. */
const models: Array<string | undefined> = [];
const server = createServer((req, res) => {
  let raw = '';
  req.on('data', (c: Buffer) => (raw += c.toString()));
  req.on('end', () => {
    const body = JSON.parse(raw) as { model?: string; documents: string[] };
    models.push(body.model);
    const results = body.documents.map((_, index) => ({ index, relevance_score: 1 - index / body.documents.length }));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results }));
  });
});
let baseUrl = '';
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('model-routed reranker', () => {
  it('sends "heuristic" to the built-in reranker and other names to the HTTP one', async () => {
    const remote = createHttpReranker({ provider: 'http', baseUrl, timeoutMs: 5_000, model: 'configured-model' });
    const routed = createModelRoutedReranker({ heuristic: createHeuristicReranker(), remote });
    const local = await routed.rerank('backup error', CANDIDATES, { model: 'heuristic' });
    expect(local.find((s) => s.id === 'b')!.score).toBeGreaterThan(local.find((s) => s.id === 'a')!.score);
    expect(models).toEqual([]);
    const viaHttp = await routed.rerank('backup error', CANDIDATES, { model: 'bge-reranker' });
    expect(viaHttp.find((s) => s.id === 'a')!.score).toBeGreaterThan(viaHttp.find((s) => s.id === 'b')!.score);
    await routed.rerank('backup error', CANDIDATES);
    expect(models).toEqual(['bge-reranker', 'configured-model']);
  });

  it('uses the heuristic for every call without an HTTP reranker, whatever model a config names', async () => {
    const routed = createModelRoutedReranker({ heuristic: createHeuristicReranker() });
    const plain = await routed.rerank('backup error', CANDIDATES);
    const named = await routed.rerank('backup error', CANDIDATES, { model: 'cross_encoder_mini' });
    expect(named).toEqual(plain);
    expect(named.find((s) => s.id === 'b')!.score).toBeGreaterThan(named.find((s) => s.id === 'a')!.score);
  });
});
