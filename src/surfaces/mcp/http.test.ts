import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpHttpHandler } from './http.js';
import { openTestMemory, textOf, type TestMemory } from './memory.test-support.js';

let m: TestMemory;
let server: ServerType;
let base: string;

/** Mounted the way the REST server does: the tenant comes from the caller's key (here a test header). */
beforeAll(async () => {
  m = await openTestMemory();
  const mcp = createMcpHttpHandler({ memory: () => m.facade });
  const app = new Hono();
  app.all('/mcp', (c) => {
    const tenant = c.req.header('x-test-tenant');
    if (!tenant) return c.json({ error: 'no key' }, 401);
    return mcp(c.req.raw, { tenant });
  });
  server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  await m.close();
});

async function connect(tenant: string): Promise<{ client: Client; call: (name: string, args: Record<string, unknown>) => Promise<CallToolResult> }> {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { 'x-test-tenant': tenant } } });
  const client = new Client({ name: 'engram-http-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, call: async (name, args) => (await client.callTool({ name, arguments: args })) as CallToolResult };
}

describe('MCP over streamable HTTP (stateless handler on a real loopback server)', () => {
  it('lists tools, stores a fact and finds it by meaning, per tenant', async () => {
    const a = await connect('tenant-a');
    const b = await connect('tenant-b');
    try {
      expect((await a.client.listTools()).tools.map((t) => t.name)).toContain('manage_memory');
      const stored = await a.call('manage_memory', { content: 'Our on-call rotation changes every Monday at 9am.' });
      expect(stored.isError, textOf(stored)).toBeFalsy();
      await m.memory.flush();
      const found = await a.call('search_memory', { query: 'when does the pager duty schedule switch?' });
      expect((found.structuredContent as { results: { text: string }[] }).results[0]!.text).toBe('Our on-call rotation changes every Monday at 9am.');
      const other = await b.call('search_memory', { query: 'when does the pager duty schedule switch?' });
      expect((other.structuredContent as { results: unknown[] }).results).toEqual([]);
    } finally {
      await a.client.close();
      await b.client.close();
    }
  });

  it('keeps internal failure messages out of remote tool errors but names client mistakes', async () => {
    const a = await connect('tenant-a');
    try {
      const bad = await a.call('working_memory_append', { session_id: 's', content: 'x', kind: 'evidence' });
      expect(textOf(bad)).toBe('VALIDATION: invalid working memory item: source: evidence needs its source');
      expect(bad.structuredContent).toMatchObject({ error: { code: 'VALIDATION', issues: [{ path: 'source' }] } });
    } finally {
      await a.client.close();
    }
  });

  it('answers GET and DELETE with 405, and malformed JSON with a JSON-RPC error, without falling over', async () => {
    const headers = { 'x-test-tenant': 'tenant-a', accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
    expect((await fetch(`${base}/mcp`, { headers })).status).toBe(405);
    expect((await fetch(`${base}/mcp`, { method: 'DELETE', headers })).status).toBe(405);
    const broken = await fetch(`${base}/mcp`, { method: 'POST', headers, body: '{"jsonrpc":"2.0",' });
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { error: { code: number } }).error.code).toBe(-32700);
    const a = await connect('tenant-a');
    expect((await a.client.listTools()).tools.length).toBeGreaterThan(10);
    await a.client.close();
  });
});
