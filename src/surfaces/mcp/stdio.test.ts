import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUseLiteEmbedder } from '../../adapters/embedders/use-lite.js';
import { documentVectorModel } from '../../write/document-vectors.js';
import { openSqliteStorage } from '../../adapters/storage/sqlite/index.js';
import { ChildProcessTransport } from './child-transport.test-support.js';
import { textOf } from './memory.test-support.js';
import { cliArgs } from '../../../testing/node-entry.js';

const ROOT = resolve(import.meta.dirname, '../../..');
let dir: string;
let db: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'engram-mcp-stdio-'));
  db = join(dir, 'engram.db');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Spawns `engram mcp` exactly as an MCP client config would, and connects the SDK's client to it. */
async function spawnServer(): Promise<{ client: Client; transport: ChildProcessTransport }> {
  const transport = new ChildProcessTransport(
    process.execPath,
    [...cliArgs(), 'mcp', '--db', db, '--user', 'alice', '--session', 'desk-1'],
    ROOT,
  );
  const client = new Client({ name: 'engram-stdio-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

const call = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;

describe('engram mcp over stdio (spawned CLI process)', () => {
  it('serves the tools, stores and finds memories, keeps working memory, and exits cleanly when the client leaves', async () => {
    const { client, transport } = await spawnServer();
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['manage_memory', 'search_memory', 'get_context', 'working_memory_page_out']));

      const stored = await call(client, 'manage_memory', { content: 'The user deploys with Terraform and never uses the web console.', kind: 'preference' });
      expect(stored.isError, textOf(stored)).toBeFalsy();
      const found = await call(client, 'search_memory', { query: 'Terraform deploys' });
      expect((found.structuredContent as { results: { text: string }[] }).results[0]!.text).toContain('Terraform');

      // The default session from --session: no session_id needed.
      const added = await call(client, 'working_memory_append', { content: 'Staging is on Terraform workspace "stg".', kind: 'evidence', source: 'terraform.tfstate' });
      expect(added.isError, textOf(added)).toBeFalsy();
      const view = await call(client, 'working_memory_view', {});
      expect(textOf(view)).toContain('## Evidence Gathered\n- [terraform.tfstate] Staging is on Terraform workspace "stg". (id: e1)');

      const bad = await call(client, 'manage_memory', { action: 'delete' });
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).toMatch(/^VALIDATION: memory_id is required/);
      // Arguments nested 3,000 deep: a typed error, not a stack overflow.
      let deep: unknown = 'leaf';
      for (let i = 0; i < 3_000; i++) deep = [deep];
      const tooDeep = await call(client, 'log_event', { content: 'deep', tool: 'kubectl', args: { nested: deep } });
      expect(tooDeep.isError).toBe(true);
      expect(textOf(tooDeep)).toMatch(/^VALIDATION: .*nests deeper than 64 levels/);
      const badType = await call(client, 'search_memory', { query: 42 });
      expect(badType.structuredContent).toMatchObject({ error: { code: 'VALIDATION', issues: [{ path: 'query' }] } });
      // Still serving after an error.
      expect((await call(client, 'search_memory', { query: 'Terraform' })).isError).toBeFalsy();
    } finally {
      await client.close();
    }
    // Stdin closed: the server drains, closes the database and exits 0 by itself.
    expect(await transport.exited).toBe(0);
    expect(transport.stderr).toBe('');

    // The process drained its embedding backlog and closed the database: the fact is there, with a vector.
    const storage = await openSqliteStorage({ path: db });
    try {
      // The key the server filed its vectors under (USE-lite, 512 dimensions, the default sentence recipe).
      const model = createUseLiteEmbedder({ provider: 'use-lite', workers: 0, batchSize: 1 }).model;
      await storage.init({ embeddingModel: documentVectorModel(model, 'sentences'), dimension: 512 });
      const facts = await storage.listFacts({ tenant: 'default', now: Date.now() });
      expect(facts.map((f) => [f.text, f.userId, f.kind])).toEqual([['The user deploys with Terraform and never uses the web console.', 'alice', 'preference']]);
      expect((await storage.getWorkingMemory('default', 'desk-1', Date.now()))?.version).toBe(1);
      expect(await storage.embeddingBacklog()).toBe(0);
    } finally {
      await storage.close();
    }
  });
});
