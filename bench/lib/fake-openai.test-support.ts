/**
 * Test support (not a test): a loopback server speaking the OpenAI chat-completions protocol — POST
 * /v1/chat/completions, JSON body with model and messages, the real response envelope with usage — whose "model"
 * answers from a script. The bench's own copy, so bench tests need nothing from the product's test helpers.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatBody {
  model: string;
  messages: Array<{ role: string; content: string }>;
  response_format?: { type: string; json_schema?: { name: string; schema: unknown; strict?: boolean } };
  [key: string]: unknown;
}

export interface FakeChatServer {
  origin: string;
  requests: ChatBody[];
  close(): Promise<void>;
}

function send(res: import('node:http').ServerResponse, status: number, body: unknown): void {
  // One request per connection: a client reusing a socket the server has already timed out gets ECONNRESET.
  res.writeHead(status, { 'content-type': 'application/json', connection: 'close' });
  res.end(JSON.stringify(body));
}

function invalid(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return 'We could not parse the JSON body of your request.';
  const b = body as Partial<ChatBody>;
  if (typeof b.model !== 'string' || !b.model) return 'you must provide a model parameter';
  if (!Array.isArray(b.messages) || b.messages.length === 0) return "'messages' must be a non-empty array";
  if (b.messages.some((m) => !['system', 'user', 'assistant'].includes(m.role) || typeof m.content !== 'string')) return "Invalid 'messages'";
  return undefined;
}

/** Starts the server on 127.0.0.1 (a free port); `answer` returns the assistant's message content. */
export async function startFakeChat(answer: (body: ChatBody) => string): Promise<FakeChatServer> {
  const requests: ChatBody[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return send(res, 404, { error: { message: `Unknown request URL: ${req.method} ${req.url}`, type: 'invalid_request_error' } });
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
      } catch {
        body = undefined;
      }
      const problem = invalid(body);
      if (problem) return send(res, 400, { error: { message: problem, type: 'invalid_request_error' } });
      const b = body as ChatBody;
      requests.push(b);
      const content = answer(b);
      const promptTokens = Math.ceil(JSON.stringify(b.messages).length / 4);
      const completionTokens = Math.ceil(content.length / 4);
      send(res, 200, {
        id: `chatcmpl-${requests.length}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: b.model,
        choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: 'stop', logprobs: null }],
        usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
