/**
 * `createMcpServer`: Engram as an MCP server. One server per connection (stdio) or per request (streamable
 * HTTP, stateless); the tenant is fixed when it is created and no tool argument can change it.
 *
 * Tools: manage_memory, search_memory (seed 003), log_event, get_context, record_outcome, give_feedback,
 * get_feedback_guidance, analyze_conversations, and the working-memory tools (view, append, replace, remove,
 * set_plan, page_out, page_in), and the knowledge graph: the reference memory server's tools (create_entities …
 * open_nodes) and graph_search (tools/graph.ts). Resources: a user's profile, recent episodes (resources.ts). Prompts: a
 * memory-aware system prompt (prompts.ts).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpMemory, McpScope } from './facade.js';
import { registerPrompts } from './prompts.js';
import { registerResources } from './resources.js';
import { installToolCalls, type ToolEnv } from './tool.js';
import { registerFeedbackTools } from './tools/feedback.js';
import { registerGraphTools } from './tools/graph.js';
import { registerMemoryTools } from './tools/memory.js';
import { registerTimelineTools } from './tools/timeline.js';
import { registerWorkingMemoryTools } from './tools/working.js';

export const SERVER_NAME = 'engram';
export const SERVER_VERSION = '0.1.0';

/** Sent to the client at initialisation; many clients add it to the model's system prompt. */
export const INSTRUCTIONS = [
  'Engram is your long-term memory. Use it without being asked:',
  '- When the user shares a preference, fact or detail worth remembering, store it with manage_memory.',
  '- Before answering anything that may depend on earlier conversations, call search_memory (or get_context for a task).',
  '- When the user approves or rejects an answer, record it with give_feedback; before answering a familiar kind of',
  '  request, get_feedback_guidance shows what worked before.',
  '- In long tasks keep your plan and findings in working memory (working_memory_*), and log decisions, errors and',
  '  outcomes with log_event; report how a task went with record_outcome.',
].join('\n');

export interface McpServerOptions extends McpScope {
  memory: McpMemory;
  /** Keep internal failure messages out of tool errors (remote transports). */
  hideInternalErrors?: boolean;
}

export function createMcpServer(opts: McpServerOptions): McpServer {
  const server = new McpServer({ name: SERVER_NAME, version: SERVER_VERSION }, { instructions: INSTRUCTIONS, capabilities: { tools: {}, resources: {}, prompts: {} } });
  const env: ToolEnv = {
    memory: opts.memory,
    scope: { tenant: opts.tenant, userId: opts.userId, agentId: opts.agentId, sessionId: opts.sessionId },
    hideInternal: opts.hideInternalErrors ?? false,
  };
  registerMemoryTools(server, env);
  registerTimelineTools(server, env);
  registerFeedbackTools(server, env);
  registerWorkingMemoryTools(server, env);
  registerGraphTools(server, env);
  registerResources(server, env);
  registerPrompts(server, env);
  installToolCalls(server, env);
  return server;
}
