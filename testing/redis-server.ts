/**
 * Redis for the hot-tier tests: the shared server on loopback (`ENGRAM_TEST_REDIS_URL`, default
 * redis://127.0.0.1:6379, started by `.ci/services.sh`), per-test key prefixes that are dropped afterwards,
 * and a dedicated redis-server the restart tests may kill without disturbing other test files.
 * A missing server fails the run under CI=true and skips locally, saying why; it never passes silently.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';

export const REDIS_URL = process.env.ENGRAM_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const isCi = (): boolean => process.env.CI === 'true' || process.env.CI === '1';

/** Undefined when the server answers PING; otherwise why not. */
export async function redisUnavailable(url = REDIS_URL): Promise<string | undefined> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 2000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG' ? undefined : 'no PONG';
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  } finally {
    client.disconnect();
  }
}

function decide(message: string): { skip: boolean } {
  if (isCi()) throw new Error(`${message}; CI needs it (run .ci/services.sh, or set ENGRAM_TEST_REDIS_URL)`);
  console.warn(`${message}; skipping these tests locally`);
  return { skip: true };
}

/** Decides at collection time whether tests on the shared server run (throws under CI when it is missing). */
export async function requireRedis(what: string): Promise<{ skip: boolean }> {
  const reason = await redisUnavailable();
  return reason === undefined ? { skip: false } : decide(`${what}: Redis at ${REDIS_URL} is not reachable (${reason})`);
}

/** A key prefix no other test uses. */
export function testPrefix(): string {
  return `engram-test:${process.pid}:${randomBytes(6).toString('hex')}:`;
}

/** A plain client for inspecting and cleaning up keys. */
export function adminClient(url = REDIS_URL): Redis {
  const client = new Redis(url, { maxRetriesPerRequest: 1 });
  client.on('error', () => undefined);
  return client;
}

export async function keysWithPrefix(client: Redis, prefix: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    found.push(...keys);
    cursor = next;
  } while (cursor !== '0');
  return found;
}

export async function dropPrefix(client: Redis, prefix: string): Promise<void> {
  const keys = await keysWithPrefix(client, prefix);
  if (keys.length > 0) await client.unlink(...keys);
}

/** Resolves once `check` is true, polling; rejects after `timeoutMs` (a wait for an event, not a speed test). */
export async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.on('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? ok(addr.port) : fail(new Error('no port'))));
    });
  });
}

/**
 * A redis-server of its own, started with `.ci/services.sh`'s settings (loopback, no RDB, no AOF: it keeps
 * nothing on disk, so a restart comes back empty) on a free port, in the foreground so the test owns it.
 */
export interface DedicatedRedis {
  readonly url: string;
  /** The server's own pid, as it reports it (INFO server). */
  pid(): Promise<number>;
  /** Kills the server (SIGKILL: a crash, not a shutdown) and waits until it is gone. */
  kill(): Promise<void>;
  /** Starts it again with the same command line and waits until it answers. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function requireRedisBinary(what: string): Promise<{ skip: boolean }> {
  const ok = await new Promise<boolean>((resolve) => {
    const p = spawn('redis-server', ['--version'], { stdio: 'ignore' });
    p.on('error', () => resolve(false));
    p.on('exit', (code) => resolve(code === 0));
  });
  return ok ? { skip: false } : decide(`${what}: no redis-server binary on PATH`);
}

export async function startDedicatedRedis(): Promise<DedicatedRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'engram-redis-'));
  const url = `redis://127.0.0.1:${port}`;
  const args = ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no'];
  let child: ChildProcess | undefined;

  const start = async (): Promise<void> => {
    child = spawn('redis-server', args, { stdio: 'ignore' });
    await waitFor(`redis-server on port ${port}`, async () => (await redisUnavailable(url)) === undefined);
  };
  const exited = (c: ChildProcess): Promise<void> =>
    c.exitCode !== null || c.signalCode !== null ? Promise.resolve() : new Promise((r) => c.once('exit', () => r()));

  await start();
  const admin = async <T>(f: (c: Redis) => Promise<T>): Promise<T> => {
    const c = new Redis(url, { maxRetriesPerRequest: 0, retryStrategy: () => null });
    c.on('error', () => undefined);
    try {
      return await f(c);
    } finally {
      c.disconnect();
    }
  };
  const pid = (): Promise<number> => admin(async (c) => Number(/process_id:(\d+)/.exec(await c.info('server'))![1]));
  return {
    url,
    pid,
    async kill() {
      const running = child!;
      process.kill(await pid(), 'SIGKILL');
      await exited(running);
    },
    restart: start,
    async stop() {
      if (child && child.exitCode === null && child.signalCode === null) {
        const running = child;
        running.kill('SIGKILL');
        await exited(running);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A TCP proxy in front of Redis, so a test can cut one client off (a network partition) while others still
 * reach the server and its data survives. While cut, connections are refused by closing them at once.
 */
export interface TcpProxy {
  readonly url: string;
  cut(): void;
  heal(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetUrl = REDIS_URL): Promise<TcpProxy> {
  const target = new URL(targetUrl);
  let open = true;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    if (!open) {
      client.destroy();
      return;
    }
    const upstream = connect(Number(target.port || 6379), target.hostname);
    const drop = (): void => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', drop);
      s.on('close', drop);
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  const port = await new Promise<number>((ok, fail) => {
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const addr = server.address();
      if (typeof addr === 'object' && addr) ok(addr.port);
      else fail(new Error('no port'));
    });
  });
  const cut = (): void => {
    open = false;
    for (const s of sockets) s.destroy();
    sockets.clear();
  };
  // The proxy's URL keeps everything of the target's but its address: the database number, user and password.
  const proxied = new URL(targetUrl);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(port);
  return {
    url: proxied.toString(),
    cut,
    heal: () => {
      open = true;
    },
    close: () =>
      new Promise<void>((r) => {
        cut();
        server.close(() => r());
      }),
  };
}
