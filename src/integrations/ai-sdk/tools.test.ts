import { generateText, stepCountIs } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Memory } from '../../memory.js';
import { tempMemory, type TempMemory } from '../memory.test-support.js';
import { scriptedModel, textResult, toolCallResult } from './mock.test-support.js';
import { engramTools } from './tools.js';

let tm: TempMemory;
let memory: Memory;
beforeAll(async () => {
  tm = tempMemory('ai-tools');
  memory = await tm.open();
});
afterAll(async () => tm.cleanup());

const opts = { toolCallId: 't', messages: [], context: {} };

describe('engramTools', () => {
  it('lets the model remember through the SDK tool loop, then recall it', async () => {
    const tools = engramTools({ memory, userId: 'ana' });
    const model = scriptedModel(toolCallResult('remember', { text: 'Ana prefers aisle seats on long flights', kind: 'preference' }), textResult('Saved.'));
    const result = await generateText({ model, tools, prompt: 'Remember that I like aisle seats.', stopWhen: stepCountIs(3) });
    expect(result.text).toBe('Saved.');
    const output = result.steps[0]!.toolResults[0]!.output as { id: string; status: string };
    expect(output.status).toBe('created');
    const fact = await memory.getFact(output.id);
    expect(fact).toMatchObject({ userId: 'ana', kind: 'preference', source: 'ai-sdk' });

    await memory.flush({ learn: false });
    const hits = (await tools.recall.execute!({ query: 'which seat on a plane?' }, opts)) as { id: string; text: string }[];
    expect(hits[0]!.id).toBe(output.id);
    const otherUser = (await engramTools({ memory, userId: 'bo' }).recall.execute!({ query: 'which seat on a plane?' }, opts)) as unknown[];
    expect(otherUser).toEqual([]);
  });

  it('rejects input that breaks the tool schema before anything is written', async () => {
    const tools = engramTools({ memory, userId: 'val' });
    const model = scriptedModel(toolCallResult('remember', { text: '' }), textResult('done'));
    const result = await generateText({ model, tools, prompt: 'x', stopWhen: stepCountIs(3) });
    const parts = result.steps[0]!.content;
    expect(parts.some((p) => p.type === 'tool-error')).toBe(true);
    expect(await memory.storage.listFacts({ tenant: memory.config.defaultTenant, scope: { userId: 'val' }, now: Date.now() })).toEqual([]);
  });

  it('gives a context with a retrieval id, and records the outcome of that retrieval', async () => {
    const tools = engramTools({ memory, userId: 'ops' });
    await memory.remember({ userId: 'ops', text: 'Restarting the cache node fixes stale reads' });
    await memory.flush({ learn: false });
    const ctx = (await tools.context.execute!({ query: 'stale reads after deploy' }, opts)) as { retrieval_id: string; text: string; items: number };
    expect(ctx.retrieval_id).toMatch(/^ret_/);
    expect(ctx.text).toContain('Restarting the cache node');
    const report = (await tools.recordOutcome.execute!({ retrieval_id: ctx.retrieval_id, outcome: 'SUCCESS', details: 'restart worked' }, opts)) as {
      outcome: string;
      episode_id: string;
      facts_updated: number;
    };
    expect(report.outcome).toBe('SUCCESS');
    expect(report.facts_updated).toBeGreaterThan(0);
    const [episode] = await memory.learn.episodes({ outcomes: ['SUCCESS'] });
    expect(episode!.id).toBe(report.episode_id);
  });
});
