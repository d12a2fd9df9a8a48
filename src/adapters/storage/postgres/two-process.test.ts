/**
 * Two OS processes, each with its own storage on the same schema of the real PostgreSQL server: a write in one
 * is found by search in the other within a second, both ways (the change feed; no shared memory). Missing
 * server: fails under CI, skips locally.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { freshSchema } from '../../../../testing/postgres-pglite.js';
import { adminPool, requireServer, SERVER_URL } from '../../../../testing/postgres-server.js';
import { nodeArgs } from '../../../../testing/node-entry.js';

const { skip } = await requireServer('postgres two-process test');
const admin = skip ? undefined : adminPool();
afterAll(async () => admin?.end());

const CHILD = resolve(import.meta.dirname, '../../../../testing/storage-postgres-child.ts');

/** A child process holding a storage; `ask` sends one command and resolves with its answer. */
function startChild(schema: string): Promise<{ ask: (cmd: object) => Promise<Record<string, unknown>>; proc: ChildProcess }> {
  const proc = spawn(process.execPath, [...nodeArgs(CHILD), SERVER_URL, schema], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const waiting: ((v: Record<string, unknown>) => void)[] = [];
  let ready: (v: Record<string, unknown>) => void = () => undefined;
  const started = new Promise<Record<string, unknown>>((ok, fail) => {
    ready = ok;
    proc.on('exit', (code) => fail(new Error(`child exited ${code}: ${stderr}`)));
  });
  createInterface({ input: proc.stdout! }).on('line', (line) => {
    const v = JSON.parse(line) as Record<string, unknown>;
    if (v.ready) ready(v);
    else waiting.shift()?.(v);
  });
  const ask = (cmd: object) =>
    new Promise<Record<string, unknown>>((ok) => {
      waiting.push(ok);
      proc.stdin!.write(`${JSON.stringify(cmd)}\n`);
    });
  return started.then(() => ({ ask, proc }));
}

describe.skipIf(skip)('postgres: two server processes on one schema', () => {
  it("each finds the other's writes by search within a second", async () => {
    const schema = freshSchema('two');
    const a = await startChild(schema);
    const b = await startChild(schema);
    const tenant = 'tenant-2p';
    const visibleWithin = async (reader: typeof a, text: string): Promise<number> => {
      const t0 = performance.now();
      while ((await reader.ask({ op: 'search', tenant, text })).hits !== 1) {
        if (performance.now() - t0 > 1000) break;
      }
      return performance.now() - t0;
    };
    try {
      await a.ask({ op: 'append', tenant, content: 'ordinary words only' });
      expect((await a.ask({ op: 'search', tenant, text: 'zebra' })).hits).toBe(0); // both load their indexes
      expect((await b.ask({ op: 'search', tenant, text: 'okapi' })).hits).toBe(0);
      await b.ask({ op: 'append', tenant, content: 'a zebra crossed the road' });
      expect(await visibleWithin(a, 'zebra')).toBeLessThan(1000);
      await a.ask({ op: 'append', tenant, content: 'an okapi in the forest' });
      expect(await visibleWithin(b, 'okapi')).toBeLessThan(1000);
      expect((await a.ask({ op: 'search', tenant, text: 'okapi' })).hits).toBe(1);
      expect((await b.ask({ op: 'search', tenant, text: 'zebra' })).hits).toBe(1);
    } finally {
      await Promise.all([a.ask({ op: 'close' }), b.ask({ op: 'close' })]);
      await admin!.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    }
  }, 60_000);
});
