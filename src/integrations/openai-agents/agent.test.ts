/**
 * An Agents SDK app (examples/openai-agents.ts, the example the docs show) run twice through the SDK's own
 * `run()`, with a fake model (no key, no network), over one SQLite file with a fresh memory each run: the
 * second run's model input starts with the first run's items, tool call and result included.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentInputItem } from '@openai/agents-core';
import { afterAll, describe, expect, it } from 'vitest';
import { askOnce, StandInModel } from '../../../examples/openai-agents.js';

const dir = mkdtempSync(join(tmpdir(), 'engram-oa-app-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const inputOf = (m: StandInModel, i: number) => m.requests[i]!.input as AgentInputItem[];

describe('an Agents SDK app on Engram', () => {
  it('remembers across two runs with the same session id', async () => {
    const db = join(dir, 'app.db');
    const first = new StandInModel();
    expect(await askOnce(db, 'support-42', 'My order number is A-1042. Where is it?', first)).toBe('Update: A-1042 left the warehouse in Porto today');
    // Run 1: the model was called twice (tool call, then answer); its first input held only the new message.
    expect(first.requests).toHaveLength(2);
    expect(inputOf(first, 0)).toHaveLength(1);
    const run1Items = inputOf(first, 1);
    expect(run1Items.map((i) => i.type)).toEqual(['message', 'function_call', 'function_call_result']);

    const second = new StandInModel();
    expect(await askOnce(db, 'support-42', 'And when will it arrive?', second)).toBe('Update: A-1042 left the warehouse in Porto today');
    const seen = inputOf(second, 0);
    // Everything run 1 said and did, exactly, then the final answer of run 1, then the new message.
    expect(seen.slice(0, 3)).toEqual(run1Items);
    expect(seen[3]).toMatchObject({ type: 'message', role: 'assistant' });
    expect(seen[4]).toMatchObject({ role: 'user', content: 'And when will it arrive?' });
    expect(seen).toHaveLength(5);

    const stranger = new StandInModel();
    expect(await askOnce(db, 'support-77', 'And when will it arrive?', stranger)).toBe('Which order do you mean?');
    expect(inputOf(stranger, 0)).toHaveLength(1);
  });
});
