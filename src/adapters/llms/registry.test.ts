import { afterEach, describe, expect, it } from 'vitest';
import { EngramError } from '../../core/errors.js';
import { llmConfigSchema, parseLlmConfig } from '../../core/llm-config.js';
import { fakeAnthropic, fakeOpenAi } from './fake-protocols.test-support.js';
import { startLoopback, type Loopback } from './loopback.test-support.js';
import { createLlm, LLM_FACTORIES } from './registry.js';

const servers: Loopback[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function configError(input: unknown): EngramError {
  try {
    parseLlmConfig(input);
  } catch (e) {
    if (e instanceof EngramError) return e;
    throw e;
  }
  throw new Error('expected a CONFIG error');
}

describe('llm config', () => {
  it('defaults to no LLM', () => {
    expect(parseLlmConfig(undefined)).toEqual({ provider: 'none' });
    expect(createLlm(parseLlmConfig({ provider: 'none' }))).toBeUndefined();
  });

  it('fills transport defaults and the Anthropic base URL', () => {
    expect(parseLlmConfig({ provider: 'anthropic', model: 'claude-x', apiKey: 'k' })).toEqual({
      provider: 'anthropic',
      baseUrl: 'https://api.anthropic.com',
      model: 'claude-x',
      apiKey: 'k',
      maxTokens: 1024,
      timeoutMs: 60_000,
      maxRetries: 2,
    });
    expect(llmConfigSchema.parse({ provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.2' })).toMatchObject({
      maxTokensField: 'max_tokens',
      timeoutMs: 60_000,
      maxRetries: 2,
    });
  });

  it('names the failing paths', () => {
    const unknown = configError({ provider: 'openai-compatible', baseUrl: 'http://x/v1', model: 'm', temprature: 1 });
    expect(unknown.code).toBe('CONFIG');
    expect(unknown.issues).toEqual([{ path: 'llm', message: 'unknown field(s): temprature' }]);
    expect(configError({ provider: 'anthropic', model: 'm', apiKey: 'k', maxRetries: -1 }).issues[0]!.path).toBe('llm.maxRetries');
    expect(configError({ provider: 'gemini' }).issues[0]!.path).toBe('llm.provider');
  });
});

describe('registry', () => {
  it('has a factory for every configurable provider', () => {
    const providers = llmConfigSchema.options.map((o) => o.shape.provider.value).filter((p) => p !== 'none');
    expect(Object.keys(LLM_FACTORIES).sort()).toEqual([...providers].sort());
  });

  it('builds each provider from parsed config and reaches its server', async () => {
    const oa = await startLoopback(fakeOpenAi(() => ({ say: 'from openai' }), { apiKey: 'k1' }));
    const an = await startLoopback(fakeAnthropic(() => ({ say: 'from anthropic' }), { apiKey: 'k2' }));
    servers.push(oa, an);
    const ask = { messages: [{ role: 'user' as const, content: 'hi' }] };

    const openai = createLlm(parseLlmConfig({ provider: 'openai-compatible', baseUrl: `${oa.origin}/v1`, model: 'm1', apiKey: 'k1' }));
    const anthropic = createLlm(parseLlmConfig({ provider: 'anthropic', baseUrl: an.origin, model: 'm2', apiKey: 'k2' }));
    expect([openai?.name, openai?.model, anthropic?.name, anthropic?.model]).toEqual(['openai-compatible', 'm1', 'anthropic', 'm2']);
    expect((await openai!.complete(ask)).text).toBe('from openai');
    expect((await anthropic!.complete(ask)).text).toBe('from anthropic');
  });
});
