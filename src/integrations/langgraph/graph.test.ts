/**
 * A real LangGraph StateGraph, compiled with `store: new EngramStore(...)`, run twice over one SQLite file with
 * a fresh memory, store and graph each time: the second run answers from what the first one stored.
 * This runs examples/langgraph.ts, the example the docs show.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runOnce } from '../../../examples/langgraph.js';

const dir = mkdtempSync(join(tmpdir(), 'engram-lg-graph-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a LangGraph app on Engram', () => {
  it('remembers across two runs', async () => {
    const db = join(dir, 'app.db');
    expect(await runOnce(db, 'what is my favourite colour?')).toBe('I do not know yet.');
    expect(await runOnce(db, 'remember: my favourite colour is teal')).toBe('Noted: my favourite colour is teal');
    expect(await runOnce(db, 'remember: I work night shifts at the harbour')).toMatch(/^Noted/);
    expect(await runOnce(db, 'what is my favourite colour?')).toBe('You told me: my favourite colour is teal');
    expect(await runOnce(db, 'when do I work?')).toBe('You told me: I work night shifts at the harbour');
    // Another user's namespace holds nothing.
    expect(await runOnce(db, 'what is my favourite colour?', 'bo')).toBe('I do not know yet.');
  });
});
