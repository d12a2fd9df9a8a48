/**
 * Every CLI command exits once its work is done, on every embedded store (a command that hangs fails here by
 * timeout, not by waiting forever), and commands that need no model never load it.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { cliArgs } from '../node-entry.js';

const ROOT = join(import.meta.dirname, '..', '..');
const HOOK = join(ROOT, 'testing', 'import-trace', 'register.mjs');
const dir = mkdtempSync(join(tmpdir(), 'engram-cli-exits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI; a command still running after `timeoutMs` is killed and reported with its signal. */
function engram(store: string, args: string[], opts: { trace?: boolean; timeoutMs?: number } = {}): Promise<Run> {
  const node = [...(opts.trace ? ['--import', HOOK] : []), ...cliArgs(), '--store', store, ...args];
  return new Promise((resolve) => {
    execFile(process.execPath, node, { cwd: ROOT, timeout: opts.timeoutMs ?? 90_000, killSignal: 'SIGKILL' }, (err, stdout, stderr) => {
      const e = err as (Error & { code?: number; signal?: NodeJS.Signals }) | null;
      resolve({ code: e ? (typeof e.code === 'number' ? e.code : null) : 0, signal: e?.signal ?? null, stdout, stderr });
    });
  });
}

const packagesLoaded = (r: Run) => new Set([...r.stderr.matchAll(/^engram-import-trace (\S+)$/gm)].map((m) => m[1]!));
/** The model's runtime (the weights package is read for its manifest alone, which costs no model load). */
const MODEL = ['@energetic-ai/embeddings', '@energetic-ai/core'];
/** Vectors stored in a SQLite store: only a process that ran the model can have written one. */
function storedVectors(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM embeddings').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

const jsonl = join(dir, 'in.jsonl');
writeFileSync(jsonl, ['{"record":"event","task_id":"T9","type":"message","content":"the nightly build failed on a flaky test"}', '{"record":"fact","text":"Flaky tests are quarantined, not retried.","source":"ci.md"}'].join('\n'));

const STORES = [
  { name: 'SQLite', url: `sqlite:${join(dir, 'exits.db')}` },
  { name: 'PGlite', url: `pglite:${join(dir, 'pglite')}` },
];

describe.each(STORES)('every command exits on $name', ({ url }) => {
  const commands: [string, string[]][] = [
    ['log', ['--json', 'log', '--task', 'T1', '--type', 'message', '--content', 'rollout paused at 2 of 6 replicas']],
    ['remember', ['--json', 'remember', '--key', 'k1', '--source', 'runbook.md', 'Resume a paused rollout only after the canary is green.']],
    ['events', ['--json', 'events', '--task', 'T1', '--last', '5']],
    ['search', ['--json', 'search', '--k', '2', 'paused rollout']],
    ['context', ['--json', 'context', '--task', 'T1', '--budget', '200', 'can the rollout resume?']],
    ['import', ['--json', 'import', '--no-progress', jsonl]],
    ['export', ['export']],
    ['keys create', ['--json', 'keys', 'create', '--tenant', 'acme', '--name', 'ci']],
    ['keys list', ['--json', 'keys', 'list']],
    ['forget', ['--json', 'forget', '--task', 'T9']],
    ['bad input', ['log', '--type', 'telepathy', '--content', 'x']],
  ];
  it.each(commands)('%s', async (name, args) => {
    const r = await engram(url, args);
    expect(r.signal, `${name} was still running: ${r.stderr}`).toBeNull();
    expect(r.code, r.stderr).toBe(name === 'bad input' ? 2 : 0);
  }, 120_000);
});

describe('commands that need no model never load it', () => {
  const file = join(dir, 'model.db');
  const url = `sqlite:${file}`;
  it('log and events read and write rows without the embedding model; search loads it', async () => {
    const log = await engram(url, ['log', '--task', 'T2', '--type', 'message', '--content', 'the cache hit rate dropped to 12%'], { trace: true });
    const events = await engram(url, ['--json', 'events', '--task', 'T2', '--last', '5'], { trace: true });
    for (const r of [log, events]) expect(r.code, r.stderr).toBe(0);
    expect(MODEL.filter((p) => packagesLoaded(log).has(p) || packagesLoaded(events).has(p))).toEqual([]);
    expect(JSON.parse(events.stdout)).toHaveLength(1);
    expect(storedVectors(file)).toBe(0);
    // The next process that searches embeds what was written before it reads (a positive control as well).
    const search = await engram(url, ['--json', 'search', '--k', '1', 'cache hit rate']);
    expect(search.code, search.stderr).toBe(0);
    expect(storedVectors(file)).toBeGreaterThan(0);
    const hits = JSON.parse(search.stdout) as { doc: { text: string }; scores: { vector: number } }[];
    expect(hits[0]!.doc.text).toContain('cache hit rate');
    expect(hits[0]!.scores.vector).toBeGreaterThan(0);
  }, 180_000);
});
