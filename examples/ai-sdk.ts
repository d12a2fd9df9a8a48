/**
 * A Vercel AI SDK app whose model remembers: Engram's middleware puts what it knows into the prompt and logs
 * every exchange, so a later run (another process, another day) knows what the user said before.
 *
 *   npx tsx examples/ai-sdk.ts "I always want a window seat when I fly."
 *   npx tsx examples/ai-sdk.ts "Book me a flight to Lisbon on Friday."
 *
 * The model here is a stand-in from `ai/test` that shows what memory reached it, so the example runs with no
 * key and no network; use any real provider model (`openai('gpt-4o-mini')`, …) in its place.
 */
import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { openMemory } from 'engram';
import { CONTEXT_HEADER, engramMiddleware } from 'engram/ai-sdk';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One run of the app: open Engram on `dbPath`, answer one message as `userId`, close. */
export async function chatOnce(dbPath: string, userId: string, message: string, model: Parameters<typeof wrapLanguageModel>[0]['model'] = standInModel()): Promise<string> {
  const memory = await openMemory({ storage: { url: `sqlite:${dbPath}` }, embedder: { provider: 'use-lite', workers: 0 } });
  try {
    const remembering = wrapLanguageModel({ model, middleware: engramMiddleware({ memory, userId }) });
    const { text } = await generateText({ model: remembering, system: 'You are a travel assistant.', prompt: message });
    await memory.flush({ learn: false });
    return text;
  } finally {
    await memory.close();
  }
}

/** A model that answers with the memory it was given (the lines after Engram's header in its system prompt). */
export function standInModel(): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: async ({ prompt }) => {
      const memory = prompt.flatMap((m) => (m.role === 'system' && m.content.startsWith(CONTEXT_HEADER) ? [m.content.slice(CONTEXT_HEADER.length).trim()] : []));
      const text = memory.length > 0 ? `From memory:\n${memory.join('\n')}` : 'I have no memory of you yet.';
      return {
        content: [{ type: 'text', text }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } },
        warnings: [],
      };
    },
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === realpathSync(process.argv[1])) {
  console.log(await chatOnce(process.env.ENGRAM_EXAMPLE_DB ?? './engram-example.db', 'ana', process.argv[2] ?? 'What do you know about me?'));
}
