/**
 * A language-model middleware that gives any AI SDK model a memory:
 *   transformParams  asks Engram's getContext about the last user message and puts the context in the prompt
 *                    as a system message;
 *   wrapGenerate /   after the model answers, logs the exchange (the user's message, the reply, its tool calls)
 *   wrapStream       to Engram's timeline, tagged with the retrieval it used, so the next call can recall it.
 *
 *   const model = wrapLanguageModel({ model: openai('gpt-4o'), middleware: engramMiddleware({ memory, userId }) });
 */
import type { LanguageModelMiddleware } from 'ai';
import type { ContextConfigInput } from '../../core/config.js';
import type { EventInput } from '../../write/input.js';
import { endsWithUser, lastUserText, replyOf, trailingToolResults, withContext, type CallOptions, type StreamPart } from './prompt.js';
import { contextScopeOf, scopeOf, type EngramAiOptions } from './scope.js';

export interface EngramMiddlewareOptions extends EngramAiOptions {
  /** getContext settings (token budget, top_k …); the scope comes from the options above. */
  context?: Omit<ContextConfigInput, 'scope' | 'query'>;
  /** Inject context into prompts (default true). */
  inject?: boolean;
  /** Log each exchange to the timeline (default true). */
  log?: boolean;
  /**
   * Called when reading or logging memory fails; the model call goes on without it. By default the error is
   * thrown, failing the call.
   */
  onError?: (error: unknown) => void;
}

interface CallMemory {
  query: string;
  /** The user's message is logged once, with the call that answers it, not again at each tool-loop step. */
  newTurn: boolean;
  toolResults: { toolName: string; output: unknown }[];
  retrievalId?: string;
}

export function engramMiddleware(opts: EngramMiddlewareOptions): LanguageModelMiddleware {
  const { memory } = opts;
  const scope = scopeOf(opts);
  // What transformParams learned about a call, found again by the params object it returned.
  const calls = new WeakMap<CallOptions, CallMemory>();

  const guard = async <T>(work: () => Promise<T>, fallback: T): Promise<T> => {
    try {
      return await work();
    } catch (e) {
      if (!opts.onError) throw e;
      opts.onError(e);
      return fallback;
    }
  };

  const logExchange = async (call: CallMemory | undefined, text: string, toolCalls: { toolName: string; input: string }[]) => {
    if (opts.log === false || !call) return;
    const meta = call.retrievalId ? { retrieval_id: call.retrievalId } : {};
    const events: EventInput[] = call.newTurn ? [{ ...scope, type: 'message', actor: 'user', content: call.query, tags: ['ai-sdk'] }] : [];
    for (const r of call.toolResults) events.push({ ...scope, type: 'tool_result', actor: 'tool', tool: r.toolName, result: toJson(r.output), tags: ['ai-sdk'] });
    for (const t of toolCalls) events.push({ ...scope, type: 'tool_call', actor: 'agent', tool: t.toolName, args: parseArgs(t.input), tags: ['ai-sdk'], metadata: meta });
    if (text.trim() !== '') events.push({ ...scope, type: 'message', actor: 'agent', content: text, tags: ['ai-sdk'], metadata: meta });
    if (events.length > 0) await guard(() => memory.logEvents(events), []);
  };

  return {
    specificationVersion: 'v4',
    transformParams: async ({ params }) => {
      const query = lastUserText(params.prompt);
      if (query === undefined) return params;
      const turn = { query, newTurn: endsWithUser(params.prompt), toolResults: trailingToolResults(params.prompt) };
      if (opts.inject === false) {
        calls.set(params, turn);
        return params;
      }
      const cs = contextScopeOf(opts);
      const ctx = await guard(() => memory.getContext(query, { ...opts.context, ...(opts.tenant ? { tenant: opts.tenant } : {}), ...(cs ? { scope: cs } : {}) }), undefined);
      const next = ctx && ctx.text.trim() !== '' ? { ...params, prompt: withContext(params.prompt, ctx.text) } : { ...params };
      calls.set(next, { ...turn, ...(ctx ? { retrievalId: ctx.retrievalId } : {}) });
      return next;
    },
    wrapGenerate: async ({ doGenerate, params }) => {
      const result = await doGenerate();
      const { text, toolCalls } = replyOf(result.content);
      await logExchange(calls.get(params), text, toolCalls);
      return result;
    },
    wrapStream: async ({ doStream, params }) => {
      const { stream, ...rest } = await doStream();
      const call = calls.get(params);
      let text = '';
      const toolCalls: { toolName: string; input: string }[] = [];
      const tap = new TransformStream<StreamPart, StreamPart>({
        transform(part, controller) {
          if (part.type === 'text-delta') text += part.delta;
          else if (part.type === 'tool-call') toolCalls.push({ toolName: part.toolName, input: part.input });
          controller.enqueue(part);
        },
        // The stream closes once the exchange is durable, so a caller that awaited it can recall it at once.
        flush: () => logExchange(call, text, toolCalls),
      });
      return { stream: stream.pipeThrough(tap), ...rest };
    },
  };
}

/** Tool outputs are JSON in practice; anything else is kept as its JSON text. */
function toJson(value: unknown): EventInput['result'] {
  return value === undefined ? null : (JSON.parse(JSON.stringify(value)) as EventInput['result']);
}

function parseArgs(input: string): EventInput['args'] {
  try {
    return JSON.parse(input) as EventInput['args'];
  } catch {
    return input;
  }
}
