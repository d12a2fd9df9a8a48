/**
 * Two real processes (`testing/redis-child.ts`), one SQLite file, one Redis: each sees the other's writes at
 * once through its own cache, and concurrent writers lose nothing.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adminClient, dropPrefix, REDIS_URL, requireRedis, testPrefix } from '../../../testing/redis-server.js';
import type { CacheStats } from './health.js';
import { nodeArgs } from '../../../testing/node-entry.js';

const CHILD = resolve(import.meta.dirname, '../../../testing/redis-child.ts');

type Reply = { ok: boolean; error?: string; [k: string]: unknown };

interface Child {
  call<R = Reply>(cmd: Record<string, unknown>): Promise<R>;
  stats(): Promise<CacheStats>;
  close(): Promise<void>;
}

function startChild(path: string, keyPrefix: string): Child {
  const proc = spawn(process.execPath, [...nodeArgs(CHILD), path, REDIS_URL, keyPrefix], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const waiting: ((r: Reply) => void)[] = [];
  createInterface({ input: proc.stdout }).on('line', (line) => waiting.shift()?.(JSON.parse(line) as Reply));
  const exited = new Promise<void>((r) => proc.on('exit', () => r()));
  const call = async <R,>(cmd: Record<string, unknown>): Promise<R> => {
    const reply = new Promise<Reply>((ok, fail) => {
      waiting.push(ok);
      void exited.then(() => fail(new Error(`child exited: ${stderr}`)));
    });
    proc.stdin.write(`${JSON.stringify(cmd)}\n`);
    const r = await reply;
    if (!r.ok) throw new Error(`${String(cmd.op)} failed in the child: ${r.error}`);
    return r as R;
  };
  return {
    call,
    stats: async () => (await call<{ stats: CacheStats }>({ op: 'stats' })).stats,
    async close() {
      if (proc.exitCode === null) {
        await call({ op: 'close' }).catch(() => undefined);
        await exited;
      }
    },
  };
}

const { skip } = await requireRedis('redis hot tier: two processes');

describe.skipIf(skip)('two processes on one database and one Redis', () => {
  let dir: string;
  let keyPrefix: string;
  let p1: Child;
  let p2: Child;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-cache-mp-'));
    keyPrefix = testPrefix();
    p1 = startChild(join(dir, 'engram.db'), keyPrefix);
    p2 = startChild(join(dir, 'engram.db'), keyPrefix);
  });
  afterEach(async () => {
    await Promise.all([p1.close(), p2.close()]);
    const admin = adminClient();
    await dropPrefix(admin, keyPrefix).finally(() => admin.disconnect());
    rmSync(dir, { recursive: true, force: true });
  });

  const contents = async (p: Child, lastN = 5) => (await p.call<{ contents: string[] }>({ op: 'window', lastN })).contents;

  it("each sees the other's writes immediately, though its own cache was warm", async () => {
    await p1.call({ op: 'append', content: 'hello from p1' });
    expect(await contents(p2)).toEqual(['hello from p1']);
    const hits = (await p2.stats()).hits;
    expect(await contents(p2)).toEqual(['hello from p1']);
    expect((await p2.stats()).hits).toBe(hits + 1);

    await p1.call({ op: 'append', content: 'second from p1' });
    expect(await contents(p2)).toEqual(['hello from p1', 'second from p1']);

    await p2.call({ op: 'putFact', key: 'fact_01ARZ3NDEKTSV4RRFFQ69G5FAV', text: 'the office closes at 6pm' });
    expect(await p1.call({ op: 'liveFact', key: 'fact_01ARZ3NDEKTSV4RRFFQ69G5FAV' })).toMatchObject({ text: 'the office closes at 6pm' });
    expect(await p1.call({ op: 'liveFact', key: 'fact_01ARZ3NDEKTSV4RRFFQ69G5FAV' })).toMatchObject({ text: 'the office closes at 6pm' });
    await p2.call({ op: 'putFact', key: 'fact_01ARZ3NDEKTSV4RRFFQ69G5FAV', text: 'the office closes at 7pm' });
    expect(await p1.call({ op: 'liveFact', key: 'fact_01ARZ3NDEKTSV4RRFFQ69G5FAV' })).toMatchObject({ text: 'the office closes at 7pm' });

    await p1.call({ op: 'putWm', n: 1, expected: 0 });
    expect(await p2.call({ op: 'getWm' })).toMatchObject({ version: 1, state: { n: 1 } });
    expect(await p2.call({ op: 'getWm' })).toMatchObject({ version: 1 });
    await p1.call({ op: 'putWm', n: 2, expected: 1 });
    expect(await p2.call({ op: 'getWm' })).toMatchObject({ version: 2, state: { n: 2 } });

    const { ids } = await p2.call<{ ids: string[] }>({ op: 'window', lastN: 1 });
    await p2.call({ op: 'forget', ids });
    expect(await contents(p1)).toEqual(['hello from p1']);
    expect((await p1.stats()).errors).toBe(0);
  });

  it('concurrent writers in both processes lose nothing, and both see every write', async () => {
    await contents(p1, 200);
    await contents(p2, 200);
    const [r1, r2] = await Promise.all([
      p1.call<{ ids: string[] }>({ op: 'appendMany', n: 40, label: 'p1' }),
      p2.call<{ ids: string[] }>({ op: 'appendMany', n: 40, label: 'p2' }),
    ]);
    const all = [...r1.ids, ...r2.ids].sort();
    for (const p of [p1, p2]) {
      const seen = (await p.call<{ ids: string[] }>({ op: 'window', lastN: 200 })).ids;
      expect([...seen].sort()).toEqual(all);
    }
    // The cache was in use all along, not bypassed.
    const s = await p1.stats();
    expect(s.bypasses).toBe(0);
    expect(s.errors).toBe(0);
  });
});
