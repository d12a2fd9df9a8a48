/**
 * Cross-encoder reranking through the common `POST /rerank` API.
 *
 * Two request dialects exist: Cohere, vLLM, Jina and most hosted APIs take `documents` (and `top_n`,
 * `return_documents`); Hugging Face TEI takes `texts` and rejects a body without it. The reranker starts
 * with `documents` and, when a server answers 4xx complaining about `texts`, switches to the TEI body for
 * the rest of its life. Both reply shapes are read: `{results: [{index, relevance_score}]}` and TEI's
 * bare `[{index, score}]`.
 */
import type { RerankerConfig } from '../../core/config.js';
import { EngramError, isEngramError } from '../../core/errors.js';
import type { RerankCandidate, RerankScore, Reranker } from '../../ports/reranker.js';
import { DEFAULT_RETRY_POLICY, joinUrl, postJson, type HttpAdapterOptions, type RetryPolicy } from '../embedders/http-json.js';

export type HttpRerankerConfig = Extract<RerankerConfig, { provider: 'http' }>;

type Dialect = 'documents' | 'texts';

/** TEI's default `max_client_batch_size`; larger candidate lists go out in several requests. */
export const MAX_DOCUMENTS_PER_REQUEST = 32;
/** Requests in flight at once for one rerank call. */
const CONCURRENT_REQUESTS = 4;

interface Scored {
  index: number;
  score: number;
}

/** Reads `{results: [{index, relevance_score}]}` (Cohere, vLLM, Jina) or `[{index, score}]` (TEI). */
export function readRerankReply(json: unknown, count: number, what: string): Scored[] {
  const items = Array.isArray(json) ? json : (json as { results?: unknown } | null)?.results;
  if (!Array.isArray(items)) throw new EngramError('ADAPTER', `${what}: reply is neither a list nor {results: [...]}`);
  const seen = new Set<number>();
  return items.map((item: unknown, position) => {
    const { index, relevance_score, score } = (item ?? {}) as { index?: unknown; relevance_score?: unknown; score?: unknown };
    const value = relevance_score ?? score;
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= count || seen.has(index)) {
      throw new EngramError('ADAPTER', `${what}: bad or repeated index ${JSON.stringify(index)} in result ${position}`);
    }
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new EngramError('ADAPTER', `${what}: result ${position} has no numeric relevance_score or score`);
    }
    seen.add(index);
    return { index, score: value };
  });
}

function requestBody(dialect: Dialect, query: string, texts: string[], model: string | undefined): Record<string, unknown> {
  if (dialect === 'texts') return { query, texts, raw_scores: false, return_text: false, truncate: true };
  return { ...(model ? { model } : {}), query, documents: texts, top_n: texts.length, return_documents: false };
}

/** A TEI server refusing the `documents` body says the `texts` field is missing. */
function asksForTexts(e: unknown): boolean {
  if (!isEngramError(e, 'ADAPTER')) return false;
  const status = e.details.status;
  const message = e.details.serverMessage;
  return typeof status === 'number' && status >= 400 && status < 500 && typeof message === 'string' && /\btexts\b/.test(message);
}

/** Runs `tasks` with at most `limit` in flight, keeping results in task order. */
async function inBatches<T>(tasks: Array<() => Promise<T>>, limit: number): Promise<T[]> {
  const out = new Array<T>(tasks.length);
  let next = 0;
  const lane = async () => {
    while (next < tasks.length) {
      const i = next++;
      out[i] = await tasks[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, lane));
  return out;
}

class HttpReranker implements Reranker {
  readonly name: string;
  private dialect: Dialect = 'documents';
  private readonly url: string;
  private readonly retry: RetryPolicy;

  constructor(
    private readonly cfg: HttpRerankerConfig,
    opts: HttpAdapterOptions,
  ) {
    this.name = `http:${cfg.model ?? 'default'}`;
    this.url = joinUrl(cfg.baseUrl, 'rerank');
    this.retry = { ...DEFAULT_RETRY_POLICY, ...opts.retry };
  }

  /**
   * Scores every candidate. Candidates a server leaves out of its reply (a `top_n` it capped) get
   * min(0, lowest returned score), so they rank last.
   */
  async rerank(query: string, candidates: readonly RerankCandidate[], opts: { model?: string; signal?: AbortSignal } = {}): Promise<RerankScore[]> {
    if (candidates.length === 0) return [];
    const model = opts.model ?? this.cfg.model;
    const chunks: number[] = [];
    for (let start = 0; start < candidates.length; start += MAX_DOCUMENTS_PER_REQUEST) chunks.push(start);
    const replies = await inBatches(
      chunks.map((start) => () => {
        const texts = candidates.slice(start, start + MAX_DOCUMENTS_PER_REQUEST).map((c) => c.text);
        return this.scoreChunk(query, texts, model, opts.signal).then((scored) => ({ start, scored }));
      }),
      CONCURRENT_REQUESTS,
    );
    const scores = new Array<number | undefined>(candidates.length);
    for (const { start, scored } of replies) for (const s of scored) scores[start + s.index] = s.score;
    const floor = Math.min(0, ...scores.filter((s): s is number => s !== undefined));
    return candidates.map((c, i) => ({ id: c.id, score: scores[i] ?? floor }));
  }

  private async scoreChunk(query: string, texts: string[], model: string | undefined, signal?: AbortSignal): Promise<Scored[]> {
    const send = (dialect: Dialect) =>
      postJson(this.url, requestBody(dialect, query, texts, model), {
        what: `rerank request${model ? ` (${model})` : ''}`,
        apiKey: this.cfg.apiKey,
        timeoutMs: this.cfg.timeoutMs,
        signal,
        retry: this.retry,
      });
    let json: unknown;
    try {
      json = await send(this.dialect);
    } catch (e) {
      if (this.dialect !== 'documents' || !asksForTexts(e)) throw e;
      this.dialect = 'texts';
      json = await send('texts');
    }
    return readRerankReply(json, texts.length, `rerank reply from ${this.url}`);
  }
}

export function createHttpReranker(cfg: HttpRerankerConfig, opts: HttpAdapterOptions = {}): Reranker {
  return new HttpReranker(cfg, opts);
}
