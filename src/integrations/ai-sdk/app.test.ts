/**
 * An AI SDK app (examples/ai-sdk.ts, the example the docs show) run twice over one SQLite file, each run with a
 * fresh memory and a fresh mock model: the prompt the second model receives carries what the user said in
 * the first run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chatOnce, standInModel } from '../../../examples/ai-sdk.js';
import { systemText } from './mock.test-support.js';

const dir = mkdtempSync(join(tmpdir(), 'engram-ai-app-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('an AI SDK app on Engram', () => {
  it('remembers across two runs', async () => {
    const db = join(dir, 'app.db');
    const first = standInModel();
    expect(await chatOnce(db, 'ana', 'I always want a window seat when I fly.', first)).toBe('I have no memory of you yet.');
    expect(systemText(first.doGenerateCalls[0]!.prompt)).not.toContain('window seat');

    const second = standInModel();
    const reply = await chatOnce(db, 'ana', 'Book me a flight to Lisbon on Friday.', second);
    expect(systemText(second.doGenerateCalls[0]!.prompt)).toContain('I always want a window seat when I fly.');
    expect(reply).toContain('window seat');

    const stranger = standInModel();
    await chatOnce(db, 'bo', 'Book me a flight to Lisbon on Friday.', stranger);
    expect(systemText(stranger.doGenerateCalls[0]!.prompt)).not.toContain('window seat');
  });
});
