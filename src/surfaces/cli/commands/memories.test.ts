/** `engram memories …`, `search` and `context` with scopes and time, as a user runs them (one process per command). */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliArgs } from '../../../../testing/node-entry.js';

const root = join(import.meta.dirname, '../../../..');
const dir = mkdtempSync(join(tmpdir(), 'engram-memories-cli-'));
const db = join(dir, 'engram.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function engram(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...cliArgs(), '--db', db, '--json', ...args], { cwd: root, timeout: 90_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr });
    });
  });
}
const json = async <T>(...args: string[]): Promise<T> => {
  const r = await engram(...args);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as T;
};

interface Fact {
  id: string;
  key: string;
  version: number;
  text: string;
}

describe('engram memories', () => {
  it('update, list, history and delete by id; search and context with a layered scope; known-at', async () => {
    const created = await json<{ fact: Fact }>('remember', 'Liam prefers aisle seats.', '--user', 'liam', '--kind', 'preference');
    const between = new Date().toISOString();
    const updated = await json<{ status: string; fact: Fact }>('memories', 'update', created.fact.id, 'Liam prefers window seats.');
    expect(updated).toMatchObject({ status: 'versioned', fact: { key: created.fact.key, version: 2 } });
    await json('remember', 'Mia prefers aisle seats.', '--user', 'mia');
    const page = await json<{ memories: Fact[]; next_cursor: string | null }>('memories', 'list', '--user', 'liam');
    expect(page.memories.map((f) => f.text)).toEqual(['Liam prefers window seats.']);
    expect(page.next_cursor).toBeNull();
    const history = await json<Fact[]>('memories', 'history', created.fact.id);
    expect(history.map((f) => f.text)).toEqual(['Liam prefers aisle seats.', 'Liam prefers window seats.']);
    const then = await json<Fact>('memories', 'get', updated.fact.id, '--known-at', between);
    expect(then.text).toBe('Liam prefers aisle seats.');

    const hits = await json<{ doc: { text: string; userId?: string }; layer: string }[]>('search', 'seat preference', '--user', 'liam', '--kind', 'fact', '--kind', 'event');
    expect(hits.some((h) => h.doc.userId === 'mia')).toBe(false);
    expect(hits.find((h) => h.doc.text === 'Liam prefers window seats.')?.layer).toBe('user');
    const ctx = await json<{ text: string }>('context', 'seat preference', '--user', 'liam');
    expect(ctx.text).toMatch(/window seats.*\[user · /);
    expect(ctx.text).not.toMatch(/Mia/);

    const deleted = await json<{ facts: number }>('memories', 'delete', created.fact.id);
    expect(deleted.facts).toBe(2);
    expect((await json<{ memories: Fact[] }>('memories', 'list', '--user', 'liam')).memories).toEqual([]);
    const missing = await engram('memories', 'delete', created.fact.id);
    expect(missing.code).not.toBe(0);
  }, 120_000);
});
