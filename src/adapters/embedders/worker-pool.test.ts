import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { EngramError } from '../../core/errors.js';
import { WorkerPool } from './worker-pool.js';

interface Job {
  op: 'double' | 'fail' | 'exit' | 'throw-async';
  value?: number;
  /** Milliseconds before answering, to keep a worker busy. */
  hold?: number;
}

interface Done {
  value: number;
  thread: number;
}

/** A real worker thread speaking the pool protocol (the same messages `serveTasks` sends). */
const WORKER_SOURCE = `
const { parentPort, threadId } = require('node:worker_threads');
parentPort.on('message', ({ id, payload }) => {
  if (payload.op === 'exit') process.exit(3);
  if (payload.op === 'throw-async') return setImmediate(() => { throw new Error('uncaught in worker'); });
  if (payload.op === 'fail') return parentPort.postMessage({ id, ok: false, message: 'cannot do ' + payload.value });
  setTimeout(() => parentPort.postMessage({ id, ok: true, result: { value: payload.value * 2, thread: threadId } }), payload.hold || 0);
});
`;

const pools: WorkerPool<Job, Done>[] = [];
afterEach(async () => {
  for (const p of pools.splice(0)) await p.close();
});

function pool(size: number, source = WORKER_SOURCE) {
  let spawned = 0;
  const p = new WorkerPool<Job, Done>({
    size,
    what: 'test worker',
    spawn: () => {
      spawned++;
      return new Worker(source, { eval: true });
    },
  });
  pools.push(p);
  return { p, spawned: () => spawned };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
}

describe('WorkerPool', () => {
  it('answers each task with its own result and spreads concurrent tasks over the workers', async () => {
    const { p } = pool(2);
    const results = await Promise.all([1, 2, 3, 4, 5].map((value) => p.run({ op: 'double', value, hold: 30 })));
    expect(results.map((r) => r.value)).toEqual([2, 4, 6, 8, 10]);
    expect(new Set(results.map((r) => r.thread)).size).toBe(2);
    expect(p.threads).toBe(2);
  });

  it('serves urgent tasks before queued normal ones, and urgent ones in order', async () => {
    const { p } = pool(1);
    const order: number[] = [];
    const track = (value: number, urgent = false) => p.run({ op: 'double', value, hold: 10 }, { urgent }).then(() => order.push(value));
    await Promise.all([track(1), track(2), track(3), track(10, true), track(11, true), track(4)]);
    // 1 was already running when the urgent ones arrived.
    expect(order).toEqual([1, 10, 11, 2, 3, 4]);
  });

  it('turns a task error into an ADAPTER error and keeps the worker', async () => {
    const { p, spawned } = pool(1);
    const first = await p.run({ op: 'double', value: 1 });
    const err = await rejection(p.run({ op: 'fail', value: 7 }));
    expect(err).toBeInstanceOf(EngramError);
    expect((err as EngramError).code).toBe('ADAPTER');
    expect((err as EngramError).message).toBe('test worker: cannot do 7');
    const after = await p.run({ op: 'double', value: 2 });
    expect(after.thread).toBe(first.thread);
    expect(spawned()).toBe(1);
  });

  it('fails only the task of a worker that dies, and replaces the worker', async () => {
    const { p, spawned } = pool(1);
    const before = await p.run({ op: 'double', value: 1 });
    const queued = p.run({ op: 'double', value: 4 });
    const err = (await rejection(p.run({ op: 'exit' }).finally(() => undefined))) as EngramError;
    // The exit task was queued behind `queued`, so `queued` must still succeed on the original worker.
    expect((await queued).value).toBe(8);
    expect(err.code).toBe('ADAPTER');
    expect(err.message).toMatch(/exited with code 3/);
    const after = await p.run({ op: 'double', value: 5 });
    expect(after.value).toBe(10);
    expect(after.thread).not.toBe(before.thread);
    expect(spawned()).toBe(2);

    const crash = (await rejection(p.run({ op: 'throw-async' }))) as EngramError;
    expect(crash.message).toMatch(/uncaught in worker/);
    expect((await p.run({ op: 'double', value: 6 })).value).toBe(12);
  });

  it('fails the queue instead of respawning forever when workers cannot start', async () => {
    const { p, spawned } = pool(2, `throw new Error('cannot load model');`);
    const outcomes = await Promise.allSettled([1, 2, 3, 4, 5, 6].map((value) => p.run({ op: 'double', value })));
    expect(outcomes.every((o) => o.status === 'rejected')).toBe(true);
    const reasons = outcomes.map((o) => (o as PromiseRejectedResult).reason as EngramError);
    expect(reasons.every((r) => r.code === 'ADAPTER' && /cannot load model/.test(r.message))).toBe(true);
    expect(spawned()).toBe(2);
  });

  it('drops a queued task when its caller aborts, without disturbing the running one', async () => {
    const { p } = pool(1);
    const running = p.run({ op: 'double', value: 1, hold: 100 });
    const controller = new AbortController();
    const queued = p.run({ op: 'double', value: 2 }, { signal: controller.signal });
    const reason = new Error('no longer needed');
    controller.abort(reason);
    expect(await rejection(queued)).toBe(reason);
    expect((await running).value).toBe(2);
    expect((await p.run({ op: 'double', value: 3 })).value).toBe(6);
  });

  it('close() fails pending tasks, terminates the workers and refuses new work', async () => {
    const { p } = pool(2);
    await p.run({ op: 'double', value: 1 });
    const pending = [p.run({ op: 'double', value: 2, hold: 5_000 }), p.run({ op: 'double', value: 3, hold: 5_000 }), p.run({ op: 'double', value: 4 })];
    const outcomes = Promise.all(pending.map(rejection));
    await p.close();
    for (const e of await outcomes) expect((e as EngramError).code).toBe('UNAVAILABLE');
    expect(p.threads).toBe(0);
    expect(((await rejection(p.run({ op: 'double', value: 5 }))) as EngramError).code).toBe('UNAVAILABLE');
  });
});
