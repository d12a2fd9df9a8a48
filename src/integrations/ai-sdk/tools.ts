/**
 * Vercel AI SDK tools over Engram: the model decides when to remember, recall, read its context and report how
 * an answer went. Each is an ordinary `tool({ description, inputSchema, execute })`; pass them to generateText /
 * streamText / an Agent as `tools: engramTools({ memory, userId })`.
 */
import { tool } from 'ai';
import { z } from 'zod';
import { FACT_KINDS, OUTCOMES } from '../../core/types.js';
import { contextScopeOf, scopeOf, type EngramAiOptions } from './scope.js';

export function engramTools(opts: EngramAiOptions) {
  const { memory } = opts;
  const scope = scopeOf(opts);
  return {
    remember: tool({
      description: 'Store a durable memory about the user or the task (a fact, a preference, a lesson) so later conversations can use it.',
      inputSchema: z.object({
        text: z.string().min(1).describe('The memory, as one self-contained sentence.'),
        kind: z.enum(FACT_KINDS).optional().describe('fact (default), preference, heuristic, insight or chunk.'),
        tags: z.array(z.string().min(1)).max(16).optional(),
      }),
      execute: async ({ text, kind, tags }) => {
        const r = await memory.remember({ ...scope, text, ...(kind ? { kind } : {}), ...(tags ? { tags } : {}), source: 'ai-sdk' });
        return { id: r.fact.id, status: r.status };
      },
    }),
    recall: tool({
      description: 'Search long-term memory (facts, past conversation, episodes) for what is relevant to a query.',
      inputSchema: z.object({
        query: z.string().min(1),
        limit: z.number().int().min(1).max(50).optional(),
      }),
      execute: async ({ query, limit }) => {
        const hits = await memory.search({ ...scope, query, k: limit ?? 5 });
        return hits.map((h) => ({ id: h.doc.refId, kind: h.doc.kind, text: h.doc.text, score: h.score }));
      },
    }),
    context: tool({
      description:
        'Get the memory context for a task: recent conversation plus relevant facts and past episodes, ranked and budgeted. Returns a retrieval_id to report the outcome with.',
      inputSchema: z.object({ query: z.string().min(1) }),
      execute: async ({ query }) => {
        const cs = contextScopeOf(opts);
        const ctx = await memory.getContext(query, { ...(opts.tenant ? { tenant: opts.tenant } : {}), ...(cs ? { scope: cs } : {}) });
        return { retrieval_id: ctx.retrievalId, text: ctx.text, items: ctx.items.length };
      },
    }),
    recordOutcome: tool({
      description: 'Report how the task that used a retrieval went (SUCCESS, FAILURE, PARTIAL, UNKNOWN), with an optional correction, so memory learns from it.',
      inputSchema: z.object({
        retrieval_id: z.string().min(1),
        outcome: z.enum(OUTCOMES),
        details: z.string().optional(),
        correction: z.string().optional(),
      }),
      execute: async ({ retrieval_id, outcome, details, correction }) => {
        const r = await memory.recordOutcome(retrieval_id, outcome, {
          ...(opts.tenant ? { tenant: opts.tenant } : {}),
          ...(details ? { details } : {}),
          ...(correction ? { correction } : {}),
        });
        return { episode_id: r.episodeId, outcome: r.outcome, facts_updated: r.facts.length, links: r.links.length };
      },
    }),
  };
}
