/**
 * The stdio transport (`engram mcp`): JSON-RPC on stdin/stdout. stdout belongs to the protocol, so anything
 * else the process would print goes to stderr. Resolves when the client closes stdin.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer, type McpServerOptions } from './server.js';

export async function serveMcpStdio(opts: McpServerOptions, io: { stdin?: NodeJS.ReadableStream; stdout?: NodeJS.WritableStream } = {}): Promise<void> {
  const stdin = io.stdin ?? process.stdin;
  const server = createMcpServer(opts);
  const transport = new StdioServerTransport(stdin as typeof process.stdin, (io.stdout ?? process.stdout) as typeof process.stdout);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  // StdioServerTransport does not watch for end of input; a client that exits closes our stdin.
  const end = () => void server.close();
  stdin.once('end', end);
  stdin.once('close', end);
  await server.connect(transport);
  await closed;
  stdin.off('end', end);
  stdin.off('close', end);
}
