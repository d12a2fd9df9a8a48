/**
 * The embedding backlog, drained off the write acknowledgement path. A write is durable and lexically
 * searchable when acknowledged; this worker then embeds what storage reports as pending (oldest first,
 * distinct texts only: equal texts share one vector) and stores the vectors. The backlog lives in storage,
 * so a restart resumes where the last process stopped.
 */
import { EventEmitter } from 'node:events';
import type { Embedder } from '../ports/embedder.js';
import type { Storage } from '../ports/storage.js';
import { embedDocuments, type DocumentVectors } from './document-vectors.js';

/** Progress reports count the backlog at most this often (see Indexer.backlog). */
const BACKLOG_COUNT_INTERVAL_MS = 1000;

export interface IndexerProgress {
  embedded: number;
  backlog: number;
}

export interface IndexerOptions {
  batchSize: number;
  /** How a text becomes its vector (document-vectors.ts; the default is the config's). */
  documentVectors: DocumentVectors;
  /** Called when a batch fails; the indexer backs off and retries. */
  onError?: (error: unknown) => void;
  /** First retry delay after a failure; doubles up to 30 s. */
  retryDelayMs?: number;
  /**
   * How long the loop, woken from idle by a write, waits for more writes before it embeds. One batch then
   * carries many memories instead of one each, so a steady stream of single writes does not pay a backlog
   * query, an embedder call and a vector write per memory. `drain()` does not wait.
   */
  lingerMs?: number;
}

export class Indexer extends EventEmitter<{ progress: [IndexerProgress]; idle: [] }> {
  private running = false;
  private wake: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  private stopped = false;
  private embedded = 0;
  private failures = 0;
  private idleWaiters: { resolve: () => void; reject: (e: unknown) => void }[] = [];
  private dirty = true;
  /** The last counted backlog, the `embedded` total then, and when it may be counted again. */
  private backlogCount: { backlog: number; embedded: number; next: number } | undefined;
  private reportedBacklog = 0;
  /** Someone waits for the backlog (drain) or the loop is stopping: skip the linger. */
  private urgent = false;
  private cutLinger: (() => void) | undefined;

  constructor(
    private readonly storage: Storage,
    private readonly embedder: Embedder,
    private readonly opts: IndexerOptions,
  ) {
    super();
  }

  /** Starts the background loop. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.stopped = false;
    this.loop = this.run();
  }

  /** Tells the loop there is new work. Cheap; call after every write. */
  notify(): void {
    this.dirty = true;
    this.wake?.();
  }

  /**
   * Resolves once everything written so far has a vector (runs the work inline when not started).
   * Rejects with the embedder's error when a batch fails meanwhile.
   */
  async drain(): Promise<void> {
    if (!this.running) {
      while (await this.step()) {
        /* keep going */
      }
      return;
    }
    this.urgent = true;
    this.notify();
    this.cutLinger?.();
    await new Promise<void>((resolve, reject) => {
      this.idleWaiters.push({ resolve, reject });
      this.wake?.();
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.running = false;
    this.wake?.();
    this.cutLinger?.();
    await this.loop;
    this.loop = undefined;
    for (const w of this.idleWaiters.splice(0)) w.resolve();
  }

  /** Embeds one batch. Returns false when there was nothing to do. */
  async step(): Promise<boolean> {
    const pending = await this.storage.pendingEmbeddings(this.opts.batchSize);
    if (pending.length === 0) {
      // Caught up: if the last report said otherwise (an estimate, or writes came meanwhile), say so now; the
      // next run counts afresh.
      if (this.reportedBacklog > 0 && this.listenerCount('progress') > 0) this.emit('progress', { embedded: this.embedded, backlog: 0 });
      this.reportedBacklog = 0;
      this.backlogCount = undefined;
      return false;
    }
    const vectors = await embedDocuments(this.embedder, pending.map((p) => p.text), this.opts.documentVectors);
    await this.storage.putEmbeddings(pending.map((p, i) => ({ contentHash: p.contentHash, vector: vectors[i]! })));
    this.embedded += pending.length;
    if (this.listenerCount('progress') > 0) {
      this.reportedBacklog = await this.backlog();
      this.emit('progress', { embedded: this.embedded, backlog: this.reportedBacklog });
    }
    return true;
  }

  /**
   * The backlog for progress reports. Counting it scans every doc still waiting (about a second and a half at a
   * million), so it is counted at most once a second and never more often than 20 times its own cost; in
   * between it is the last count less what was embedded since.
   */
  private async backlog(): Promise<number> {
    const b = this.backlogCount;
    if (b && performance.now() < b.next) return Math.max(0, b.backlog - (this.embedded - b.embedded));
    const t0 = performance.now();
    const backlog = await this.storage.embeddingBacklog();
    const now = performance.now();
    this.backlogCount = { backlog, embedded: this.embedded, next: now + Math.max(BACKLOG_COUNT_INTERVAL_MS, 20 * (now - t0)) };
    return backlog;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      let worked = false;
      try {
        this.dirty = false;
        worked = await this.step();
        this.failures = 0;
      } catch (e) {
        this.failures++;
        this.opts.onError?.(e);
        // Whoever waits for the backlog learns why it is not shrinking; the loop itself keeps retrying.
        for (const w of this.idleWaiters.splice(0)) w.reject(e);
        await this.sleep(Math.min(30_000, (this.opts.retryDelayMs ?? 500) * 2 ** (this.failures - 1)));
        continue;
      }
      if (worked || this.dirty) continue;
      for (const w of this.idleWaiters.splice(0)) w.resolve();
      this.emit('idle');
      if (this.stopped) break;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      this.wake = undefined;
      await this.linger();
    }
  }

  /** After a wake by a write: gives later writes `lingerMs` to join the same batch. */
  private async linger(): Promise<void> {
    const ms = this.opts.lingerMs ?? 0;
    if (ms > 0 && !this.urgent && !this.stopped) {
      await delay(ms, (cut) => (this.cutLinger = cut));
      this.cutLinger = undefined;
    }
    this.urgent = false;
  }

  /** A retry back-off that a write (notify) or a stop cuts short. */
  private sleep(ms: number): Promise<void> {
    return delay(ms, (cut) => (this.wake = cut));
  }
}

/** Resolves after `ms`, or at once when the function handed to `onCut` is called. */
function delay(ms: number, onCut: (cut: () => void) => void): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    onCut(() => {
      clearTimeout(t);
      resolve();
    });
  });
}
