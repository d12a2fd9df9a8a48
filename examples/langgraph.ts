/**
 * A LangGraph.js graph whose long-term memory is Engram: run it twice and the second run remembers the first.
 *
 *   npx tsx examples/langgraph.ts "remember: my favourite colour is teal"
 *   npx tsx examples/langgraph.ts "what is my favourite colour?"
 *
 * No LLM: the node is plain code, so what the store does is what you see. Each run opens the memory, builds a
 * fresh graph and closes everything again, as two separate processes would.
 */
import { Annotation, StateGraph, type LangGraphRunnableConfig } from '@langchain/langgraph';
import { openMemory } from 'engram';
import { EngramStore } from 'engram/langgraph';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const State = Annotation.Root({
  userId: Annotation<string>(),
  message: Annotation<string>(),
  reply: Annotation<string>(),
});

async function respond(state: typeof State.State, config: LangGraphRunnableConfig): Promise<Partial<typeof State.State>> {
  const store = config.store!;
  const namespace = ['memories', state.userId];
  const note = /^remember:\s*(.+)$/i.exec(state.message);
  if (note) {
    await store.put(namespace, `note-${Date.now()}`, { text: note[1]! });
    return { reply: `Noted: ${note[1]}` };
  }
  const [best] = await store.search(namespace, { query: state.message, limit: 1 });
  return { reply: best ? `You told me: ${String(best.value.text)}` : 'I do not know yet.' };
}

export function buildGraph(store: EngramStore) {
  return new StateGraph(State).addNode('respond', respond).addEdge('__start__', 'respond').compile({ store });
}

/** One run of the app: open Engram on `dbPath`, run the graph on one message, close. */
export async function runOnce(dbPath: string, message: string, userId = 'ana'): Promise<string> {
  const memory = await openMemory({ storage: { url: `sqlite:${dbPath}` }, embedder: { provider: 'use-lite', workers: 0 } });
  try {
    const graph = buildGraph(new EngramStore({ memory }));
    const out = await graph.invoke({ userId, message });
    // Writes are durable already; flushing makes the new memory searchable by meaning for the next run at once.
    await memory.flush({ learn: false });
    return out.reply;
  } finally {
    await memory.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === realpathSync(process.argv[1])) {
  const reply = await runOnce(process.env.ENGRAM_EXAMPLE_DB ?? './engram-example.db', process.argv[2] ?? 'what do you know about me?');
  console.log(reply);
}
