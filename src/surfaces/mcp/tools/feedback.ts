/**
 * Seed 003's episodic examples: `give_feedback` records the user's verdict on an answer (same verdict again
 * removes it, the other verdict flips it), `get_feedback_guidance` shows what worked and what did not for
 * similar requests, `analyze_conversations` mines the latest conversations for implicit feedback.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { TURN_ROLES } from '../../../learn/feedback/input.js';
import { addTool, need, scopeArgs, type ToolEnv } from '../tool.js';

const FEEDBACK = [
  'Record the user’s verdict on one of your answers as a positive or negative example, so similar future requests',
  'follow what worked and avoid what did not. Call it when the user clearly approves ("perfect, thanks", "that',
  'works") or rejects/corrects an answer ("that\'s wrong", "not what I asked"), passing their original request as',
  'query and your final answer as response. Giving the same feedback again on the same pair removes the example;',
  'giving the other feedback flips it.',
].join(' ');

const GUIDANCE = [
  'Look up past answers to similar requests that the user approved or rejected, formatted as "Follow" and "Avoid"',
  'guidance. Call it before answering a request that resembles earlier ones, and reuse the format, tools and style',
  'of approved answers while avoiding the approaches of rejected ones.',
].join(' ');

const ANALYZE = [
  'Analyse the latest four conversations of a session for implicit feedback (thanks, corrections, rejections) and',
  'store the query → final answer pairs the user judged as examples. Clarifications, format and meta requests are',
  'not treated as queries; answers the user moved on from without judging are ignored. Call it at the end of a',
  'session, or pass the turns explicitly.',
].join(' ');

export function registerFeedbackTools(server: McpServer, env: ToolEnv): void {
  addTool(
    server,
    env,
    'give_feedback',
    {
      title: 'Give feedback',
      description: FEEDBACK,
      input: {
        query: z.string().min(1).max(20_000).describe("The user's original request"),
        response: z.string().min(1).max(20_000).describe('The final answer the verdict is about'),
        feedback: z.enum(['positive', 'negative']),
        reason: z.string().min(1).max(2000).optional().describe('Why, in a few words (e.g. the user’s correction)'),
        ...scopeArgs,
      },
      annotations: { destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    async (a, { memory, scope }) => {
      const examples = need(memory.examples, 'give_feedback (feedback examples)');
      const r = await examples.giveFeedback({
        tenant: scope.tenant,
        userId: a.user_id ?? scope.userId,
        agentId: scope.agentId,
        sessionId: a.session_id ?? scope.sessionId,
        query: a.query,
        response: a.response,
        feedback: a.feedback,
        ...(a.reason ? { reason: a.reason } : {}),
      });
      const what =
        r.action === 'created'
          ? `Stored a ${r.example.polarity} example (${r.example.id}).`
          : r.action === 'flipped'
            ? `Changed example ${r.example.id} to ${r.example.polarity}.`
            : `Removed example ${r.example.id} (the same feedback was given again).`;
      return { text: what, data: { action: r.action, example_id: r.example.id, polarity: r.example.polarity } };
    },
  );

  addTool(
    server,
    env,
    'get_feedback_guidance',
    {
      title: 'Get feedback guidance',
      description: GUIDANCE,
      input: {
        query: z.string().min(1).max(10_000).describe('The request you are about to answer'),
        k: z.number().int().min(1).max(10).default(3).describe('Examples of each kind (default 3)'),
        user_id: scopeArgs.user_id,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (a, { memory, scope }) => {
      const examples = need(memory.examples, 'get_feedback_guidance (feedback examples)');
      const g = await examples.guidance(a.query, { tenant: scope.tenant, userId: a.user_id ?? scope.userId, agentId: scope.agentId, k: a.k });
      return {
        text: g.text || 'No past feedback on similar requests.',
        data: { follow: g.followIds, avoid: g.avoidIds, tokens: g.tokens },
      };
    },
  );

  addTool(
    server,
    env,
    'analyze_conversations',
    {
      title: 'Analyze conversations',
      description: ANALYZE,
      input: {
        turns: z
          .array(z.object({ role: z.enum(TURN_ROLES), content: z.string().max(20_000), tool: z.string().min(1).max(200).optional() }))
          .max(400)
          .optional()
          .describe('The conversation, oldest first; omit to read the session’s messages from the timeline'),
        ...scopeArgs,
      },
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (a, { memory, scope }) => {
      const examples = need(memory.examples, 'analyze_conversations (feedback examples)');
      const r = await examples.analyzeConversations({
        tenant: scope.tenant,
        userId: a.user_id ?? scope.userId,
        agentId: scope.agentId,
        sessionId: a.session_id ?? scope.sessionId,
        ...(a.turns ? { turns: a.turns } : {}),
      });
      const lines = r.examples.map((e) => `- ${e.polarity} (${e.action ?? 'found'}): "${e.query}" → "${e.response.slice(0, 120)}"`);
      return {
        text: r.examples.length ? `Found ${r.examples.length} judged answers in ${r.conversations} conversations:\n${lines.join('\n')}` : `No judged answers in ${r.conversations} conversations.`,
        data: {
          analyzer: r.analyzer,
          conversations: r.conversations,
          examples: r.examples.map((e) => ({ polarity: e.polarity, action: e.action ?? null, example_id: e.exampleId ?? null, query: e.query, response: e.response })),
        },
      };
    },
  );
}
