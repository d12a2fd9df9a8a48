/**
 * One way to declare a tool: a zod input shape (validated by the SDK before the handler runs, and published
 * as the tool's JSON Schema), a description written for the model, and a handler that returns text for the
 * model plus structured data for programs. Errors become tool errors (errors.ts).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { EngramError } from '../../core/errors.js';
import { toolError } from './errors.js';
import type { McpMemory, McpScope } from './facade.js';

export interface ToolEnv {
  memory: McpMemory;
  scope: McpScope;
  hideInternal: boolean;
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
  const handler = async (args: z.output<z.ZodObject<S>>): Promise<CallToolResult> => {
    try {
      const r = await run(args, env);
      return { content: [{ type: 'text', text: r.text }], ...(r.data ? { structuredContent: r.data } : {}) };
    } catch (e) {
      return toolError(e, { hideInternal: env.hideInternal });
    }
  };
  // Strict: an argument the tool does not take is an error naming it, never silently dropped.
  const takes = Object.keys(def.input).join(', ');
  const inputSchema = z.strictObject(def.input, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown argument(s) ${issue.keys.join(', ')}: ${name} takes ${takes}` : undefined),
  });
  server.registerTool(name, { title: def.title, description: def.description, inputSchema, annotations: def.annotations }, handler as never);
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
};

export function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
