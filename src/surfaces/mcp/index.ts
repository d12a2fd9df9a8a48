/** Engram as an MCP server: tools over the facade, on stdio or streamable HTTP. */
export { createMcpServer, INSTRUCTIONS, SERVER_NAME, SERVER_VERSION, type McpServerOptions } from './server.js';
export { serveMcpStdio } from './stdio.js';
export { createMcpHttpHandler, type McpHttpHandler, type McpHttpOptions } from './http.js';
export { withLearning, learnDepsFromMemory, type LearnDepsOptions } from './learn-deps.js';
export { toolError } from './errors.js';
export type { McpMemory, McpScope } from './facade.js';
