/**
 * `engram consolidate` as a user runs it: what users said about themselves becomes facts, a changed single value a
 * new version.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { engram } from './cli.test-support.js';

const dir = mkdtempSync(join(tmpdir(), 'engram-consolidate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));


describe('engram consolidate', () => {
  it('distils stated facts and versions a move', { timeout: 300_000 }, async () => {
    const db = join(dir, 'e.db');
    const log = (content: string, ts: string) => engram(db, 'log', '--actor', 'user', '--user', 'u1', '--content', content, '--ts', ts);
    expect((await log('I live in Montreal.', '2026-01-01T10:00:00Z')).code).toBe(0);
    expect((await log('I moved to Toronto.', '2026-02-01T10:00:00Z')).code).toBe(0);
    const r = await engram(db, 'consolidate');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/2 facts distilled/);
    expect(r.stdout).toMatch(/created fct_\w+: The user lives in Montreal\./);
    expect(r.stdout).toMatch(/versioned fct_\w+: The user lives in Toronto\. \(supersedes fct_\w+\)/);
  });
});
