/** The CLI as a user runs it: separate processes on one database file. */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { cliArgs } from '../node-entry.js';

const run = promisify(execFile);
const root = join(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'engram-cli-'));
const db = join(dir, 'cli.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function engram(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [...cliArgs(), '--db', db, ...args], { cwd: root });
    return { stdout, stderr, code: 0 };
  } catch (e) {
    const err = e as { stdout: string; stderr: string; code: number };
    return { stdout: err.stdout, stderr: err.stderr, code: err.code };
  }
}

describe('engram CLI', () => {
  it('logs, remembers, searches and builds context across processes', async () => {
    const logged = await engram('--json', 'log', '--task', 'T1', '--type', 'tool_call', '--tool', 'kubectl', '--content', 'rollout status: 2 of 6 replicas available');
    expect(logged.code).toBe(0);
    expect(JSON.parse(logged.stdout).id).toMatch(/^evt_/);

    const remembered = await engram('--json', 'remember', '--source', 'runbook.md', '--section', 'rollback', 'Roll back a deployment when its progress deadline passes.');
    expect(JSON.parse(remembered.stdout).status).toBe('created');

    const search = await engram('--json', 'search', '--k', '1', '--kind', 'fact', 'what to do when a rollout is stuck');
    const hits = JSON.parse(search.stdout) as { doc: { source: string } }[];
    expect(hits[0]!.doc.source).toBe('runbook.md');

    const ctx = await engram('--json', 'context', '--task', 'T1', '--budget', '120', 'next safe step?');
    const parsed = JSON.parse(ctx.stdout) as { tokens: { used: number; budget: number }; items: { section: string }[] };
    expect(parsed.tokens.budget).toBe(120);
    expect(parsed.tokens.used).toBeLessThanOrEqual(120);
    expect(parsed.items.map((i) => i.section)).toContain('episodic_recent');

    const events = await engram('--json', 'events', '--task', 'T1', '--last', '5');
    expect(JSON.parse(events.stdout)).toHaveLength(1);
  }, 120_000);

  it('imports JSONL and exports it back', async () => {
    const file = join(dir, 'in.jsonl');
    writeFileSync(file, ['{"task_id":"deploy_2025_09_20","ts":"2025-09-20T18:22:10Z","type":"tool_call","tool":"kubectl","args":{"ns":"payments","action":"rollout status"},"result":{"ok":true,"msg":"Deployment available"}}', '{"record":"fact","text":"Refunds within 30 days are full.","source":"billing.md"}'].join('\n'));
    const imported = await engram('--json', 'import', file);
    expect(JSON.parse(imported.stdout)).toMatchObject({ events: 1, facts: 1 });
    const exported = await engram('export');
    const lines = exported.stdout.trim().split('\n').map((l) => JSON.parse(l) as { kind: string });
    expect(lines[0]).toMatchObject({ kind: 'header', format: 'engram-backup' });
    expect(lines.filter((r) => r.kind === 'fact').length).toBeGreaterThanOrEqual(2);

    // The backup restores into another database as the same records; a second restore writes nothing.
    const backup = join(dir, 'backup.jsonl');
    expect((await engram('export', '--out', backup)).code).toBe(0);
    const copy = join(dir, 'copy.db');
    const restored = await engram('--db', copy, '--json', 'import', backup);
    expect(JSON.parse(restored.stdout).records.event.written).toBeGreaterThanOrEqual(1);
    const again = await engram('--db', copy, 'import', backup);
    expect(again.stdout).toMatch(/restored nothing; \d+ already there/);
    const recordsOf = (text: string) => text.trim().split('\n').slice(1, -1);
    expect(recordsOf((await engram('--db', copy, 'export')).stdout)).toEqual(recordsOf(exported.stdout));
  }, 120_000);

  it('help texts list the global options and speak in users\' words', async () => {
    const keys = await engram('keys', 'create', '--help');
    expect(keys.stdout).toContain('--tenant <id>');
    for (const cmd of ['log', 'import', 'demo', 'remember', 'events']) {
      const help = await engram(cmd, '--help');
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('--db <path>');
      expect(help.stdout).not.toMatch(/seed[ -]?0/i);
    }
  }, 120_000);

  it('rejects bad input with a typed error and exit code 2', async () => {
    const bad = await engram('log', '--type', 'telepathy', '--content', 'x');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/VALIDATION/);
    const badFilter = await engram('search', '--filter', '{"tags":{"$near":1}}', 'x');
    expect(badFilter.code).toBe(2);
    expect(badFilter.stderr).toMatch(/filter\.tags\.\$near/);
  }, 60_000);

  it('has --help on every command', async () => {
    for (const cmd of ['log', 'remember', 'search', 'context', 'events', 'import', 'export', 'forget', 'demo']) {
      const help = await engram(cmd, '--help');
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(`Usage: engram ${cmd}`);
    }
  }, 120_000);
});
