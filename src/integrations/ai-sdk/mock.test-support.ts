/** Test support (not a test): results for the AI SDK's own mock model (`ai/test` MockLanguageModelV4). */
import { MockLanguageModelV4 } from 'ai/test';
import type { Content, Prompt, StreamPart } from './prompt.js';

const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };

export function generateResult(content: Content) {
  const toolCall = content.some((c) => c.type === 'tool-call');
  return { content, finishReason: { unified: toolCall ? ('tool-calls' as const) : ('stop' as const), raw: undefined }, usage, warnings: [] };
}

export const textResult = (text: string) => generateResult([{ type: 'text', text }]);

export const toolCallResult = (toolName: string, input: unknown, toolCallId = 'call-1') =>
  generateResult([{ type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) }]);

/** A mock that answers each generate call with the next result, and remembers every prompt it was given. */
export function scriptedModel(...results: ReturnType<typeof generateResult>[]): MockLanguageModelV4 {
  return new MockLanguageModelV4({ doGenerate: results });
}

export function streamingModel(deltas: string[]): MockLanguageModelV4 {
  const parts: StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't1' },
    ...deltas.map((delta) => ({ type: 'text-delta' as const, id: 't1', delta })),
    { type: 'text-end', id: 't1' },
    { type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage },
  ];
  return new MockLanguageModelV4({
    doStream: async () => ({
      stream: new ReadableStream<StreamPart>({
        start(controller) {
          for (const p of parts) controller.enqueue(p);
          controller.close();
        },
      }),
    }),
  });
}

/** Every system message's text in a prompt the model received. */
export function systemText(prompt: Prompt): string {
  return prompt.flatMap((m) => (m.role === 'system' ? [m.content] : [])).join('\n');
}
