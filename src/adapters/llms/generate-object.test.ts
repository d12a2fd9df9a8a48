import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EngramError } from '../../core/errors.js';
import type { Llm } from '../../ports/llm.js';
import { fakeOpenAi, type Script } from './fake-protocols.test-support.js';
import { generateObject, generateObjectOr, noModelAnswer } from './generate-object.js';
import { startLoopback, type Loopback } from './loopback.test-support.js';
import { createOpenAiCompatibleLlm } from './openai-compatible.js';

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** An Llm with only `complete` (no native structured output), talking to a real chat-completions server. */
async function plainLlm(script: Script): Promise<{ llm: Llm; lb: Loopback }> {
  server = await startLoopback(fakeOpenAi(script));
  const full = createOpenAiCompatibleLlm({ baseUrl: `${server.origin}/v1`, model: 'local-model' }, { backoff: { baseDelayMs: 1, maxDelayMs: 2 } });
  return { llm: { name: full.name, model: full.model, complete: (req) => full.complete(req) }, lb: server };
}

const verdict = z.object({ keep: z.boolean(), reason: z.string() });

describe('generateObject without a native mechanism', () => {
  it('puts the schema in the system prompt and reads JSON from a fenced reply', async () => {
    const { llm, lb } = await plainLlm(() => ({ say: 'Here you go:\n```json\n{"keep": true, "reason": "recent and relevant"}\n```' }));
    const out = await generateObject(llm, { schema: verdict, name: 'verdict', system: 'Judge memories.', prompt: 'Keep this one?' });

    expect(out).toEqual({ keep: true, reason: 'recent and relevant' });
    const body = lb.requests[0]!.body as { response_format?: unknown; messages: { role: string; content: string }[] };
    expect(body.response_format).toBeUndefined();
    const system = body.messages[0]!;
    expect(system.role).toBe('system');
    expect(system.content.startsWith('Judge memories.\n\n')).toBe(true);
    const schemaText = system.content.slice(system.content.indexOf('{'));
    expect(JSON.parse(schemaText)).toEqual({
      type: 'object',
      properties: { keep: { type: 'boolean' }, reason: { type: 'string' } },
      required: ['keep', 'reason'],
      additionalProperties: false,
    });
  });

  it('applies zod transforms and defaults to the validated reply', async () => {
    const schema = z.object({ score: z.number().transform((n) => Math.round(n * 10)), label: z.string().default('none') });
    const { llm } = await plainLlm(() => ({ say: '{"score": 0.72}' }));
    expect(await generateObject(llm, { schema, name: 'rating', prompt: 'rate' })).toEqual({ score: 7, label: 'none' });
  });

  it('reports wrapped-root issues under `value`', async () => {
    const { llm } = await plainLlm(() => ({ say: '{"value": [1, "two"]}' }));
    const e = await generateObject(llm, { schema: z.array(z.number()), name: 'nums', prompt: 'p' }).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(EngramError);
    expect((e as EngramError).code).toBe('LLM_OUTPUT');
    expect((e as EngramError).issues.map((i) => i.path)).toEqual(['value.1']);
  });

  it('sends an empty reply back as a visible placeholder so the re-ask stays well-formed', async () => {
    const { llm, lb } = await plainLlm((_b, i) => ({ say: i === 0 ? '' : '{"keep": false, "reason": "stale"}' }));
    const out = await generateObject(llm, { schema: verdict, name: 'verdict', prompt: 'p' });
    expect(out.keep).toBe(false);
    const messages = (lb.requests[1]!.body as { messages: { role: string; content: string }[] }).messages;
    expect(messages.find((m) => m.role === 'assistant')!.content).toBe('(empty reply)');
  });

  it('rejects a schema name the providers would refuse, before any call', async () => {
    const { llm, lb } = await plainLlm(() => ({ say: '{}' }));
    const e = await generateObject(llm, { schema: verdict, name: 'bad name!', prompt: 'p' }).catch((err: unknown) => err);
    expect((e as EngramError).code).toBe('VALIDATION');
    expect((e as EngramError).issues[0]!.path).toBe('name');
    expect(lb.requests).toHaveLength(0);
  });
});

describe('generateObjectOr', () => {
  /** An Llm whose every answer is `answer` (a reply text, or an error thrown). */
  const llmSaying = (answer: string | Error): Llm => ({
    name: 'fake',
    model: 'fake-model',
    complete: async () => {
      if (answer instanceof Error) throw answer;
      return { text: answer };
    },
  });
  const opts = { schema: verdict, name: 'verdict', prompt: 'Keep this one?' };
  const fallback = async () => 'fallback';

  it("hands the model's reply on, and falls back only when the model gives no usable answer", async () => {
    expect(await generateObjectOr(llmSaying('{"keep": true, "reason": "fine"}'), opts, (r) => r.reason, fallback)).toBe('fine');
    // Invalid output twice (LLM_OUTPUT), a provider failing (ADAPTER) or out of reach (UNAVAILABLE): the fallback.
    expect(await generateObjectOr(llmSaying('not json'), opts, (r) => r.reason, fallback)).toBe('fallback');
    for (const code of ['ADAPTER', 'UNAVAILABLE'] as const) {
      expect(noModelAnswer(new EngramError(code, 'down'))).toBe(true);
      expect(await generateObjectOr(llmSaying(new EngramError(code, 'down')), opts, (r) => r.reason, fallback)).toBe('fallback');
    }
    expect(noModelAnswer(new EngramError('VALIDATION', 'bad'))).toBe(false);
    expect(noModelAnswer(new Error('plain'))).toBe(false);
  });

  it('throws what is not a model failure, a model failure without a fallback, and an error of the reply handler', async () => {
    await expect(generateObjectOr(llmSaying(new EngramError('VALIDATION', 'bad')), opts, (r) => r.reason, fallback)).rejects.toMatchObject({ code: 'VALIDATION' });
    await expect(generateObjectOr(llmSaying(new EngramError('UNAVAILABLE', 'down')), opts, (r) => r.reason, undefined)).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    const failing = () => {
      throw new EngramError('LLM_OUTPUT', 'the handler');
    };
    await expect(generateObjectOr(llmSaying('{"keep": true, "reason": "fine"}'), opts, failing, fallback)).rejects.toThrow('the handler');
  });
});
