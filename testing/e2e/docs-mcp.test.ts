/**
 * The stdio client configurations in docs/mcp.md work as written from a clone: each one is read from the doc,
 * the placeholders replaced (the clone's path, a scratch database), and started the way an MCP client starts it.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'engram-docs-mcp-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface ServerConfig {
  command: string;
  args: string[];
}

/** The `mcpServers.engram` entries of the doc's JSON blocks that start a local process. */
function stdioConfigs(): ServerConfig[] {
  const doc = readFileSync(join(ROOT, 'docs', 'mcp.md'), 'utf8');
  return [...doc.matchAll(/```json\n([\s\S]*?)```/g)]
    .map((m) => (JSON.parse(m[1]!) as { mcpServers: { engram: Partial<ServerConfig> } }).mcpServers.engram)
    .filter((c): c is ServerConfig => c.command === 'node' && Array.isArray(c.args));
}

describe('docs/mcp.md stdio configurations', () => {
  const configs = stdioConfigs();

  it('the doc shows at least the Claude Desktop and Cursor configurations', () => {
    expect(configs.length).toBeGreaterThanOrEqual(2);
    expect(existsSync(join(ROOT, 'dist', 'surfaces', 'cli', 'main.js')), 'dist/ is built by npm install (npm run build)').toBe(true);
  });

  it.each(configs.map((c, i) => [i, c] as const))('configuration %i starts a server that stores and finds a memory', async (i, config) => {
    const db = join(dir, `memory-${i}.db`);
    const args = config.args.map((a) => a.replace('/path/to/engram', ROOT).replace(/^\/Users\/alice\/\.engram\/memory\.db$/, db));
    expect(args).toContain(db);
    const client = new Client({ name: 'docs-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args, cwd: dir, stderr: 'ignore' }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['manage_memory', 'search_memory', 'get_context']));
      await client.callTool({ name: 'manage_memory', arguments: { content: 'The user prefers zsh over bash.', kind: 'preference' } });
      const found = (await client.callTool({ name: 'search_memory', arguments: { query: 'which shell does the user like?' } })) as { content: { text: string }[] };
      expect(found.content.map((c) => c.text).join('\n')).toContain('zsh');
    } finally {
      await client.close();
    }
  }, 120_000);
});
