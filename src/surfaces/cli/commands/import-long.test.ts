/**
 * `engram import` of a transcript with a turn over the content limit (32,768 characters), as a user runs it: the
 * process exits either way — 2 with a VALIDATION error naming the line and nothing written, or 0 with the turn
 * imported as consecutive parts under `--chunk-long`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { engram } from './cli.test-support.js';

const dir = mkdtempSync(join(tmpdir(), 'engram-import-long-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));


const sentence = (i: number) => `Step ${i} of the migration moved table number ${i} to the new cluster without downtime. `;
const long = Array.from({ length: 420 }, (_, i) => sentence(i)).join('');
const file = join(dir, 'long.jsonl');
writeFileSync(
  file,
  [
    JSON.stringify({ record: 'event', type: 'message', name: 'user', session_id: 's1', content: 'How did the migration go?' }),
    JSON.stringify({ record: 'event', type: 'message', name: 'assistant', session_id: 's1', content: long }),
  ].join('\n'),
);

describe('engram import of an over-long turn', () => {
  it('is rejected with a typed error, writes nothing, and the process exits 2', async () => {
    expect(long.length).toBeGreaterThan(32_768);
    const db = join(dir, 'reject.db');
    const r = await engram(db, '--json', 'import', file, '--no-progress');
    expect(r.code).toBe(2);
    const err = (JSON.parse(r.stderr.trim().split('\n').at(-1)!) as { error: { code: string; message: string } }).error;
    expect(err.code).toBe('VALIDATION');
    expect(err.message).toContain('line 2');
    const list = await engram(db, '--json', 'events', '--limit', '10');
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toHaveLength(0);
  }, 120_000);

  it('with --chunk-long is imported as parts that each fit, and the process exits 0', async () => {
    const db = join(dir, 'chunk.db');
    const r = await engram(db, '--json', 'import', file, '--no-progress', '--chunk-long');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { events: number; lines: number };
    expect(report.events).toBe(3);
    const list = await engram(db, '--json', 'events', '--limit', '10');
    const events = JSON.parse(list.stdout) as { content: string; metadata: { part?: number; parts?: number } }[];
    const parts = events.filter((e) => e.metadata.parts === 2);
    expect(parts.map((e) => e.metadata.part)).toEqual([1, 2]);
    for (const e of parts) expect(e.content.length).toBeLessThanOrEqual(32_768);
    expect(parts.map((e) => e.content).join(' ').replace(/\s+/g, ' ')).toBe(long.trim());
  }, 180_000);
});
