/**
 * Anthropic Messages API (`POST {baseUrl}/v1/messages`). The system prompt is a top-level field, replies are
 * content blocks, and structured output is one forced tool call whose `input_schema` is the schema.
 */
import { z } from 'zod';
import { parseWith } from '../../core/validate.js';
import type { Llm, LlmJsonRequest, LlmRequest, LlmResponse } from '../../ports/llm.js';
import { anthropicLlmConfigSchema, type AnthropicLlmConfig } from '../../core/llm-config.js';
import { createTransport, joinUrl, postJson, readReply, type LlmHttpOptions } from './http.js';

const PROVIDER = 'anthropic';
export const ANTHROPIC_VERSION = '2023-06-01';

const contentBlockSchema = z.object({
  type: z.string(),
  text: z.string().optional(),
  name: z.string().optional(),
  input: z.unknown().optional(),
});

const messageSchema = z.object({
  content: z.array(contentBlockSchema),
  stop_reason: z.string().nullish(),
  usage: z.object({ input_tokens: z.number(), output_tokens: z.number() }).nullish(),
});

type AnthropicMessage = z.output<typeof messageSchema>;

interface ToolRequest {
  tools: { name: string; description?: string; input_schema: unknown }[];
  tool_choice: { type: 'tool'; name: string };
}

export type AnthropicLlmInput = Omit<z.input<typeof anthropicLlmConfigSchema>, 'provider'>;

export function createAnthropicLlm(input: AnthropicLlmInput, opts: LlmHttpOptions = {}): Llm {
  const cfg: AnthropicLlmConfig = parseWith(
    anthropicLlmConfigSchema,
    { ...input, provider: PROVIDER },
    { what: 'llm config', prefix: 'llm', code: 'CONFIG' },
  );
  const transport = createTransport(PROVIDER, cfg, opts);
  const url = joinUrl(cfg.baseUrl, 'v1/messages');
  const headers = { 'x-api-key': cfg.apiKey, 'anthropic-version': ANTHROPIC_VERSION };

  async function send(req: LlmRequest, tool?: ToolRequest): Promise<AnthropicMessage> {
    const body = {
      model: cfg.model,
      max_tokens: req.maxTokens ?? cfg.maxTokens,
      messages: req.messages.map((m) => ({ role: m.role, content: m.content })),
      ...(req.system ? { system: req.system } : {}),
      ...(req.temperature === undefined ? {} : { temperature: req.temperature }),
      ...(tool ?? {}),
    };
    return readReply(PROVIDER, messageSchema, await postJson(transport, { url, headers, body, signal: req.signal }));
  }

  async function complete(req: LlmRequest): Promise<LlmResponse> {
    const reply = await send(req);
    return { text: textOf(reply), ...usageOf(reply) };
  }

  async function completeJson(req: LlmJsonRequest): Promise<LlmResponse> {
    const { name, description, schema, strict: _strict, ...rest } = req;
    const reply = await send(rest, {
      tools: [{ name, ...(description ? { description } : {}), input_schema: schema }],
      tool_choice: { type: 'tool', name },
    });
    const call = reply.content.find((b) => b.type === 'tool_use' && b.name === name);
    // Without the forced call (refusal, truncation) the text goes back as is and fails validation visibly.
    const text = call && call.input !== undefined ? JSON.stringify(call.input) : textOf(reply);
    return { text, ...usageOf(reply) };
  }

  return { name: PROVIDER, model: cfg.model, complete, completeJson };
}

function textOf(reply: AnthropicMessage): string {
  return reply.content
    .filter((b) => b.type === 'text' && b.text !== undefined)
    .map((b) => b.text)
    .join('');
}

function usageOf(reply: AnthropicMessage): Pick<LlmResponse, 'usage'> {
  return reply.usage ? { usage: { inputTokens: reply.usage.input_tokens, outputTokens: reply.usage.output_tokens } } : {};
}
