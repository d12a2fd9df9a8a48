import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EngramError } from '../../core/errors.js';
import { rejection } from '../../core/errors.test-support.js';
import { fakeOpenAi, fakeTokens, type Script } from './fake-protocols.test-support.js';
import { generateObject } from './generate-object.js';
import type { LlmHttpOptions } from './http.js';
import { closedPortOrigin, startLoopback, type Loopback } from './loopback.test-support.js';
import { createOpenAiCompatibleLlm } from './openai-compatible.js';

const KEY = 'sk-test-123';
const FAST: LlmHttpOptions = { backoff: { baseDelayMs: 1, maxDelayMs: 4 } };

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(script: Script, opts: { supportsJsonSchema?: boolean } = {}): Promise<Loopback> {
  server = await startLoopback(fakeOpenAi(script, { apiKey: KEY, ...opts }));
  return server;
}

function llmFor(lb: Loopback, extra: { timeoutMs?: number; maxRetries?: number } = {}, http: LlmHttpOptions = FAST) {
  return createOpenAiCompatibleLlm({ baseUrl: `${lb.origin}/v1`, model: 'gpt-test', apiKey: KEY, ...extra }, http);
}

const note = z.object({
  title: z.string().min(1),
  importance: z.number().int().min(1).max(10),
  tags: z.array(z.string()),
});

describe('openai-compatible: plain completion', () => {
  it('posts a chat completion with system first and reads text and usage', async () => {
    const lb = await serve((body) => ({ say: `echo: ${(body.messages as { content: string }[]).at(-1)!.content}` }));
    const llm = llmFor(lb);
    const res = await llm.complete({
      system: 'Be terse.',
      messages: [{ role: 'user', content: 'Summarise the deployment failure.' }],
      maxTokens: 64,
      temperature: 0.2,
    });

    expect(res.text).toBe('echo: Summarise the deployment failure.');
    const req = lb.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.body).toEqual({
      model: 'gpt-test',
      messages: [
        { role: 'system', content: 'Be terse.' },
        { role: 'user', content: 'Summarise the deployment failure.' },
      ],
      max_tokens: 64,
      temperature: 0.2,
      stream: false,
    });
    const prompt = 'Be terse.\nSummarise the deployment failure.';
    expect(res.usage).toEqual({ inputTokens: fakeTokens(prompt), outputTokens: fakeTokens(res.text) });
    expect(llm.name).toBe('openai-compatible');
    expect(llm.model).toBe('gpt-test');
  });

  it('tolerates a trailing slash on baseUrl, sends no auth header without a key, and can use max_completion_tokens', async () => {
    server = await startLoopback(fakeOpenAi(() => ({ say: 'ok' })));
    const llm = createOpenAiCompatibleLlm(
      { baseUrl: `${server.origin}/v1/`, model: 'o-test', maxTokens: 99, maxTokensField: 'max_completion_tokens' },
      FAST,
    );
    await llm.complete({ messages: [{ role: 'user', content: 'hi' }] });
    const req = server.requests[0]!;
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBeUndefined();
    expect(req.body).toMatchObject({ max_completion_tokens: 99 });
    expect(req.body).not.toHaveProperty('max_tokens');
    expect(req.body).not.toHaveProperty('temperature');
  });

  it('rejects a bad config with the failing path', () => {
    const e = (() => {
      try {
        createOpenAiCompatibleLlm({ baseUrl: 'not a url', model: '' });
      } catch (err) {
        return err as EngramError;
      }
      return undefined;
    })();
    expect(e?.code).toBe('CONFIG');
    expect(e?.issues.map((i) => i.path).sort()).toEqual(['llm.baseUrl', 'llm.model']);
  });
});

describe('openai-compatible: structured output', () => {
  it('sends the schema as response_format json_schema and returns the validated object', async () => {
    const lb = await serve(() => ({ say: '{"title":"Deploy failed","importance":7,"tags":["deploy","ci"]}' }));
    const out = await generateObject(llmFor(lb), { schema: note, name: 'note', system: 'Extract a note.', prompt: 'The deploy failed in CI.' });

    expect(out).toEqual({ title: 'Deploy failed', importance: 7, tags: ['deploy', 'ci'] });
    const body = lb.requests[0]!.body as { response_format: { type: string; json_schema: Record<string, unknown> }; messages: unknown[] };
    expect(body.response_format.type).toBe('json_schema');
    expect(body.response_format.json_schema).toMatchObject({ name: 'note', strict: true });
    const schema = body.response_format.json_schema.schema as Record<string, unknown>;
    expect(schema).not.toHaveProperty('$schema');
    expect(schema).toMatchObject({
      type: 'object',
      required: ['title', 'importance', 'tags'],
      additionalProperties: false,
      properties: { importance: { type: 'integer', minimum: 1, maximum: 10 } },
    });
    expect(body.messages).toEqual([
      { role: 'system', content: 'Extract a note.' },
      { role: 'user', content: 'The deploy failed in CI.' },
    ]);
  });

  it('turns strict off when the schema has optional fields', async () => {
    const lb = await serve(() => ({ say: '{"title":"x"}' }));
    const out = await generateObject(llmFor(lb), { schema: z.object({ title: z.string(), why: z.string().optional() }), name: 'n', prompt: 'p' });
    expect(out).toEqual({ title: 'x' });
    expect(lb.requests[0]!.body).toMatchObject({ response_format: { json_schema: { strict: false } } });
  });

  it('re-asks once with the validation errors when the reply is invalid, then succeeds', async () => {
    const bad = '{"title":"Deploy failed","importance":"high","tags":["deploy"]}';
    const lb = await serve((_b, i) => ({ say: i === 0 ? bad : '{"title":"Deploy failed","importance":8,"tags":["deploy"]}' }));
    const out = await generateObject(llmFor(lb), { schema: note, name: 'note', prompt: 'The deploy failed.' });

    expect(out.importance).toBe(8);
    expect(lb.requests).toHaveLength(2);
    const messages = (lb.requests[1]!.body as { messages: { role: string; content: string }[] }).messages;
    expect(messages.slice(0, 2)).toEqual([
      { role: 'user', content: 'The deploy failed.' },
      { role: 'assistant', content: bad },
    ]);
    expect(messages[2]!.role).toBe('user');
    expect(messages[2]!.content).toContain('- importance:');
  });

  it('re-asks when the reply is not JSON at all', async () => {
    const lb = await serve((_b, i) => ({ say: i === 0 ? 'Sure! Here is the note you asked for.' : '{"title":"t","importance":1,"tags":[]}' }));
    const out = await generateObject(llmFor(lb), { schema: note, name: 'note', prompt: 'p' });
    expect(out).toEqual({ title: 't', importance: 1, tags: [] });
    const reask = (lb.requests[1]!.body as { messages: { content: string }[] }).messages[2]!.content;
    expect(reask).toContain('(root): not valid JSON');
  });

  it('throws LLM_OUTPUT with the issues after two invalid replies', async () => {
    const lb = await serve(() => ({ say: '{"title":"","importance":11,"tags":"none"}' }));
    const e = await rejection(generateObject(llmFor(lb), { schema: note, name: 'note', prompt: 'p' }));

    expect(e.code).toBe('LLM_OUTPUT');
    expect(lb.requests).toHaveLength(2);
    expect(e.issues.map((i) => i.path).sort()).toEqual(['importance', 'tags', 'title']);
    expect(e.details).toMatchObject({ provider: 'openai-compatible', model: 'gpt-test', name: 'note', attempts: 2 });
    expect(e.details.output).toBe('{"title":"","importance":11,"tags":"none"}');
  });

  it('falls back to json_object with the schema in the prompt when the server rejects json_schema, and remembers', async () => {
    const lb = await serve(() => ({ say: '{"title":"t","importance":3,"tags":["a"]}' }), { supportsJsonSchema: false });
    const llm = llmFor(lb);
    const out = await generateObject(llm, { schema: note, name: 'note', system: 'Extract.', prompt: 'p' });

    expect(out).toEqual({ title: 't', importance: 3, tags: ['a'] });
    expect(lb.requests).toHaveLength(2);
    expect(lb.requests[0]!.body).toMatchObject({ response_format: { type: 'json_schema' } });
    const second = lb.requests[1]!.body as { response_format: unknown; messages: { role: string; content: string }[] };
    expect(second.response_format).toEqual({ type: 'json_object' });
    expect(second.messages[0]!.role).toBe('system');
    expect(second.messages[0]!.content).toMatch(/^Extract\.\n\nReply with a single JSON object/);
    expect(second.messages[0]!.content).toContain('"importance":{"type":"integer","minimum":1,"maximum":10}');

    await generateObject(llm, { schema: note, name: 'note', prompt: 'again' });
    expect(lb.requests).toHaveLength(3);
    expect(lb.requests[2]!.body).toMatchObject({ response_format: { type: 'json_object' } });
  });

  it('reports a refusal as LLM_OUTPUT', async () => {
    const lb = await serve(() => ({ refuse: "I can't help with that." }));
    const e = await rejection(generateObject(llmFor(lb), { schema: note, name: 'note', prompt: 'p' }));
    expect(e.code).toBe('LLM_OUTPUT');
    expect(e.message).toContain("I can't help with that.");
    expect(lb.requests).toHaveLength(1);
  });
});

describe('openai-compatible: transport', () => {
  const ask = { messages: [{ role: 'user' as const, content: 'hi' }] };

  it('retries a 503 and then succeeds', async () => {
    const lb = await serve((_b, i) => (i < 2 ? { fail: 503, message: 'The server is overloaded' } : { say: 'recovered' }));
    const res = await llmFor(lb).complete(ask);
    expect(res.text).toBe('recovered');
    expect(lb.requests).toHaveLength(3);
  });

  it('waits as long as a 429 retry-after says, then succeeds', async () => {
    const waits: number[] = [];
    const lb = await serve((_b, i) =>
      i === 0 ? { fail: 429, message: 'Rate limit reached for requests', type: 'requests', headers: { 'retry-after': '2' } } : { say: 'ok' },
    );
    const res = await llmFor(lb, {}, { ...FAST, sleep: async (ms) => void waits.push(ms) }).complete(ask);
    expect(res.text).toBe('ok');
    expect(waits).toEqual([2000]);
  });

  it('prefers retry-after-ms, and uses jittered exponential back-off without a hint', async () => {
    const waits: number[] = [];
    const lb = await serve((_b, i) =>
      i === 0 ? { fail: 429, message: 'slow down', headers: { 'retry-after-ms': '250', 'retry-after': '1' } } : i < 3 ? { fail: 502, message: 'bad gateway' } : { say: 'ok' },
    );
    const http: LlmHttpOptions = { backoff: { baseDelayMs: 100, maxDelayMs: 1000 }, random: () => 1, sleep: async (ms) => void waits.push(ms) };
    await llmFor(lb, { maxRetries: 3 }, http).complete(ask);
    // Retry 1 is the server's 250 ms; retries 2 and 3 are the 2nd and 3rd exponential steps (200, 400) at full jitter.
    expect(waits).toEqual([250, 200, 400]);
  });

  it('fails at once when retry-after asks for longer than it is willing to wait', async () => {
    const lb = await serve(() => ({ fail: 429, message: 'quota exceeded', headers: { 'retry-after': '3600' } }));
    const e = await rejection(llmFor(lb).complete(ask));
    expect(e.code).toBe('ADAPTER');
    expect(e.details).toMatchObject({ status: 429, retryAfterMs: 3_600_000, attempts: 1 });
    expect(lb.requests).toHaveLength(1);
  });

  it('gives up after maxRetries on a persistent 5xx', async () => {
    const lb = await serve(() => ({ fail: 500, message: 'The server had an error while processing your request.' }));
    const e = await rejection(llmFor(lb, { maxRetries: 2 }).complete(ask));
    expect(lb.requests).toHaveLength(3);
    expect(e.code).toBe('ADAPTER');
    expect(e.message).toBe('openai-compatible: HTTP 500: The server had an error while processing your request. (after 3 attempts)');
    expect(e.details).toMatchObject({ status: 500, attempts: 3 });
  });

  it('turns a 400 into ADAPTER with the server message and does not retry it', async () => {
    const msg = "This model's maximum context length is 8192 tokens. However, your messages resulted in 9001 tokens.";
    const lb = await serve(() => ({ fail: 400, message: msg, type: 'invalid_request_error' }));
    const e = await rejection(llmFor(lb).complete(ask));
    expect(e.code).toBe('ADAPTER');
    expect(e.message).toContain(msg);
    expect(e.details).toMatchObject({ status: 400, serverMessage: msg, provider: 'openai-compatible' });
    expect(lb.requests).toHaveLength(1);
  });

  it('says a 401 is an authorisation problem and does not retry it', async () => {
    server = await startLoopback(fakeOpenAi(() => ({ say: 'never' }), { apiKey: 'the-right-key' }));
    const llm = createOpenAiCompatibleLlm({ baseUrl: `${server.origin}/v1`, model: 'm', apiKey: 'wrong' }, FAST);
    const e = await rejection(llm.complete(ask));
    expect(e.code).toBe('ADAPTER');
    expect(e.message).toMatch(/HTTP 401, not authorised.*Incorrect API key provided/);
    expect(e.message).not.toContain('wrong');
    expect(server.requests).toHaveLength(1);
  });

  it('reads Ollama-style string errors', async () => {
    server = await startLoopback(() => ({ status: 404, json: { error: 'model "llama9" not found, try pulling it first' } }));
    const llm = createOpenAiCompatibleLlm({ baseUrl: `${server.origin}/v1`, model: 'llama9' }, FAST);
    const e = await rejection(llm.complete(ask));
    expect(e.message).toBe('openai-compatible: HTTP 404: model "llama9" not found, try pulling it first');
  });

  it('times out each attempt and reports ADAPTER after the retries', async () => {
    const lb = await serve(() => ({ hang: true }));
    const e = await rejection(llmFor(lb, { timeoutMs: 100, maxRetries: 1 }).complete(ask));
    expect(e.code).toBe('ADAPTER');
    expect(e.message).toContain('timed out after 100 ms');
    expect(e.details).toMatchObject({ timeout: true, attempts: 2 });
    expect(lb.requests).toHaveLength(2);
  });

  it('stops at once, without retrying, when the caller aborts', async () => {
    const lb = await serve(() => ({ hang: true }));
    const ctrl = new AbortController();
    const pending = llmFor(lb, { timeoutMs: 30_000, maxRetries: 3 }).complete({ ...ask, signal: ctrl.signal });
    while (lb.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    ctrl.abort();
    const e = await rejection(pending);
    expect(e.details).toMatchObject({ aborted: true, attempts: 1 });
    expect(lb.requests).toHaveLength(1);
  });

  it('retries refused connections and reports a network error', async () => {
    const origin = await closedPortOrigin();
    const llm = createOpenAiCompatibleLlm({ baseUrl: `${origin}/v1`, model: 'm', maxRetries: 1 }, FAST);
    const e = await rejection(llm.complete(ask));
    expect(e.code).toBe('ADAPTER');
    expect(e.message).toMatch(/network error: fetch failed \(ECONNREFUSED\) \(after 2 attempts\)/);
  });

  it('reports a reply of the wrong shape (e.g. a wrong baseUrl behind a proxy) as ADAPTER', async () => {
    server = await startLoopback(() => ({ status: 200, json: { object: 'list', data: [] } }));
    const llm = createOpenAiCompatibleLlm({ baseUrl: `${server.origin}/v1`, model: 'm' }, FAST);
    const e = await rejection(llm.complete(ask));
    expect(e.code).toBe('ADAPTER');
    expect(e.message).toContain('unexpected reply shape at choices');
  });
});
