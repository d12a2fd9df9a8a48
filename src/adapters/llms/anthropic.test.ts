import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EngramError } from '../../core/errors.js';
import { rejection } from '../../core/errors.test-support.js';
import { createAnthropicLlm } from './anthropic.js';
import { fakeAnthropic, fakeTokens, type Script } from './fake-protocols.test-support.js';
import { generateObject } from './generate-object.js';
import type { LlmHttpOptions } from './http.js';
import { startLoopback, type Loopback } from './loopback.test-support.js';

const KEY = 'sk-ant-test-456';
const FAST: LlmHttpOptions = { backoff: { baseDelayMs: 1, maxDelayMs: 4 } };

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(script: Script): Promise<Loopback> {
  server = await startLoopback(fakeAnthropic(script, { apiKey: KEY }));
  return server;
}

function llmFor(lb: Loopback, extra: { timeoutMs?: number; maxRetries?: number; apiKey?: string } = {}, http: LlmHttpOptions = FAST) {
  return createAnthropicLlm({ baseUrl: lb.origin, model: 'claude-test', apiKey: KEY, ...extra }, http);
}

const fact = z.object({
  subject: z.string().min(1),
  predicate: z.string().min(1),
  value: z.string(),
  confidence: z.number().min(0).max(1),
});

describe('anthropic: plain completion', () => {
  it('posts to /v1/messages with the API headers, a top-level system and the default max_tokens', async () => {
    const lb = await serve(() => ({ say: 'The deploy failed.\n\nCause: a missing secret.' }));
    const llm = llmFor(lb);
    const res = await llm.complete({ system: 'Summarise.', messages: [{ role: 'user', content: 'log lines…' }], temperature: 0 });

    // Two text blocks in the reply, joined in order.
    expect(res.text).toBe('The deploy failed.\n\nCause: a missing secret.');
    const req = lb.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/messages');
    expect(req.headers['x-api-key']).toBe(KEY);
    expect(req.headers['anthropic-version']).toBe('2023-06-01');
    expect(req.headers.authorization).toBeUndefined();
    expect(req.body).toEqual({
      model: 'claude-test',
      max_tokens: 1024,
      system: 'Summarise.',
      messages: [{ role: 'user', content: 'log lines…' }],
      temperature: 0,
    });
    expect(res.usage).toEqual({ inputTokens: fakeTokens('Summarise.\nlog lines…'), outputTokens: fakeTokens(res.text) });
    expect(llm.name).toBe('anthropic');
  });

  it('lets a call override max_tokens', async () => {
    const lb = await serve(() => ({ say: 'ok' }));
    await llmFor(lb).complete({ messages: [{ role: 'user', content: 'hi' }], maxTokens: 50 });
    expect(lb.requests[0]!.body).toMatchObject({ max_tokens: 50 });
    expect(lb.requests[0]!.body).not.toHaveProperty('system');
  });

  it('requires an apiKey in the config', () => {
    let caught: unknown;
    try {
      createAnthropicLlm({ model: 'claude-test' } as Parameters<typeof createAnthropicLlm>[0]);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(EngramError);
    expect((caught as EngramError).issues.map((i) => i.path)).toEqual(['llm.apiKey']);
  });
});

describe('anthropic: structured output', () => {
  it('forces a single tool whose input_schema is the schema, and returns the tool input', async () => {
    const lb = await serve(() => ({ toolInput: { subject: 'api', predicate: 'rate_limit', value: '100/min', confidence: 0.9 } }));
    const out = await generateObject(llmFor(lb), {
      schema: fact,
      name: 'record_fact',
      description: 'Record one fact.',
      system: 'Extract facts.',
      prompt: 'The API allows 100 requests a minute.',
    });

    expect(out).toEqual({ subject: 'api', predicate: 'rate_limit', value: '100/min', confidence: 0.9 });
    const body = lb.requests[0]!.body as Record<string, unknown>;
    expect(body.tool_choice).toEqual({ type: 'tool', name: 'record_fact' });
    expect(body.system).toBe('Extract facts.');
    expect(body.tools).toEqual([
      {
        name: 'record_fact',
        description: 'Record one fact.',
        input_schema: {
          type: 'object',
          properties: {
            subject: { type: 'string', minLength: 1 },
            predicate: { type: 'string', minLength: 1 },
            value: { type: 'string' },
            confidence: { type: 'number', minimum: 0, maximum: 1 },
          },
          required: ['subject', 'predicate', 'value', 'confidence'],
          additionalProperties: false,
        },
      },
    ]);
  });

  it('wraps a non-object root in { value } and unwraps the reply', async () => {
    const lb = await serve(() => ({ toolInput: { value: ['alpha', 'beta'] } }));
    const out = await generateObject(llmFor(lb), { schema: z.array(z.string()).min(1), name: 'tags', prompt: 'tag it' });
    expect(out).toEqual(['alpha', 'beta']);
    const tool = (lb.requests[0]!.body as { tools: { input_schema: unknown }[] }).tools[0]!;
    expect(tool.input_schema).toEqual({
      type: 'object',
      properties: { value: { type: 'array', items: { type: 'string' }, minItems: 1 } },
      required: ['value'],
      additionalProperties: false,
    });
  });

  it('re-asks with the errors as alternating turns after invalid tool input, then succeeds', async () => {
    const bad = { subject: 'api', predicate: 'rate_limit', value: '100/min', confidence: 'high' };
    const lb = await serve((_b, i) => ({ toolInput: i === 0 ? bad : { ...bad, confidence: 0.8 } }));
    const out = await generateObject(llmFor(lb), { schema: fact, name: 'record_fact', prompt: 'The API allows 100 requests a minute.' });

    expect(out.confidence).toBe(0.8);
    expect(lb.requests).toHaveLength(2);
    const messages = (lb.requests[1]!.body as { messages: { role: string; content: string }[] }).messages;
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(JSON.parse(messages[1]!.content)).toEqual(bad);
    expect(messages[2]!.content).toContain('- confidence:');
  });

  it('treats a text reply without the tool call as invalid output', async () => {
    const lb = await serve((_b, i) =>
      i === 0 ? { say: 'I need more context before recording a fact.' } : { toolInput: { subject: 's', predicate: 'p', value: 'v', confidence: 0.5 } },
    );
    const out = await generateObject(llmFor(lb), { schema: fact, name: 'record_fact', prompt: 'p' });
    expect(out.subject).toBe('s');
    const messages = (lb.requests[1]!.body as { messages: { content: string }[] }).messages;
    expect(messages[1]!.content).toBe('I need more context before recording a fact.');
    expect(messages[2]!.content).toContain('not valid JSON');
  });

  it('throws LLM_OUTPUT after two invalid replies', async () => {
    const lb = await serve(() => ({ toolInput: { subject: '', predicate: 'p', value: 'v', confidence: 2 } }));
    const e = await rejection(generateObject(llmFor(lb), { schema: fact, name: 'record_fact', prompt: 'p' }));
    expect(e.code).toBe('LLM_OUTPUT');
    expect(e.issues.map((i) => i.path).sort()).toEqual(['confidence', 'subject']);
    expect(e.details).toMatchObject({ provider: 'anthropic', model: 'claude-test', attempts: 2 });
    expect(lb.requests).toHaveLength(2);
  });
});

describe('anthropic: transport', () => {
  const ask = { messages: [{ role: 'user' as const, content: 'hi' }] };

  it('retries 529 overloaded and 503, then succeeds', async () => {
    const lb = await serve((_b, i) =>
      i === 0 ? { fail: 529, type: 'overloaded_error', message: 'Overloaded' } : i === 1 ? { fail: 503, message: 'unavailable' } : { say: 'fine' },
    );
    const res = await llmFor(lb).complete(ask);
    expect(res.text).toBe('fine');
    expect(lb.requests).toHaveLength(3);
  });

  it('honours retry-after on a 429 rate_limit_error', async () => {
    const waits: number[] = [];
    const lb = await serve((_b, i) =>
      i === 0
        ? { fail: 429, type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit', headers: { 'retry-after': '7' } }
        : { say: 'ok' },
    );
    await llmFor(lb, {}, { ...FAST, sleep: async (ms) => void waits.push(ms) }).complete(ask);
    expect(waits).toEqual([7000]);
  });

  it('turns a 400 invalid_request_error into ADAPTER with the server message', async () => {
    const lb = await serve(() => ({ fail: 400, type: 'invalid_request_error', message: 'prompt is too long: 210000 tokens > 200000 maximum' }));
    const e = await rejection(llmFor(lb).complete(ask));
    expect(e.code).toBe('ADAPTER');
    expect(e.message).toBe('anthropic: HTTP 400: prompt is too long: 210000 tokens > 200000 maximum');
    expect(lb.requests).toHaveLength(1);
  });

  it('reports a wrong key as not authorised', async () => {
    const lb = await serve(() => ({ say: 'never' }));
    const e = await rejection(llmFor(lb, { apiKey: 'sk-ant-wrong' }).complete(ask));
    expect(e.message).toBe('anthropic: HTTP 401, not authorised (check the API key and its permissions): invalid x-api-key');
    expect(lb.requests).toHaveLength(1);
  });

  it('times out as ADAPTER', async () => {
    const lb = await serve(() => ({ hang: true }));
    const e = await rejection(llmFor(lb, { timeoutMs: 100, maxRetries: 0 }).complete(ask));
    expect(e.code).toBe('ADAPTER');
    expect(e.details).toMatchObject({ provider: 'anthropic', timeout: true, attempts: 1 });
  });
});
