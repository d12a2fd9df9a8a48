import type { AgentInputItem } from '@openai/agents-core';
import { MemorySession } from '@openai/agents-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isEngramError } from '../../core/errors.js';
import type { Memory } from '../../memory.js';
import { tempMemory, type TempMemory } from '../memory.test-support.js';
import { EngramSession } from './session.js';

let tm: TempMemory;
let memory: Memory;
beforeAll(async () => {
  tm = tempMemory('oa-session');
  memory = await tm.open();
});
afterAll(async () => tm.cleanup());

const items: AgentInputItem[] = [
  { type: 'message', role: 'user', content: 'Where is order A-7?' },
  { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'It was a blue lamp.' }] },
  { type: 'function_call', callId: 'call_1', name: 'track_order', arguments: '{"order":"A-7"}', status: 'completed', id: 'fc_1' },
  { type: 'function_call_result', callId: 'call_1', name: 'track_order', status: 'completed', output: { type: 'text', text: 'A-7 is in Porto' } },
  { type: 'reasoning', content: [{ type: 'input_text', text: 'The user wants a date.' }] },
  { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'A-7 is in Porto.' }] },
];

describe('EngramSession', () => {
  it('round-trips every kind of item exactly, in order, like the SDK\'s MemorySession', async () => {
    const session = new EngramSession({ memory, sessionId: 's-roundtrip' });
    const reference = new MemorySession({ sessionId: 'ref' });
    await session.addItems(items.slice(0, 3));
    await session.addItems(items.slice(3));
    await reference.addItems(items);
    expect(await session.getSessionId()).toBe('s-roundtrip');
    expect(await session.getItems()).toEqual(await reference.getItems());
    expect(await session.getItems()).toEqual(items);
    expect(await session.getItems(2)).toEqual(await reference.getItems(2));
    expect(await session.getItems(0)).toEqual([]);
    expect(await session.getItems(100)).toEqual(items);
  });

  it('puts the items on the timeline as readable events of the session', async () => {
    const session = new EngramSession({ memory, sessionId: 's-timeline', userId: 'ana' });
    await session.addItems(items);
    const events = await memory.fetchEvents({ sessionId: 's-timeline' });
    expect(events.map((e) => [e.type, e.actor, e.content, e.tool ?? null])).toEqual([
      ['message', 'user', 'Where is order A-7?', null],
      ['message', 'user', 'It was a blue lamp.', null],
      ['tool_call', 'agent', 'track_order({"order":"A-7"})', 'track_order'],
      ['tool_result', 'tool', 'A-7 is in Porto', 'track_order'],
      ['note', 'agent', 'The user wants a date.', null],
      ['message', 'agent', 'A-7 is in Porto.', null],
    ]);
    expect(events.every((e) => e.userId === 'ana')).toBe(true);
  });

  it('pops the latest item (forgotten, not hidden) and clears only its own session', async () => {
    const session = new EngramSession({ memory, sessionId: 's-pop' });
    const other = new EngramSession({ memory, sessionId: 's-other' });
    await session.addItems(items);
    await other.addItems(items.slice(0, 1));
    await memory.logEvent({ sessionId: 's-pop', content: 'a note logged by the app itself' });
    expect(await session.popItem()).toEqual(items[5]);
    expect(await session.popItem()).toEqual(items[4]);
    expect(await session.getItems()).toEqual(items.slice(0, 4));
    expect((await memory.fetchEvents({ sessionId: 's-pop' })).map((e) => e.content)).not.toContain('A-7 is in Porto.');
    await session.clearSession();
    expect(await session.getItems()).toEqual([]);
    expect(await session.popItem()).toBeUndefined();
    expect(await other.getItems()).toEqual(items.slice(0, 1));
    expect((await memory.fetchEvents({ sessionId: 's-pop' })).map((e) => e.content)).toEqual(['a note logged by the app itself']);
  });

  it('keeps sessions of different users and tenants apart, and survives a reopen', async () => {
    await new EngramSession({ memory, sessionId: 'shared-id', userId: 'u1' }).addItems(items.slice(0, 1));
    await new EngramSession({ memory, sessionId: 'shared-id', userId: 'u2' }).addItems(items.slice(1, 2));
    await new EngramSession({ memory, sessionId: 'shared-id', tenant: 't2' }).addItems(items.slice(2, 3));
    const reopened = await tm.open();
    expect(await new EngramSession({ memory: reopened, sessionId: 'shared-id', userId: 'u1' }).getItems()).toEqual(items.slice(0, 1));
    expect(await new EngramSession({ memory: reopened, sessionId: 'shared-id', userId: 'u2' }).getItems()).toEqual(items.slice(1, 2));
    expect(await new EngramSession({ memory: reopened, sessionId: 'shared-id', tenant: 't2' }).getItems()).toEqual(items.slice(2, 3));
    await reopened.close();
  });

  it('writes a batch all or nothing and rejects a bad session id', async () => {
    const session = new EngramSession({ memory, sessionId: 's-atomic' });
    const huge = { type: 'message', role: 'user', content: 'x'.repeat(70_000) } as AgentInputItem;
    const error = await session.addItems([items[0]!, huge]).catch((e: unknown) => e);
    expect(isEngramError(error, 'VALIDATION')).toBe(true);
    expect(await session.getItems()).toEqual([]);
    expect(() => new EngramSession({ memory, sessionId: ' ' })).toThrow(/sessionId/);
    expect(await new EngramSession({ memory }).getSessionId()).toMatch(/^[0-9a-f-]{36}$/);
  });
});
