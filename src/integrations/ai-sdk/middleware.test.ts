import { generateText, stepCountIs, streamText, tool, wrapLanguageModel } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Memory } from '../../memory.js';
import { tempMemory, type TempMemory } from '../memory.test-support.js';
import { engramMiddleware } from './middleware.js';
import { scriptedModel, streamingModel, systemText, textResult, toolCallResult } from './mock.test-support.js';
import { CONTEXT_HEADER, lastUserText, withContext } from './prompt.js';

let tm: TempMemory;
let memory: Memory;
beforeAll(async () => {
  tm = tempMemory('ai-mw');
  memory = await tm.open();
});
afterAll(async () => tm.cleanup());

describe('prompt helpers', () => {
  it('reads the last user text and places context after the leading system messages', () => {
    const prompt = [
      { role: 'system' as const, content: 'You are terse.' },
      { role: 'user' as const, content: [{ type: 'text' as const, text: 'first' }] },
      { role: 'assistant' as const, content: [{ type: 'text' as const, text: 'ok' }] },
      { role: 'user' as const, content: [{ type: 'text' as const, text: 'second' }, { type: 'text' as const, text: 'part' }] },
    ];
    expect(lastUserText(prompt)).toBe('second\npart');
    const next = withContext(prompt, 'CTX');
    expect(next.map((m) => m.role)).toEqual(['system', 'system', 'user', 'assistant', 'user']);
    expect(next[1]).toEqual({ role: 'system', content: `${CONTEXT_HEADER}\nCTX` });
    expect(lastUserText([{ role: 'system', content: 'x' }])).toBeUndefined();
  });
});

describe('engramMiddleware', () => {
  it('injects getContext into the prompt the model receives and logs the exchange with its retrieval', async () => {
    await memory.remember({ userId: 'u-ctx', text: 'The user cooks vegetarian food and avoids fish', kind: 'preference' });
    await memory.flush({ learn: false });
    const model = scriptedModel(textResult('How about a mushroom risotto?'));
    const { text } = await generateText({
      model: wrapLanguageModel({ model, middleware: engramMiddleware({ memory, userId: 'u-ctx' }) }),
      system: 'You suggest dinners.',
      prompt: 'What should I cook tonight? Any food ideas?',
    });
    expect(text).toBe('How about a mushroom risotto?');
    const received = model.doGenerateCalls[0]!.prompt;
    expect(received[0]).toEqual({ role: 'system', content: 'You suggest dinners.' });
    expect(systemText(received)).toContain('vegetarian');
    const events = await memory.fetchEvents({ userId: 'u-ctx' });
    expect(events.map((e) => [e.actor, e.content])).toEqual([
      ['user', 'What should I cook tonight? Any food ideas?'],
      ['agent', 'How about a mushroom risotto?'],
    ]);
    expect(String(events[1]!.metadata['retrieval_id'])).toMatch(/^ret_/);
  });

  it('logs a streamed reply once the stream is read, and the tool calls a reply makes', async () => {
    const model = streamingModel(['Lisbon ', 'is ', 'sunny.']);
    const result = streamText({ model: wrapLanguageModel({ model, middleware: engramMiddleware({ memory, userId: 'u-stream' }) }), prompt: 'Weather in Lisbon?' });
    expect(await result.text).toBe('Lisbon is sunny.');
    const events = await memory.fetchEvents({ userId: 'u-stream' });
    expect(events.map((e) => e.content)).toEqual(['Weather in Lisbon?', 'Lisbon is sunny.']);

    const withTool = scriptedModel({
      ...textResult(''),
      content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'lookup', input: '{"city":"Porto"}' }],
    });
    await generateText({ model: wrapLanguageModel({ model: withTool, middleware: engramMiddleware({ memory, userId: 'u-tool' }) }), prompt: 'Find Porto' });
    const toolEvents = await memory.fetchEvents({ userId: 'u-tool', types: ['tool_call'] });
    expect(toolEvents.map((e) => [e.tool, e.args])).toEqual([['lookup', { city: 'Porto' }]]);
  });

  it('logs a tool loop as one turn: the user once, then each tool call, its result and the answer', async () => {
    const lookup = tool({ description: 'Weather', inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => ({ city, sky: 'clear' }) });
    const model = scriptedModel(toolCallResult('lookup', { city: 'Faro' }), textResult('Clear skies in Faro.'));
    const { text } = await generateText({
      model: wrapLanguageModel({ model, middleware: engramMiddleware({ memory, userId: 'u-loop' }) }),
      tools: { lookup },
      prompt: 'Weather in Faro?',
      stopWhen: stepCountIs(3),
    });
    expect(text).toBe('Clear skies in Faro.');
    expect(model.doGenerateCalls).toHaveLength(2);
    const events = await memory.fetchEvents({ userId: 'u-loop' });
    expect(events.map((e) => [e.type, e.actor, e.tool ?? null])).toEqual([
      ['message', 'user', null],
      ['tool_call', 'agent', 'lookup'],
      ['tool_result', 'tool', 'lookup'],
      ['message', 'agent', null],
    ]);
    expect(events[2]!.result).toEqual({ city: 'Faro', sky: 'clear' });
  });

  it('keeps users apart: one user\'s memory never reaches another\'s prompt', async () => {
    await generateText({ model: wrapLanguageModel({ model: scriptedModel(textResult('Noted.')), middleware: engramMiddleware({ memory, userId: 'u-a' }) }), prompt: 'My locker code is 4417.' });
    await memory.flush({ learn: false });
    const other = scriptedModel(textResult('?'));
    await generateText({ model: wrapLanguageModel({ model: other, middleware: engramMiddleware({ memory, userId: 'u-b' }) }), prompt: 'What is my locker code?' });
    expect(systemText(other.doGenerateCalls[0]!.prompt)).not.toContain('4417');
    const same = scriptedModel(textResult('4417'));
    await generateText({ model: wrapLanguageModel({ model: same, middleware: engramMiddleware({ memory, userId: 'u-a' }) }), prompt: 'What is my locker code?' });
    expect(systemText(same.doGenerateCalls[0]!.prompt)).toContain('4417');
  });

  it('can only log (inject: false) or only inject (log: false)', async () => {
    await memory.remember({ userId: 'u-opt', text: 'The user plays the cello' });
    await memory.flush({ learn: false });
    const quiet = scriptedModel(textResult('ok'));
    await generateText({ model: wrapLanguageModel({ model: quiet, middleware: engramMiddleware({ memory, userId: 'u-opt', inject: false }) }), prompt: 'Which instrument do I play?' });
    expect(systemText(quiet.doGenerateCalls[0]!.prompt)).toBe('');
    expect(await memory.fetchEvents({ userId: 'u-opt' })).toHaveLength(2);
    const noLog = scriptedModel(textResult('The cello.'));
    await generateText({ model: wrapLanguageModel({ model: noLog, middleware: engramMiddleware({ memory, userId: 'u-opt', log: false }) }), prompt: 'Which instrument do I play?' });
    expect(systemText(noLog.doGenerateCalls[0]!.prompt)).toContain('cello');
    expect(await memory.fetchEvents({ userId: 'u-opt' })).toHaveLength(2);
  });

  it('fails the call when memory fails, unless onError takes the error', async () => {
    const broken = await tm.open();
    await broken.close();
    const errors: unknown[] = [];
    const model = scriptedModel(textResult('still here'));
    const { text } = await generateText({ model: wrapLanguageModel({ model, middleware: engramMiddleware({ memory: broken, onError: (e) => errors.push(e) }) }), prompt: 'hello' });
    expect(text).toBe('still here');
    expect(errors.length).toBe(2); // the context read and the log write
    await expect(generateText({ model: wrapLanguageModel({ model: scriptedModel(textResult('x')), middleware: engramMiddleware({ memory: broken }) }), prompt: 'hello', maxRetries: 0 })).rejects.toThrow();
  });
});
