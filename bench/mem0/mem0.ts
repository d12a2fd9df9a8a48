/**
 * Mem0's open-source `Memory` (`mem0ai/oss`, a devDependency) wired to run offline beside Engram: telemetry
 * off, its config dir in a temp folder, our embedder handed over through its langchain embedder provider,
 * its `memory` vector store (SQLite, full scan per query) in a file, history disabled, `infer: false` so its
 * LLM is never called (the LLM stub throws if it ever is). See ../shared/research/peers.md.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EngramError } from '../../src/index.js';
import type { Embedder } from '../../src/index.js';

export interface Mem0Hit {
  id: string;
  text: string;
  score: number;
  metadata: Record<string, unknown>;
}

export interface Mem0Handle {
  /** Adds one memory verbatim (`infer: false`); resolves when Mem0 has written it. */
  add(text: string, userId: string, metadata: Record<string, unknown>): Promise<void>;
  /** Adds each text as its own memory in one `add` call (a message list with `infer: false`). */
  addMany(texts: readonly string[], userId: string, metadata: Record<string, unknown>): Promise<void>;
  search(query: string, userId: string, topK: number): Promise<Mem0Hit[]>;
  /** Folder holding Mem0's files (vector DB, config). */
  readonly dir: string;
}

interface Mem0Memory {
  add(messages: string | { role: 'user'; content: string }[], config: { userId: string; infer: boolean; metadata: Record<string, unknown> }): Promise<unknown>;
  search(query: string, config: { filters: { user_id: string }; topK: number }): Promise<{ results: { id: string; memory: string; score?: number; metadata?: Record<string, unknown> }[] }>;
}
type Mem0Ctor = new (config: Record<string, unknown>) => Mem0Memory;

/** Loads `mem0ai/oss` on demand; a clear UNAVAILABLE error when the devDependency is not installed. */
async function loadMem0(): Promise<Mem0Ctor> {
  // Telemetry and the config dir are read when the module loads.
  process.env.MEM0_TELEMETRY = 'false';
  process.env.MEM0_DIR ??= mkdtempSync(join(tmpdir(), 'mem0-home-'));
  try {
    const mod = (await import('mem0ai/oss')) as unknown as { Memory: Mem0Ctor };
    return mod.Memory;
  } catch (cause) {
    throw new EngramError('UNAVAILABLE', 'mem0ai is not installed (it is a devDependency: run `npm install` with dev dependencies to compare with Mem0, or pass --no-mem0)', { cause });
  }
}

/** Opens a Mem0 Memory over a fresh file-backed vector store in a temp folder. */
export async function openMem0(embedder: Embedder, opts: { dir?: string } = {}): Promise<Mem0Handle> {
  const Memory = await loadMem0();
  const { dimension } = await embedder.init();
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'mem0-bench-'));
  const toArray = (v: Float32Array) => Array.from(v);
  const model = {
    embedQuery: async (text: string) => toArray((await embedder.embed([text]))[0]!),
    embedDocuments: async (texts: string[]) => (await embedder.embed(texts)).map(toArray),
  };
  const memory = new Memory({
    version: 'v1.1',
    embedder: { provider: 'langchain', config: { model, embeddingDims: dimension } },
    vectorStore: { provider: 'memory', config: { collectionName: 'bench', dimension, dbPath: join(dir, 'vectors.db') } },
    llm: {
      provider: 'langchain',
      config: {
        model: {
          invoke: () => Promise.reject(new EngramError('UNAVAILABLE', 'Mem0 tried to call an LLM with infer:false')),
        },
      },
    },
    disableHistory: true,
  });
  return {
    dir,
    async add(text, userId, metadata) {
      await memory.add(text, { userId, infer: false, metadata });
    },
    async addMany(texts, userId, metadata) {
      await memory.add(texts.map((content) => ({ role: 'user' as const, content })), { userId, infer: false, metadata });
    },
    async search(query, userId, topK) {
      const r = await memory.search(query, { filters: { user_id: userId }, topK });
      return r.results.map((h) => ({ id: h.id, text: h.memory, score: h.score ?? 0, metadata: h.metadata ?? {} }));
    },
  };
}
