/**
 * MCP prompts. `memory_system_prompt`: a system prompt that tells the model how to use Engram, what is known
 * about the user, and (given a task) the budgeted context for it, so a client can start a conversation
 * memory-aware in one step.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { profileText } from './resources.js';
import { INSTRUCTIONS } from './server.js';
import type { ToolEnv } from './tool.js';

const PROFILE_FACTS = 30;

export function registerPrompts(server: McpServer, env: ToolEnv): void {
  const { memory, scope } = env;
  server.registerPrompt(
    'memory_system_prompt',
    {
      title: 'Memory-aware system prompt',
      description: "Engram's usage rules, the user's profile and (with a task) the relevant memories, as one system prompt",
      argsSchema: {
        task: z.string().max(10_000).optional().describe('What the conversation is about; adds the relevant memories and their retrieval_id'),
        user_id: z.string().max(200).optional().describe('The user (default: the server’s)'),
      },
    },
    async (args) => {
      const userId = args.user_id || scope.userId;
      const parts = [INSTRUCTIONS];
      if (userId && memory.userFacts) {
        parts.push(profileText(userId, await memory.userFacts({ tenant: scope.tenant, userId, limit: PROFILE_FACTS })));
      }
      if (args.task) {
        const ctx = await memory.getContext(args.task, {
          ...(scope.tenant ? { tenant: scope.tenant } : {}),
          ...(userId || scope.sessionId ? { scope: { ...(userId ? { user_id: userId } : {}), ...(scope.sessionId ? { session_id: scope.sessionId } : {}) } } : {}),
        });
        parts.push(`Relevant memories for "${args.task}" (retrieval_id ${ctx.retrievalId}; report how it went with record_outcome):\n${ctx.text || '(none yet)'}`);
      }
      return {
        description: 'A memory-aware system prompt',
        messages: [{ role: 'user', content: { type: 'text', text: parts.join('\n\n') } }],
      };
    },
  );
}
