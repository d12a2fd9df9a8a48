/**
 * `engram serve` and `engram keys` as a user runs them: separate processes on one database file. The first
 * start prints an admin key once; SIGTERM/SIGINT drain and exit 0; keys made or revoked by the CLI take
 * effect on the running server.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { loadServeConfig } from '../config-file.js';
import { DEFAULT_PORT } from './serve.js';
import { cliArgs } from '../../../../testing/node-entry.js';

const run = promisify(execFile);
const root = join(import.meta.dirname, '../../../..');
const dir = mkdtempSync(join(tmpdir(), 'engram-serve-'));
const db = join(dir, 'serve.db');
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

interface Running {
  child: ChildProcess;
  url: string;
  /** Everything printed on stdout before the server said it was listening. */
  banner: string;
  stdout: () => string;
  exit: Promise<number | null>;
}

async function serve(on = db, level = 'info'): Promise<Running> {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: level };
  delete env.PORT;
  const child = spawn(process.execPath, [...cliArgs(), '--db', on, 'serve', '--port', '0'], { cwd: root, env });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString('utf8')));
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString('utf8')));
  // 'close', not 'exit': it fires once the child's output has been read to the end, so stdout() holds its last lines.
  const exit = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const check = () => {
      const m = /"url":"(http:\/\/127\.0\.0\.1:\d+)","msg":"listening"/.exec(out);
      if (m) resolve(m[1]!);
    };
    child.stdout!.on('data', check);
    void exit.then((code) => reject(new Error(`serve exited (${code}) before listening: ${err}`)));
  });
  return { child, url, banner: out.slice(0, out.indexOf('"msg":"listening"')), stdout: () => out, exit };
}

async function engram(...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [...cliArgs(), '--db', db, ...args], { cwd: root });
  return stdout;
}

const json = { 'content-type': 'application/json' };

describe('engram serve', () => {
  it('prints an admin key on first start only, serves it, drains on signals and exits 0; CLI keys act on the running server', async () => {
    const first = await serve();
    const adminKey = /^ {2}(egm_[A-Za-z0-9_-]{43})$/m.exec(first.banner)?.[1];
    expect(adminKey).toBeDefined();
    expect(first.stdout().match(/egm_[A-Za-z0-9_-]{43}/g)).toHaveLength(1);

    const created = await fetch(`${first.url}/admin/keys`, { method: 'POST', headers: { ...json, authorization: `Bearer ${adminKey}` }, body: JSON.stringify({ tenant: 'acme', name: 'bot' }) });
    expect(created.status).toBe(201);
    const tenantKey = ((await created.json()) as { key: string }).key;
    const logged = await fetch(`${first.url}/v1/events`, { method: 'POST', headers: { ...json, authorization: `Bearer ${tenantKey}` }, body: JSON.stringify({ content: 'served by engram serve' }) });
    expect(logged.status).toBe(201);

    first.child.kill('SIGTERM');
    expect(await first.exit).toBe(0);
    expect(first.stdout()).toContain('"msg":"shut down"');
    expect(first.stdout()).not.toContain('served by engram serve');

    // Keys made by the CLI, straight on the database.
    const made = JSON.parse(await engram('--json', 'keys', 'create', '--tenant', 'cli-tenant', '--name', 'script')) as { key: string; record: { id: string } };
    expect(made.key).toMatch(/^egm_/);
    const listed = JSON.parse(await engram('--json', 'keys', 'list')) as { id: string; role: string }[];
    expect(listed.map((k) => k.role).sort()).toEqual(['admin', 'tenant', 'tenant']);
    expect(JSON.stringify(listed)).not.toContain(made.key);

    const second = await serve();
    expect(second.banner).not.toMatch(/egm_/);
    const asCli = () => fetch(`${second.url}/v1/me`, { headers: { authorization: `Bearer ${made.key}` } });
    expect((await asCli()).status).toBe(200);
    const events = await fetch(`${second.url}/v1/events`, { headers: { authorization: `Bearer ${tenantKey}` } });
    expect(((await events.json()) as { events: { content: string }[] }).events.map((e) => e.content)).toEqual(['served by engram serve']);

    await engram('keys', 'revoke', made.record.id);
    expect((await asCli()).status).toBe(401);

    second.child.kill('SIGINT');
    expect(await second.exit).toBe(0);
  }, 120_000);

  it('shut down while the embedding model still loads: exits 0 and logs no failure, only that the load was left off', async () => {
    const s = await serve(join(dir, 'warm-up.db'), 'debug');
    // At once: the model takes seconds to load, the server listens well before.
    s.child.kill('SIGTERM');
    expect(await s.exit, s.stdout()).toBe(0);
    const lines = s
      .stdout()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { level: number; msg: string });
    expect(lines.map((l) => l.msg)).toContain('shut down');
    expect(lines.map((l) => l.msg)).toContain('embedding model load left off: shutting down');
    expect(lines.filter((l) => l.level >= 40)).toEqual([]);
  }, 120_000);

  it('takes the port from --port, else PORT, else the default', () => {
    const port = (flags: Record<string, unknown>, env: NodeJS.ProcessEnv) => loadServeConfig({ flags, env, cwd: dir }).config.server.port;
    expect(port({ server: { port: 9000 } }, { PORT: '7000' })).toBe(9000);
    expect(port({}, { PORT: '7000' })).toBe(7000);
    expect(port({}, {})).toBe(DEFAULT_PORT);
    expect(() => port({}, { PORT: 'eighty' })).toThrow(/server\.port/);
  });
});
