/** `engram graph …` as a user runs it: state relations, then search and list them (JSON output). */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliArgs } from '../../../../testing/node-entry.js';

const root = join(import.meta.dirname, '../../../..');
const dir = mkdtempSync(join(tmpdir(), 'engram-graph-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function engram(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...cliArgs(), '--db', join(dir, 'g.db'), ...args], { cwd: root, timeout: 120_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr });
    });
  });
}

describe('engram graph', () => {
  it('relates, searches with direction, and lists relations of an entity', async () => {
    expect((await engram('graph', 'relate', 'Alice', 'manages', 'Bob')).code).toBe(0);
    const second = await engram('graph', 'relate', 'Carol', 'manages', 'Alice');
    expect(second.stdout.trim()).toBe('Related: Carol manages Alice');
    const found = await engram('--json', 'graph', 'search', "Who is Alice's manager?");
    expect(found.code, found.stderr).toBe(0);
    expect((JSON.parse(found.stdout) as { text: string }[])[0]!.text).toBe('Carol manages Alice');
    const inbound = await engram('graph', 'relations', '--entity', 'alice', '--direction', 'in');
    expect(inbound.stdout).toMatch(/^Carol manages Alice {2}\[rel_/);
    const bad = await engram('graph', 'relations', '--as-of', 'yesterday');
    expect(bad.code).toBe(2);
  }, 240_000);
});
