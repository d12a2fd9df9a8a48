/** "Durable on ack": kill the process right after logEvent resolves; reopening the file finds the event. */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteStorage } from '../../src/adapters/storage/sqlite/index.js';
import { loaderArgs, runnableFile } from '../node-entry.js';

const dir = mkdtempSync(join(tmpdir(), 'engram-kill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const child = `
import { openMemory } from ${JSON.stringify(pathToFileURL(runnableFile('src/open.ts')).href)};
const m = await openMemory({ storage: { url: 'sqlite:' + process.env.ENGRAM_TEST_DB }, indexing: { background: false }, retention: { sweepIntervalMinutes: 0 }, embedder: { provider: 'use-lite', workers: 0, batchSize: 16 } });
for (let i = 0; ; i++) {
  const e = await m.logEvent({ taskId: 'crash', content: 'event number ' + i });
  process.stdout.write(e.id + '\\n');
}
`;

describe('durability', () => {
  it('every acknowledged event survives SIGKILL', async () => {
    const path = join(dir, 'kill.db');
    const proc = spawn(process.execPath, [...loaderArgs(), '--input-type=module', '-e', child], {
      cwd: join(import.meta.dirname, '../..'),
      env: { ...process.env, ENGRAM_TEST_DB: path },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const acked: string[] = [];
    await new Promise<void>((resolve, reject) => {
      let buf = '';
      proc.stdout.on('data', (d: Buffer) => {
        buf += d.toString();
        const lines = buf.split('\n');
        buf = lines.pop()!;
        acked.push(...lines.filter((l) => l.startsWith('evt_')));
        if (acked.length >= 200) {
          proc.kill('SIGKILL');
          resolve();
        }
      });
      proc.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`child exited ${code}`))));
    });
    await new Promise((r) => proc.once('close', r));
    const storage = await openSqliteStorage({ path });
    await storage.init({ embeddingModel: 'none', dimension: 8 });
    const found = await storage.getEvents('default', acked);
    await storage.close();
    expect(acked.length).toBeGreaterThanOrEqual(200);
    expect(found.map((e) => e.id)).toEqual(acked);
  }, 120_000);
});
