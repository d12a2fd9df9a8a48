/** MCP over streamable HTTP on the same server: a real SDK client, keyed by tenant like every route. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './server.test-support.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => t.close());

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: 'engram-test', version: '0.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } });
  await client.connect(transport);
  return client;
}

const text = (r: unknown) => ((r as { content: { type: string; text: string }[] }).content[0]?.text ?? '');

describe('MCP at /mcp', () => {
  it('stores with manage_memory and finds it paraphrased with search_memory, inside the key’s tenant only', async () => {
    const a = await connect(await t.keyFor('acme'));
    const tools = (await a.listTools()).tools.map((x) => x.name);
    expect(tools).toEqual(expect.arrayContaining(['manage_memory', 'search_memory', 'log_event', 'get_context', 'record_outcome', 'give_feedback']));
    const stored = await a.callTool({ name: 'manage_memory', arguments: { action: 'create', content: 'The user prefers dark mode in every editor.' } });
    expect(stored.isError).toBeFalsy();
    const found = await a.callTool({ name: 'search_memory', arguments: { query: 'what colour theme does the user like for coding tools' } });
    expect(text(found)).toContain('dark mode');

    const b = await connect(await t.keyFor('globex'));
    const other = await b.callTool({ name: 'search_memory', arguments: { query: 'what colour theme does the user like for coding tools' } });
    expect(text(other)).not.toContain('dark mode');
    await a.close();
    await b.close();
  });

  it('refuses a client without a key', async () => {
    const res = await fetch(`${t.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(401);
  });
});
