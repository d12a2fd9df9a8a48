import { describe, expect, it } from 'vitest';
import { EngramError } from '../../../core/errors.js';
import type { EmbedOptions } from '../../../ports/embedder.js';
import { warmUpEmbedder } from './warm-up.js';

function recorder() {
  const lines: { level: 'warn' | 'debug'; msg: string }[] = [];
  const log =
    (level: 'warn' | 'debug') =>
    (a: unknown, b?: unknown): void => {
      lines.push({ level, msg: typeof a === 'string' ? a : String(b) });
    };
  return { lines, logger: { warn: log('warn'), debug: log('debug') } as never };
}

/** An embedder whose model loads until `finish` is called (or fails with `fail`), and that honours the signal. */
function slowEmbedder() {
  let finish!: () => void;
  let fail!: (e: unknown) => void;
  const loaded = new Promise<void>((res, rej) => ((finish = res), (fail = rej)));
  let seen: EmbedOptions | undefined;
  const embedder = {
    embed(_texts: readonly string[], opts: EmbedOptions = {}) {
      seen = opts;
      return new Promise<Float32Array[]>((resolve, reject) => {
        opts.signal?.addEventListener('abort', () => reject(opts.signal!.reason as unknown), { once: true });
        loaded.then(() => resolve([new Float32Array(4)]), reject);
      });
    },
  };
  return { embedder, finish, fail, seen: () => seen };
}

describe('warmUpEmbedder', () => {
  it('loads the model in the background and says so at debug', async () => {
    const { lines, logger } = recorder();
    const slow = slowEmbedder();
    const w = warmUpEmbedder(slow.embedder, logger);
    expect(slow.seen()?.priority).toBe('background');
    slow.finish();
    await w.done;
    expect(lines).toEqual([{ level: 'debug', msg: 'embedding model loaded' }]);
  });

  it('warns when the model fails to load', async () => {
    const { lines, logger } = recorder();
    const slow = slowEmbedder();
    const w = warmUpEmbedder(slow.embedder, logger);
    slow.fail(new EngramError('ADAPTER', 'use-lite model failed to load'));
    await w.done;
    expect(lines).toEqual([{ level: 'warn', msg: 'embedding model failed to load' }]);
  });

  it('logs no failure when shutdown stops it mid-load, even if the closed embedder then fails the load', async () => {
    const { lines, logger } = recorder();
    const slow = slowEmbedder();
    const w = warmUpEmbedder(slow.embedder, logger);
    w.stop();
    await w.done;
    slow.fail(new EngramError('UNAVAILABLE', 'embedder is closed'));
    await new Promise((r) => setTimeout(r, 0));
    expect(lines).toEqual([{ level: 'debug', msg: 'embedding model load left off: shutting down' }]);
    expect(lines.some((l) => l.level === 'warn')).toBe(false);
  });
});
