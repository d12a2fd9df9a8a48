/**
 * One way to declare a tool: a zod input shape (validated by the SDK before the handler runs, and published
 * as the tool's JSON Schema), a description written for the model, and a handler that returns text for the
 * model plus structured data for programs. Errors become tool errors (errors.ts).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ErrorCode, McpError, type CallToolResult, type ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { EngramError } from '../../core/errors.js';
import { assertSafeJson } from '../../core/safe-keys.js';
import { parseWith } from '../../core/validate.js';
import { toolError } from './errors.js';
import type { McpMemory, McpScope } from './facade.js';

export interface ToolEnv {
  memory: McpMemory;
  scope: McpScope;
  hideInternal: boolean;
  /** Every tool's validator and handler, for the tools/call handler installed by `installToolCalls`. */
  tools?: Map<string, (args: unknown) => Promise<CallToolResult>>;
}

export interface ToolReply {
  text: string;
  data?: Record<string, unknown>;
}

export interface ToolDef<S extends z.ZodRawShape> {
  title: string;
  description: string;
  input: S;
  annotations?: ToolAnnotations;
}

export function addTool<S extends z.ZodRawShape>(
  server: McpServer,
  env: ToolEnv,
  name: string,
  def: ToolDef<S>,
  run: (args: z.output<z.ZodObject<S>>, env: ToolEnv) => Promise<ToolReply>,
): void {
  // Strict: an argument the tool does not take is an error naming it, never silently dropped.
  const schema = z.strictObject(def.input);
  const handler = async (raw: unknown): Promise<CallToolResult> => {
    try {
      const r = await run(checkArgs(schema, raw, name), env);
      return { content: [{ type: 'text', text: r.text }], ...(r.data ? { structuredContent: r.data } : {}) };
    } catch (e) {
      return toolError(e, { hideInternal: env.hideInternal });
    }
  };
  (env.tools ??= new Map()).set(name, handler);
  // The SDK publishes the schema in tools/list; tools/call is ours (installToolCalls), so every rejected
  // argument is an Engram VALIDATION error naming its path, not the SDK's bare -32602 text.
  server.registerTool(name, { title: def.title, description: def.description, inputSchema: def.input, annotations: def.annotations }, handler as never);
}

/** Depth and `__proto__` first (a recursive schema would overflow on deep nesting), then the tool's schema. */
function checkArgs<S extends z.ZodRawShape>(schema: z.ZodObject<S>, raw: unknown, tool: string): z.output<z.ZodObject<S>> {
  assertSafeJson(raw);
  const takes = Object.keys(schema.shape);
  const unknown = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? Object.keys(raw).filter((k) => !takes.includes(k)) : [];
  if (unknown.length > 0) {
    throw new EngramError('VALIDATION', `unknown argument(s) ${unknown.join(', ')}: ${tool} takes ${takes.join(', ')}`, {
      issues: unknown.map((k) => ({ path: k, message: 'unknown argument' })),
      details: { asSent: true },
    });
  }
  return parseWith(schema, raw ?? {}, { what: `arguments for ${tool}` });
}

/**
 * Replaces the SDK's tools/call handler with one that runs our validation (see addTool). Unknown tools stay a
 * protocol error (-32602), as the SDK answers them.
 */
export function installToolCalls(server: McpServer, env: ToolEnv): void {
  const tools = env.tools ?? new Map();
  server.server.removeRequestHandler('tools/call');
  server.server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const run = tools.get(request.params.name);
    if (!run) throw new McpError(ErrorCode.InvalidParams, `Tool ${request.params.name} not found`);
    return run(request.params.arguments ?? {});
  });
}

/** A capability the facade may lack: a clear tool error rather than a crash or a silent no-op. */
export function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new EngramError('UNAVAILABLE', `${what} is not available on this Engram server`);
  return value;
}

/** The session a working-memory tool acts on: the argument, else the server's default. */
export function sessionOf(args: { session_id?: string | undefined }, env: ToolEnv): string {
  const s = args.session_id ?? env.scope.sessionId;
  if (!s) {
    throw new EngramError('VALIDATION', 'session_id is required (this server has no default session)', {
      issues: [{ path: 'session_id', message: 'required' }],
    });
  }
  return s;
}

const id = z.string().min(1).max(200);
/** Scope arguments shared by tools; descriptions tell the model when to pass them. */
export const scopeArgs = {
  user_id: id.optional().describe('The user this memory belongs to. Omit to use the server default.'),
  session_id: id.optional().describe('The current conversation/session id. Omit to use the server default.'),
  agent_id: id.optional().describe('The agent asking. Omit to use the server default.'),
  scope_mode: z
    .enum(['layered', 'strict'])
    .optional()
    .describe("'layered' (default): this session's turns plus the user's, the agent's and shared memories; 'strict': only memories of exactly this scope"),
};

/** Reading at a time (docs/scopes.md#time). */
export const timeArgs = {
  as_of: z.string().min(1).max(40).optional().describe('Valid time (ISO-8601): answer as the world was then, e.g. where the user lived on that date'),
  known_at: z.string().min(1).max(40).optional().describe('Transaction time (ISO-8601): answer only from what had been recorded by then'),
};

/** The time arguments as the library takes them (ISO-8601 strings; the library validates them). */
export function timesOf(args: { as_of?: string | undefined; known_at?: string | undefined }): { asOf?: string; knownAt?: string } {
  return { ...(args.as_of !== undefined ? { asOf: args.as_of } : {}), ...(args.known_at !== undefined ? { knownAt: args.known_at } : {}) };
}

/** The caller's identity for a read: arguments, else the server's defaults. */
export function identityOf(args: { user_id?: string | undefined; agent_id?: string | undefined; session_id?: string | undefined }, env: ToolEnv) {
  return {
    userId: args.user_id ?? env.scope.userId,
    agentId: args.agent_id ?? env.scope.agentId,
    sessionId: args.session_id ?? env.scope.sessionId,
  };
}

export function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
