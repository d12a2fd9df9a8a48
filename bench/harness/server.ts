/**
 * What the hardening harnesses share: an `engram serve` child process (the real CLI, as an operator runs it)
 * on a given store, its first-start admin key, a tenant key made through the public API, and a tiny JSON client.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { cliArgs } from '../../testing/node-entry.js';

const ROOT = resolve(import.meta.dirname, '../..');

export interface ServerChild {
  url: string;
  pid: number;
  /** Printed on the first start of a store only. */
  adminKey: string | undefined;
  child: ChildProcess;
  exited: Promise<number | null>;
  /** SIGTERM and wait (drain), or SIGKILL and wait. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts `engram --store STORE serve --port 0` with rate limits off (`nodeArgs`: options for node itself, e.g. V8's
 * heap flags); resolves once it listens.
 */
export async function startServer(store: string, opts: { timeoutMs?: number; env?: Record<string, string>; nodeArgs?: string[] } = {}): Promise<ServerChild> {
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), ...cliArgs(), '--store', store, 'serve', '--port', '0', '--rate-limit', '0'], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  let adminKey: string | undefined;
  const url = await new Promise<string>((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`server did not listen within ${opts.timeoutMs ?? 60_000} ms: ${stderr.slice(-500)}`)), opts.timeoutMs ?? 60_000);
    void exited.then((code) => {
      clearTimeout(timer);
      rej(new Error(`server exited (${code}) before listening: ${stderr.slice(-500)}`));
    });
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const key = /^\s+(egm_\S+)\s*$/.exec(line)?.[1];
      if (key) adminKey = key;
      if (line.startsWith('{') && line.includes('"listening"')) {
        clearTimeout(timer);
        res((JSON.parse(line) as { url: string }).url);
      }
    });
  });
  child.stdout!.resume();
  return {
    url,
    pid: child.pid!,
    adminKey,
    child,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

export interface Reply<T = unknown> {
  status: number;
  body: T;
  /** Status 0 only: why the call got no answer (connection refused or reset, …). */
  error?: string;
}

/** One JSON call; network failures (a killed server) come back as status 0. */
export async function call<T = unknown>(url: string, method: string, path: string, key?: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply<T>> {
  try {
    const res = await fetch(url + path, {
      method,
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // NDJSON or empty
    }
    return { status: res.status, body: parsed as T };
  } catch (e) {
    const cause = e instanceof Error && e.cause instanceof Error ? `: ${e.cause.message}` : '';
    return { status: 0, body: undefined as T, error: `${e instanceof Error ? e.message : String(e)}${cause}` };
  }
}

/** A tenant key, made with the admin key through POST /admin/keys. */
export async function tenantKey(url: string, adminKey: string, tenant: string): Promise<string> {
  const r = await call<{ key: string }>(url, 'POST', '/admin/keys', adminKey, { tenant, name: 'harness' });
  if (r.status !== 201) throw new Error(`could not create a tenant key: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.key;
}

/** Every event id of the key's tenant, by paging GET /v1/events. */
export async function allEventIds(url: string, key: string): Promise<string[]> {
  const ids: string[] = [];
  let after = 0;
  for (;;) {
    const r = await call<{ events: { id: string; seq: number }[] }>(url, 'GET', `/v1/events?limit=10000&after_seq=${after}`, key);
    if (r.status !== 200) throw new Error(`listing events failed: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
    ids.push(...r.body.events.map((e) => e.id));
    if (r.body.events.length < 10000) return ids;
    after = r.body.events.at(-1)!.seq;
  }
}

/** Resident set size of a process in MB (Linux /proc). */
export async function rssMb(pid: number): Promise<number> {
  return (await residentMb(pid)).rss;
}

/**
 * Resident memory of a process in MB (Linux /proc), split as the kernel counts it: `anon` is the process's own
 * memory (JS heaps, native allocations, the model's weights); `file` is file pages mapped into it — for a
 * SQLite store, the database pages read through its memory map, which the kernel can drop at any time.
 */
export async function residentMb(pid: number): Promise<{ rss: number; anon: number; file: number }> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const mb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN) / 1024;
  return { rss: mb('VmRSS'), anon: mb('RssAnon'), file: mb('RssFile') + mb('RssShmem') };
}
