/**
 * Test support (not a test): a real `Memory` on a SQLite file in a temp dir (USE-lite on the main thread, the
 * heuristic reranker), with feedback examples and working memory attached, and an MCP client connected to a
 * server over it through the SDK's in-memory transport.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createUseLiteEmbedder } from '../../adapters/embedders/use-lite.js';
import { createHeuristicReranker } from '../../adapters/rerankers/heuristic.js';
import { openSqliteStorage } from '../../adapters/storage/sqlite/index.js';
import { createMemory, type Memory } from '../../memory.js';
import type { McpMemory } from './facade.js';
import { withLearning } from './learn-deps.js';
import { createMcpServer, type McpServerOptions } from './server.js';

export interface TestMemory {
  memory: Memory;
  facade: McpMemory;
  dir: string;
  close(): Promise<void>;
}

export async function openTestMemory(): Promise<TestMemory> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-mcp-'));
  const storage = await openSqliteStorage({ path: join(dir, 'engram.db') });
  const memory = await createMemory({
    storage,
    embedder: createUseLiteEmbedder({ provider: 'use-lite', workers: 0, batchSize: 32 }),
    reranker: createHeuristicReranker(),
    config: { retention: { sweepIntervalMinutes: 0 } },
  });
  return {
    memory,
    facade: withLearning(memory),
    dir,
    close: async () => {
      await memory.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface TestClient {
  client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

export async function connectClient(opts: McpServerOptions): Promise<TestClient> {
  const server = createMcpServer(opts);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'engram-test', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return {
    client,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

export function textOf(r: CallToolResult): string {
  return r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}
