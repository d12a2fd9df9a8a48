/**
 * Test support (not a test): fake OpenAI-compatible and Anthropic servers that check requests the way the real
 * services do (path, auth headers, body fields) and answer with their real envelopes, usage included. What the
 * "model" says is scripted per test through `Turn`s.
 */
import { isRecord } from './http.js';
import type { Handler, RecordedRequest, Reply } from './loopback.test-support.js';

/** What the fake model does for one request. */
export type Turn =
  | { say: string }
  /** Anthropic: a tool_use block with this input. */
  | { toolInput: unknown }
  /** OpenAI: a refusal instead of content. */
  | { refuse: string }
  | { fail: number; message: string; type?: string; headers?: Record<string, string> }
  | { hang: true };

export type Script = (body: Record<string, unknown>, index: number) => Turn;

/** Rough token count the fakes report, so tests can check usage is read from the reply (and not swapped). */
export function fakeTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

// ---------------------------------------------------------------------------------------------------------
// OpenAI-compatible chat completions
// ---------------------------------------------------------------------------------------------------------

export interface FakeOpenAiOptions {
  apiKey?: string;
  /** Servers without structured output reject `json_schema` with a 400 (older llama.cpp, vLLM, proxies). */
  supportsJsonSchema?: boolean;
}

const OPENAI_ROLES = new Set(['system', 'user', 'assistant']);
const SCHEMA_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export function fakeOpenAi(script: Script, opts: FakeOpenAiOptions = {}): Handler {
  return (req, index) => {
    if (req.method !== 'POST' || req.path !== '/v1/chat/completions') {
      return openAiError(404, `Unknown request URL: ${req.method} ${req.path}.`, 'invalid_request_error');
    }
    if (opts.apiKey !== undefined && req.headers.authorization !== `Bearer ${opts.apiKey}`) {
      return openAiError(401, 'Incorrect API key provided.', 'invalid_request_error');
    }
    if (!String(req.headers['content-type']).startsWith('application/json')) return openAiError(400, 'Expected JSON body', 'invalid_request_error');
    const problem = openAiRequestProblem(req.body, opts);
    if (problem) return openAiError(400, problem, 'invalid_request_error');
    const body = req.body as Record<string, unknown>;
    return openAiTurn(script(body, index), body, index);
  };
}

function openAiRequestProblem(body: unknown, opts: FakeOpenAiOptions): string | undefined {
  if (!isRecord(body)) return 'We could not parse the JSON body of your request.';
  if (typeof body.model !== 'string' || body.model === '') return "you must provide a model parameter";
  if (!Array.isArray(body.messages) || body.messages.length === 0) return "'messages' must be a non-empty array";
  for (const [i, m] of body.messages.entries()) {
    if (!isRecord(m) || !OPENAI_ROLES.has(String(m.role)) || typeof m.content !== 'string') return `Invalid 'messages[${i}]'`;
  }
  if (body.stream !== undefined && body.stream !== false) return 'this fake does not stream';
  for (const field of ['max_tokens', 'max_completion_tokens']) {
    const v = body[field];
    if (v !== undefined && (!Number.isInteger(v) || (v as number) < 1)) return `Invalid '${field}': expected a positive integer`;
  }
  return responseFormatProblem(body, opts);
}

function responseFormatProblem(body: Record<string, unknown>, opts: FakeOpenAiOptions): string | undefined {
  const rf = body.response_format;
  if (rf === undefined) return undefined;
  if (!isRecord(rf)) return "Invalid 'response_format'";
  if (rf.type === 'json_object') {
    const mentionsJson = (body.messages as { content: string }[]).some((m) => /json/i.test(m.content));
    return mentionsJson ? undefined : "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.";
  }
  if (rf.type !== 'json_schema') return `Invalid 'response_format.type': ${String(rf.type)}`;
  if (opts.supportsJsonSchema === false) return "'response_format.type' must be 'json_object' or 'text'";
  const js = rf.json_schema;
  if (!isRecord(js) || typeof js.name !== 'string' || !SCHEMA_NAME.test(js.name)) return "Invalid 'response_format.json_schema.name'";
  if (!isRecord(js.schema) || js.schema.type !== 'object') return "Invalid schema for response_format: root must be an object";
  if (js.strict !== undefined && typeof js.strict !== 'boolean') return "Invalid 'response_format.json_schema.strict'";
  return undefined;
}

function openAiTurn(turn: Turn, body: Record<string, unknown>, index: number): Reply {
  if ('hang' in turn) return turn;
  if ('fail' in turn) return openAiError(turn.fail, turn.message, turn.type ?? 'server_error', turn.headers);
  if ('toolInput' in turn) return openAiError(500, 'fake misuse: toolInput is Anthropic-only', 'server_error');
  const content = 'say' in turn ? turn.say : null;
  const prompt = (body.messages as { content: string }[]).map((m) => m.content).join('\n');
  return {
    status: 200,
    json: {
      id: `chatcmpl-fake${index}`,
      object: 'chat.completion',
      created: 1_760_000_000 + index,
      model: body.model,
      system_fingerprint: 'fp_fake',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content, refusal: 'refuse' in turn ? turn.refuse : null },
          logprobs: null,
          finish_reason: 'stop',
        },
      ],
      usage: {
        prompt_tokens: fakeTokens(prompt),
        completion_tokens: fakeTokens(content ?? ''),
        total_tokens: fakeTokens(prompt) + fakeTokens(content ?? ''),
      },
    },
  };
}

function openAiError(status: number, message: string, type: string, headers?: Record<string, string>): Reply {
  return { status, headers, json: { error: { message, type, param: null, code: null } } };
}

// ---------------------------------------------------------------------------------------------------------
// Anthropic Messages
// ---------------------------------------------------------------------------------------------------------

export function fakeAnthropic(script: Script, opts: { apiKey: string }): Handler {
  return (req: RecordedRequest, index: number) => {
    if (req.method !== 'POST' || req.path !== '/v1/messages') return anthropicError(404, 'not_found_error', 'Not found');
    if (req.headers['x-api-key'] !== opts.apiKey) return anthropicError(401, 'authentication_error', 'invalid x-api-key');
    if (req.headers['anthropic-version'] !== '2023-06-01') {
      return anthropicError(400, 'invalid_request_error', 'anthropic-version: header is required');
    }
    const problem = anthropicRequestProblem(req.body);
    if (problem) return anthropicError(400, 'invalid_request_error', problem);
    const body = req.body as Record<string, unknown>;
    return anthropicTurn(script(body, index), body, index);
  };
}

function anthropicRequestProblem(body: unknown): string | undefined {
  if (!isRecord(body)) return 'invalid JSON body';
  if (typeof body.model !== 'string') return 'model: Field required';
  if (!Number.isInteger(body.max_tokens) || (body.max_tokens as number) < 1) return 'max_tokens: Field required';
  if (body.system !== undefined && typeof body.system !== 'string') return 'system: Input should be a valid string';
  if (!Array.isArray(body.messages) || body.messages.length === 0) return 'messages: at least one message is required';
  let expected = 'user';
  for (const [i, m] of body.messages.entries()) {
    if (!isRecord(m)) return `messages.${i}: invalid`;
    if (m.role === 'system') return `messages.${i}.role: Input should be 'user' or 'assistant'`;
    if (m.role !== expected) return `messages: roles must alternate between "user" and "assistant", starting with "user"`;
    if (typeof m.content !== 'string' || m.content.trim() === '') return `messages.${i}: text content blocks must be non-empty`;
    expected = expected === 'user' ? 'assistant' : 'user';
  }
  return toolsProblem(body);
}

function toolsProblem(body: Record<string, unknown>): string | undefined {
  if (body.tools === undefined) return body.tool_choice === undefined ? undefined : 'tool_choice may only be specified while providing tools';
  if (!Array.isArray(body.tools)) return 'tools: Input should be a valid list';
  for (const [i, t] of body.tools.entries()) {
    if (!isRecord(t) || typeof t.name !== 'string' || !SCHEMA_NAME.test(t.name)) return `tools.${i}.name: invalid`;
    if (!isRecord(t.input_schema) || t.input_schema.type !== 'object') return `tools.${i}.input_schema.type: Input should be 'object'`;
  }
  const choice = body.tool_choice;
  if (choice === undefined) return undefined;
  if (!isRecord(choice) || choice.type !== 'tool') return 'tool_choice: unsupported in this fake';
  const named = (body.tools as { name: string }[]).some((t) => t.name === choice.name);
  return named ? undefined : `tool_choice.name: tool ${String(choice.name)} not found in tools`;
}

function anthropicTurn(turn: Turn, body: Record<string, unknown>, index: number): Reply {
  if ('hang' in turn) return turn;
  if ('fail' in turn) return anthropicError(turn.fail, turn.type ?? 'api_error', turn.message, turn.headers);
  if ('refuse' in turn) return anthropicError(500, 'api_error', 'fake misuse: refuse is OpenAI-only');
  const toolName = isRecord(body.tool_choice) ? String(body.tool_choice.name) : undefined;
  const content =
    'toolInput' in turn
      ? [{ type: 'tool_use', id: `toolu_fake${index}`, name: toolName ?? 'missing_tool_choice', input: turn.toolInput }]
      : splitText(turn.say);
  const prompt = [String(body.system ?? ''), ...(body.messages as { content: string }[]).map((m) => m.content)].join('\n');
  const out = 'toolInput' in turn ? JSON.stringify(turn.toolInput) : turn.say;
  return {
    status: 200,
    json: {
      id: `msg_fake${index}`,
      type: 'message',
      role: 'assistant',
      model: body.model,
      content,
      stop_reason: 'toolInput' in turn ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: fakeTokens(prompt), output_tokens: fakeTokens(out), cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    },
  };
}

/** Real replies may carry several text blocks; splitting at the first blank line exercises joining them. */
function splitText(text: string): { type: 'text'; text: string }[] {
  const cut = text.indexOf('\n\n');
  if (cut < 0) return [{ type: 'text', text }];
  return [
    { type: 'text', text: text.slice(0, cut) },
    { type: 'text', text: text.slice(cut) },
  ];
}

function anthropicError(status: number, type: string, message: string, headers?: Record<string, string>): Reply {
  return { status, headers: { 'request-id': 'req_fake', ...headers }, json: { type: 'error', error: { type, message } } };
}
