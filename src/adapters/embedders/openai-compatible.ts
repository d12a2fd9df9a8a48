/**
 * Embeddings from any server speaking OpenAI's `POST /v1/embeddings` (OpenAI, Ollama, vLLM, LM Studio, TEI's
 * OpenAI route). `baseUrl` is the API root, e.g. `http://127.0.0.1:11434/v1`.
 */
import type { EmbedderConfig } from '../../core/config.js';
import { EngramError } from '../../core/errors.js';
import type { Embedder } from '../../ports/embedder.js';
import { abortable } from './abortable.js';
import { DEFAULT_RETRY_POLICY, joinUrl, postJson, type HttpAdapterOptions, type RetryPolicy } from './http-json.js';

export type { HttpAdapterOptions } from './http-json.js';
import { l2Normalize } from './normalize.js';

export type OpenAiCompatibleConfig = Extract<EmbedderConfig, { provider: 'openai-compatible' }>;

const PROBE_TEXT = 'What is the dimension of this model?';

/** Reads `data[].embedding` in input order (by `index`, as the protocol allows any order). */
export function readEmbeddings(json: unknown, expected: number, what: string): number[][] {
  const data = (json as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) throw new EngramError('ADAPTER', `${what}: reply has no "data" array`);
  if (data.length !== expected) {
    throw new EngramError('ADAPTER', `${what}: ${data.length} embeddings for ${expected} inputs`);
  }
  const out: number[][] = new Array<number[]>(expected);
  data.forEach((item: unknown, position) => {
    const { index = position, embedding } = (item ?? {}) as { index?: unknown; embedding?: unknown };
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= expected || out[index]) {
      throw new EngramError('ADAPTER', `${what}: bad or repeated index ${JSON.stringify(index)} in data[${position}]`);
    }
    if (!Array.isArray(embedding) || !embedding.every((v) => typeof v === 'number')) {
      throw new EngramError('ADAPTER', `${what}: data[${position}].embedding is not an array of numbers`);
    }
    out[index] = embedding as number[];
  });
  return out;
}

class OpenAiCompatibleEmbedder implements Embedder {
  /** The requested dimension is part of the identity: text-embedding-3 truncated to 256 is another vector space. */
  readonly model: string;
  private dim = 0;
  private starting: Promise<{ dimension: number }> | null = null;
  private closed = false;
  private readonly url: string;
  private readonly retry: RetryPolicy;

  constructor(
    private readonly cfg: OpenAiCompatibleConfig,
    opts: HttpAdapterOptions,
  ) {
    this.model = `openai-compatible:${cfg.model}${cfg.dimensions ? `@${cfg.dimensions}d` : ''}`;
    this.url = joinUrl(cfg.baseUrl, 'embeddings');
    this.retry = { ...DEFAULT_RETRY_POLICY, ...opts.retry };
  }

  get dimension(): number {
    if (this.dim === 0) throw new EngramError('UNAVAILABLE', `${this.model}: dimension is known after init()`);
    return this.dim;
  }

  /** Probes the server once: checks that it answers and learns the dimension from a real reply. */
  init(): Promise<{ dimension: number }> {
    if (this.closed) return Promise.reject(this.closedError());
    this.starting ??= this.probe().catch((e: unknown) => {
      this.starting = null;
      throw e;
    });
    return this.starting;
  }

  async embed(texts: readonly string[], opts: { signal?: AbortSignal } = {}): Promise<Float32Array[]> {
    await abortable(this.init(), opts.signal);
    const out: Float32Array[] = [];
    // One request at a time: servers queue concurrent batches anyway, and rate limits count requests.
    for (let start = 0; start < texts.length; start += this.cfg.batchSize) {
      const batch = texts.slice(start, start + this.cfg.batchSize);
      const rows = await this.request(batch, opts.signal);
      rows.forEach((row, i) => {
        if (row.length !== this.dim) {
          throw new EngramError('ADAPTER', `${this.model}: server returned ${row.length} dimensions, expected ${this.dim}`, {
            details: { expected: this.dim, got: row.length, input: start + i },
          });
        }
        out.push(l2Normalize(row, `${this.model} embedding ${start + i}`));
      });
    }
    return out;
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private async probe(): Promise<{ dimension: number }> {
    const [row] = await this.request([PROBE_TEXT]);
    const dimension = row!.length;
    if (dimension === 0) throw new EngramError('ADAPTER', `${this.model}: server returned an empty embedding`);
    if (this.cfg.dimensions !== undefined && dimension !== this.cfg.dimensions) {
      throw new EngramError('ADAPTER', `${this.model}: asked for ${this.cfg.dimensions} dimensions, server returned ${dimension}`, {
        details: { expected: this.cfg.dimensions, got: dimension },
      });
    }
    this.dim = dimension;
    return { dimension };
  }

  private async request(input: readonly string[], signal?: AbortSignal): Promise<number[][]> {
    if (this.closed) throw this.closedError();
    const body: Record<string, unknown> = { model: this.cfg.model, input };
    if (this.cfg.dimensions !== undefined) body.dimensions = this.cfg.dimensions;
    const json = await postJson(this.url, body, {
      what: `embeddings request (${this.cfg.model})`,
      apiKey: this.cfg.apiKey,
      timeoutMs: this.cfg.timeoutMs,
      signal,
      retry: this.retry,
    });
    return readEmbeddings(json, input.length, `${this.model} reply from ${this.url}`);
  }

  private closedError(): EngramError {
    return new EngramError('UNAVAILABLE', `${this.model} embedder is closed`);
  }
}

export function createOpenAiCompatibleEmbedder(cfg: OpenAiCompatibleConfig, opts: HttpAdapterOptions = {}): Embedder {
  return new OpenAiCompatibleEmbedder(cfg, opts);
}
