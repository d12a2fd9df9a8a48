import type { Transferable, Worker } from 'node:worker_threads';
import { EngramError } from '../../core/errors.js';
import type { TaskReply, TaskRequest } from './worker-protocol.js';

export interface WorkerPoolOptions {
  /** Number of worker threads; each is started on first need (or by `start()`). */
  size: number;
  /** Starts one worker that answers tasks with `serveTasks` (worker-protocol.ts). */
  spawn: () => Worker;
  /** Names the pool in error messages, e.g. `use-lite worker`. */
  what: string;
}

export interface RunOptions {
  transfer?: Transferable[];
  signal?: AbortSignal;
  /** Served before every task queued without it (a reader is waiting); among themselves, in order. */
  urgent?: boolean;
}

interface Task<P, R> {
  id: number;
  payload: P;
  transfer: Transferable[];
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
  /** Set once the caller's promise is resolved or rejected; a late reply is then dropped. */
  settled: boolean;
  urgent: boolean;
  detachAbort: () => void;
}

interface Slot<P, R> {
  worker: Worker;
  task: Task<P, R> | null;
  /** Tasks completed; a worker that dies before its first one most likely cannot start at all. */
  completed: number;
}

/**
 * A fixed-size pool of worker threads, one task at a time per worker, tasks served in arrival order (urgent
 * ones first).
 *
 * - A worker that crashes or exits fails only its own task and is replaced on the next need. If it died
 *   before finishing any task (it cannot start), the queued tasks fail too instead of each spawning a
 *   worker that would die the same way.
 * - Idle workers are unref'd, so a pool the caller forgot to close does not keep the process alive;
 *   a worker is ref'd only while it holds a task.
 */
export class WorkerPool<P, R> {
  private readonly slots: Slot<P, R>[] = [];
  private readonly queue: Task<P, R>[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly opts: WorkerPoolOptions) {
    if (!Number.isInteger(opts.size) || opts.size < 1) {
      throw new EngramError('CONFIG', `${opts.what} pool size must be a positive integer, got ${opts.size}`);
    }
  }

  /** Live worker threads. */
  get threads(): number {
    return this.slots.length;
  }

  get size(): number {
    return this.opts.size;
  }

  /** Starts every worker now, so that model loading overlaps instead of waiting for the first task. */
  start(): void {
    this.assertOpen();
    while (this.slots.length < this.opts.size) this.addSlot();
  }

  run(payload: P, opts: RunOptions = {}): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      if (this.closed) return reject(this.closedError());
      const { signal } = opts;
      if (signal?.aborted) return reject(signal.reason);
      const task: Task<P, R> = {
        id: this.nextId++,
        payload,
        transfer: opts.transfer ?? [],
        resolve,
        reject,
        settled: false,
        urgent: opts.urgent ?? false,
        detachAbort: () => {},
      };
      if (signal) {
        const onAbort = () => this.abandon(task, signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
        task.detachAbort = () => signal.removeEventListener('abort', onAbort);
      }
      if (opts.urgent) {
        const firstNormal = this.queue.findIndex((t) => !t.urgent);
        this.queue.splice(firstNormal === -1 ? this.queue.length : firstNormal, 0, task);
      } else {
        this.queue.push(task);
      }
      this.pump();
    });
  }

  /** Terminates every worker; queued and running tasks fail with UNAVAILABLE. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const task of this.queue.splice(0)) this.settle(task, { error: this.closedError() });
    const slots = this.slots.splice(0);
    for (const slot of slots) if (slot.task) this.settle(slot.task, { error: this.closedError() });
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  private pump(): void {
    while (this.queue.length > 0 && !this.closed) {
      let slot = this.slots.find((s) => s.task === null);
      if (!slot && this.slots.length < this.opts.size) {
        try {
          slot = this.addSlot();
        } catch (e) {
          this.failQueue(e instanceof EngramError ? e : new EngramError('ADAPTER', `${this.opts.what} failed to start`, { cause: e }));
          return;
        }
      }
      if (!slot) return;
      const task = this.queue.shift()!;
      slot.task = task;
      slot.worker.ref();
      const request: TaskRequest<P> = { id: task.id, payload: task.payload };
      slot.worker.postMessage(request, task.transfer);
    }
  }

  private addSlot(): Slot<P, R> {
    const worker = this.opts.spawn();
    worker.unref();
    const slot: Slot<P, R> = { worker, task: null, completed: 0 };
    worker.on('message', (reply: TaskReply<R>) => this.onReply(slot, reply));
    worker.on('error', (err: Error) => this.onDeath(slot, err.message, err));
    worker.on('messageerror', (err: Error) => this.onDeath(slot, `unreadable message: ${err.message}`, err));
    worker.on('exit', (code: number) => this.onDeath(slot, `exited with code ${code}`));
    this.slots.push(slot);
    return slot;
  }

  private onReply(slot: Slot<P, R>, reply: TaskReply<R>): void {
    const task = slot.task;
    if (!task || task.id !== reply.id) return;
    slot.task = null;
    slot.completed++;
    slot.worker.unref();
    if (reply.ok) this.settle(task, { result: reply.result });
    else this.settle(task, { error: new EngramError('ADAPTER', `${this.opts.what}: ${reply.message}`) });
    this.pump();
  }

  /** First of error/exit wins; the slot is dropped and its worker replaced on the next need. */
  private onDeath(slot: Slot<P, R>, reason: string, cause?: unknown): void {
    const i = this.slots.indexOf(slot);
    if (i < 0 || this.closed) return;
    this.slots.splice(i, 1);
    void slot.worker.terminate();
    const error = new EngramError('ADAPTER', `${this.opts.what} failed: ${reason}`, { cause });
    if (slot.task) this.settle(slot.task, { error });
    if (slot.completed === 0) this.failQueue(error);
    else this.pump();
  }

  private failQueue(error: EngramError): void {
    for (const task of this.queue.splice(0)) this.settle(task, { error });
  }

  /** The caller gave up: drop a queued task; a running one finishes in its worker and its reply is ignored. */
  private abandon(task: Task<P, R>, reason: unknown): void {
    const queued = this.queue.indexOf(task);
    if (queued >= 0) this.queue.splice(queued, 1);
    this.settle(task, { error: reason });
  }

  private settle(task: Task<P, R>, outcome: { result: R } | { error: unknown }): void {
    if (task.settled) return;
    task.settled = true;
    task.detachAbort();
    if ('result' in outcome) task.resolve(outcome.result);
    else task.reject(outcome.error);
  }

  private assertOpen(): void {
    if (this.closed) throw this.closedError();
  }

  private closedError(): EngramError {
    return new EngramError('UNAVAILABLE', `${this.opts.what} pool is closed`);
  }
}
