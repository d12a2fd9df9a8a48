/** Reading the query out of an AI SDK prompt and putting Engram's context into it. Pure functions. */
import type { LanguageModelMiddleware } from 'ai';

export type CallOptions = Parameters<NonNullable<LanguageModelMiddleware['transformParams']>>[0]['params'];
export type Prompt = CallOptions['prompt'];
type GenerateResult = Awaited<ReturnType<NonNullable<LanguageModelMiddleware['wrapGenerate']>>>;
export type Content = GenerateResult['content'];
type StreamResult = Awaited<ReturnType<NonNullable<LanguageModelMiddleware['wrapStream']>>>;
export type StreamPart = StreamResult['stream'] extends ReadableStream<infer P> ? P : never;

/** The text of the last user message: what the memory is asked about and what gets logged as the user's turn. */
export function lastUserText(prompt: Prompt): string | undefined {
  for (let i = prompt.length - 1; i >= 0; i--) {
    const m = prompt[i]!;
    if (m.role !== 'user') continue;
    const text = m.content
      .flatMap((p) => (p.type === 'text' ? [p.text] : []))
      .join('\n')
      .trim();
    return text === '' ? undefined : text;
  }
  return undefined;
}

/** Whether the prompt ends with a new user turn (not a later step of a tool loop, which ends with tool results). */
export function endsWithUser(prompt: Prompt): boolean {
  return prompt.at(-1)?.role === 'user';
}

/** The tool results at the end of the prompt: what the app's tools returned since the model's last reply. */
export function trailingToolResults(prompt: Prompt): { toolName: string; output: unknown }[] {
  const out: { toolName: string; output: unknown }[] = [];
  for (let i = prompt.length - 1; i >= 0 && prompt[i]!.role === 'tool'; i--) {
    const m = prompt[i]!;
    if (m.role !== 'tool') break;
    const parts = m.content.flatMap((p) => (p.type === 'tool-result' ? [{ toolName: p.toolName, output: 'value' in p.output ? p.output.value : p.output }] : []));
    out.unshift(...parts);
  }
  return out;
}

export const CONTEXT_HEADER = 'Relevant memory (from Engram; use it when it helps, and prefer the user over it when they disagree):';

/** A system message with the context, placed after the prompt's own leading system messages. */
export function withContext(prompt: Prompt, contextText: string): Prompt {
  let at = 0;
  while (at < prompt.length && prompt[at]!.role === 'system') at++;
  const message = { role: 'system' as const, content: `${CONTEXT_HEADER}\n${contextText}` };
  return [...prompt.slice(0, at), message, ...prompt.slice(at)];
}

/** The assistant's text and tool calls in a generate result. */
export function replyOf(content: Content): { text: string; toolCalls: { toolName: string; input: string }[] } {
  const text = content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('');
  const toolCalls = content.flatMap((c) => (c.type === 'tool-call' ? [{ toolName: c.toolName, input: c.input }] : []));
  return { text, toolCalls };
}
