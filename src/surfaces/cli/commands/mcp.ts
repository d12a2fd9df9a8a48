/**
 * `engram mcp`: Engram as an MCP server on stdio, for MCP clients (Claude Desktop, Cursor …) that start it as
 * a subprocess. stdout carries only the protocol: console output is sent to stderr before anything loads.
 * Runs until the client closes stdin, then drains the embedding backlog and closes the database.
 */
import type { Command } from 'commander';
import { openMemory } from '../../../open.js';
import { resolveServeConfig } from './config.js';

interface McpOptions {
  config?: string;
  user?: string;
  agent?: string;
  session?: string;
}

/** Anything printed with console.* would corrupt the JSON-RPC stream on stdout. */
function keepStdoutForProtocol(): void {
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
}

export function registerMcp(program: Command): void {
  program
    .command('mcp')
    .description('run the MCP server on stdio (tools: manage_memory, search_memory, get_context, working memory …)')
    .option('--config <path>', 'configuration file (default: ./engram.config.json when it exists, or $ENGRAM_CONFIG)')
    .option('--user <id>', 'default user_id for memories the tools store and search')
    .option('--agent <id>', 'default agent_id')
    .option('--session <id>', 'default session_id (working memory, feedback)')
    .action(async (o: McpOptions, cmd: Command) => {
      keepStdoutForProtocol();
      // The MCP SDK loads only for this command, so every other command starts without it.
      const [{ withLearning }, { serveMcpStdio }] = await Promise.all([import('../../mcp/learn-deps.js'), import('../../mcp/stdio.js')]);
      // The same configuration as `engram serve` (flags > ENGRAM_* env > engram.config.json > defaults).
      const { server: _server, ...engramConfig } = resolveServeConfig(cmd, { ...(o.config ? { config: o.config } : {}) }).config;
      const memory = await openMemory(
        engramConfig,
        { onBackgroundError: (e) => process.stderr.write(`engram mcp: background task failed: ${e instanceof Error ? e.message : String(e)}\n`) },
      );
      try {
        await serveMcpStdio({
          memory: withLearning(memory),
          tenant: memory.config.defaultTenant,
          userId: o.user,
          agentId: o.agent,
          sessionId: o.session,
        });
        await memory.flush();
      } finally {
        await memory.close();
      }
    });
}
