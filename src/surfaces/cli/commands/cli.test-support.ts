/** Test support (not a test): runs the `engram` CLI on a database file as a user would, in a child process. */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { cliArgs } from '../../../../testing/node-entry.js';

const root = join(import.meta.dirname, '../../../..');

export function engram(db: string, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...cliArgs(), '--db', db, ...args], { cwd: root, timeout: 120_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}
