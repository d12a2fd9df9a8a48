/**
 * The message protocol between a WorkerPool and its workers. Kept free of heavy imports: the worker entry
 * loads it before anything else.
 */
import { parentPort } from 'node:worker_threads';
import type { Transferable } from 'node:worker_threads';

export interface TaskRequest<P> {
  id: number;
  payload: P;
}

export type TaskReply<R> = { id: number; ok: true; result: R } | { id: number; ok: false; message: string };

export interface HandlerResult<R> {
  result: R;
  /** Buffers moved, not copied, to the parent (e.g. a Float32Array's buffer). */
  transfer?: Transferable[];
}

/**
 * Worker side: answers each task with the handler's result or its error message. Tasks are handled one at a
 * time in arrival order, which is what the pool assumes when it assigns at most one task per worker.
 */
export function serveTasks<P, R>(handler: (payload: P) => Promise<HandlerResult<R>>): void {
  const port = parentPort;
  if (!port) return;
  let chain: Promise<void> = Promise.resolve();
  port.on('message', (msg: TaskRequest<P>) => {
    chain = chain.then(async () => {
      try {
        const { result, transfer } = await handler(msg.payload);
        const reply: TaskReply<R> = { id: msg.id, ok: true, result };
        port.postMessage(reply, transfer ?? []);
      } catch (e) {
        const reply: TaskReply<R> = { id: msg.id, ok: false, message: e instanceof Error ? e.message : String(e) };
        port.postMessage(reply);
      }
    });
  });
}
