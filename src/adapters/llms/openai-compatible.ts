/**
 * OpenAI-compatible chat completions (`POST {baseUrl}/chat/completions`): OpenAI, Ollama, vLLM, llama.cpp
 * server, LM Studio. Structured output asks for `response_format: json_schema`; a server that rejects it gets
 * `json_object` with the schema in the system prompt, and is remembered as such.
 */
import { z } from 'zod';
import { EngramError, isEngramError } from '../../core/errors.js';
import { parseWith } from '../../core/validate.js';
import type { Llm, LlmJsonRequest, LlmRequest, LlmResponse } from '../../ports/llm.js';
import { openAiCompatibleLlmConfigSchema, type OpenAiCompatibleLlmConfig } from '../../core/llm-config.js';
import { createTransport, joinUrl, postJson, readReply, type LlmHttpOptions } from './http.js';
import { withSchemaInstruction } from './json-schema.js';

const PROVIDER = 'openai-compatible';

const chatCompletionSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          refusal: z.string().nullish(),
        }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
  usage: z.object({ prompt_tokens: z.number(), completion_tokens: z.number() }).nullish(),
});

type ResponseFormat =
  | { type: 'json_schema'; json_schema: { name: string; description?: string; schema: unknown; strict: boolean } }
  | { type: 'json_object' };

export type OpenAiCompatibleLlmInput = Omit<z.input<typeof openAiCompatibleLlmConfigSchema>, 'provider'>;

export function createOpenAiCompatibleLlm(input: OpenAiCompatibleLlmInput, opts: LlmHttpOptions = {}): Llm {
  const cfg: OpenAiCompatibleLlmConfig = parseWith(
    openAiCompatibleLlmConfigSchema,
    { ...input, provider: PROVIDER },
    { what: 'llm config', prefix: 'llm', code: 'CONFIG' },
  );
  const transport = createTransport(PROVIDER, cfg, opts);
  const url = joinUrl(cfg.baseUrl, 'chat/completions');
  const headers: Record<string, string> = cfg.apiKey ? { authorization: `Bearer ${cfg.apiKey}` } : {};
  // Set once a server has rejected json_schema and accepted json_object, so later calls skip the failing ask.
  let jsonSchemaUnsupported = false;

  async function chat(req: LlmRequest, responseFormat?: ResponseFormat): Promise<LlmResponse> {
    const maxTokens = req.maxTokens ?? cfg.maxTokens;
    const body = {
      model: cfg.model,
      messages: [...(req.system ? [{ role: 'system', content: req.system }] : []), ...req.messages],
      ...(maxTokens === undefined ? {} : { [cfg.maxTokensField]: maxTokens }),
      ...(req.temperature === undefined ? {} : { temperature: req.temperature }),
      ...(responseFormat ? { response_format: responseFormat } : {}),
      stream: false,
    };
    const reply = readReply(PROVIDER, chatCompletionSchema, await postJson(transport, { url, headers, body, signal: req.signal }));
    const message = reply.choices[0]!.message;
    if (message.refusal && !message.content) {
      throw new EngramError('LLM_OUTPUT', `${PROVIDER} (${cfg.model}) refused: ${message.refusal}`, {
        details: { provider: PROVIDER, model: cfg.model, refusal: message.refusal },
      });
    }
    return {
      text: message.content ?? '',
      ...(reply.usage ? { usage: { inputTokens: reply.usage.prompt_tokens, outputTokens: reply.usage.completion_tokens } } : {}),
    };
  }

  async function completeJson(req: LlmJsonRequest): Promise<LlmResponse> {
    const { name, description, schema, strict, ...rest } = req;
    if (!jsonSchemaUnsupported) {
      try {
        return await chat(rest, { type: 'json_schema', json_schema: { name, ...(description ? { description } : {}), schema, strict } });
      } catch (e) {
        if (!isSchemaRejection(e)) throw e;
      }
    }
    // json_object mode needs the word "JSON" in the messages (OpenAI enforces it); the instruction carries it.
    const reply = await chat({ ...rest, system: withSchemaInstruction(rest.system, schema) }, { type: 'json_object' });
    jsonSchemaUnsupported = true;
    return reply;
  }

  return { name: PROVIDER, model: cfg.model, complete: (req) => chat(req), completeJson };
}

/**
 * A client error on the json_schema ask: servers without structured output answer 400 or 422 (some say why,
 * some do not), so any such reply earns one json_object attempt. Errors that json_object would hit too
 * (a bad model name, an over-long prompt) surface from that second attempt.
 */
function isSchemaRejection(e: unknown): boolean {
  if (!isEngramError(e, 'ADAPTER')) return false;
  const status = e.details.status;
  return status === 400 || status === 422;
}
