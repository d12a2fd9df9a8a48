/**
 * An OpenAI Agents SDK agent whose conversation history is kept in Engram: run it twice with the same session
 * id and the second run's model sees the first run's turns, tool calls included.
 *
 *   npx tsx examples/openai-agents.ts "My order number is A-1042. Where is it?"
 *   npx tsx examples/openai-agents.ts "And when will it arrive?"
 *
 * The model here is a stand-in that needs no key or network (it calls the tool once, then answers from the
 * history it was given); use the SDK's OpenAI model (`model: 'gpt-4.1-mini'` with `@openai/agents`) in its place.
 */
import { Agent, run, setTracingDisabled, tool, Usage, type Model, type ModelRequest, type ModelResponse } from '@openai/agents-core';
import { openMemory } from 'engram';
import { EngramSession } from 'engram/openai-agents';
import { z } from 'zod';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const trackOrder = tool({
  name: 'track_order',
  description: 'Where an order is now.',
  parameters: z.object({ order: z.string() }),
  execute: async ({ order }) => `${order} left the warehouse in Porto today`,
});

/** One run of the app: open Engram on `dbPath`, run the agent on one message in session `sessionId`, close. */
export async function askOnce(dbPath: string, sessionId: string, message: string, model: Model = new StandInModel()): Promise<string> {
  setTracingDisabled(true);
  const memory = await openMemory({ storage: { url: `sqlite:${dbPath}` }, embedder: { provider: 'use-lite', workers: 0 } });
  try {
    const agent = new Agent({ name: 'Support', instructions: 'You track orders.', model, tools: [trackOrder] });
    const result = await run(agent, message, { session: new EngramSession({ memory, sessionId }) });
    return String(result.finalOutput);
  } finally {
    await memory.close();
  }
}

/**
 * A model that, when the newest user message names an order and no tool result answers it yet, calls
 * `track_order`; otherwise it answers with the latest tool result in its input, whichever run produced it.
 */
export class StandInModel implements Model {
  readonly requests: ModelRequest[] = [];

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const input = typeof request.input === 'string' ? [{ type: 'message' as const, role: 'user' as const, content: request.input }] : request.input;
    const lastUser = input.findLastIndex((i) => 'role' in i && i.role === 'user');
    const order = /[A-Z]-\d+/.exec(JSON.stringify(input[lastUser] ?? ''))?.[0];
    const answered = input.slice(lastUser).some((i) => i.type === 'function_call_result');
    if (order && !answered) {
      return { usage: new Usage(), output: [{ type: 'function_call', callId: `call-${this.requests.length}`, name: 'track_order', arguments: JSON.stringify({ order }), status: 'completed' }] };
    }
    const result = input.findLast((i) => i.type === 'function_call_result');
    const output = result && result.type === 'function_call_result' ? result.output : undefined;
    const text = output === undefined ? 'Which order do you mean?' : `Update: ${typeof output === 'string' ? output : 'text' in output ? output.text : JSON.stringify(output)}`;
    return { usage: new Usage(), output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] }] };
  }

  // eslint-disable-next-line require-yield -- this stand-in answers only non-streamed runs
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('StandInModel does not stream');
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === realpathSync(process.argv[1])) {
  console.log(await askOnce(process.env.ENGRAM_EXAMPLE_DB ?? './engram-example.db', 'support-42', process.argv[2] ?? 'Where is my order?'));
}
