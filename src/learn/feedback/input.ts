/** Input schemas of the feedback-example API, parsed once at its edge (errors name the failing field). */
import { z } from 'zod';
import { assertCleanText } from '../../core/text.js';
import { parseWith } from '../../core/validate.js';
import { scopeInputSchema } from '../../write/input.js';

/** Long enough for a full answer with code; longer texts are not a useful few-shot example anyway. */
export const MAX_EXAMPLE_CHARS = 20_000;
export const MAX_TURNS = 400;

const text = (max: number) => z.string().max(max).refine((t) => t.trim() !== '', 'must not be blank');

/** The write path's scope ids (no control characters, at most 200 characters). */
export const scopeFields = scopeInputSchema.shape;

export const feedbackInputSchema = z
  .object({
    ...scopeFields,
    query: text(MAX_EXAMPLE_CHARS),
    response: text(MAX_EXAMPLE_CHARS),
    feedback: z.enum(['positive', 'negative']),
    reason: z.string().max(2000).optional(),
  })
  .strict();

export type FeedbackInput = z.input<typeof feedbackInputSchema>;

export const TURN_ROLES = ['user', 'agent', 'assistant', 'tool', 'system'] as const;

export const turnSchema = z
  .object({
    role: z.enum(TURN_ROLES),
    content: z.string().max(MAX_EXAMPLE_CHARS),
    /** Tool name, for tool turns: successful examples keep which tools the answer used. */
    tool: z.string().min(1).max(200).optional(),
  })
  .strict();

export type TurnInput = z.input<typeof turnSchema>;

export const analyzeInputSchema = z
  .object({
    ...scopeFields,
    /** The conversation, oldest first. Without it, the session's messages are read from the timeline. */
    turns: z.array(turnSchema).max(MAX_TURNS).optional(),
    /** Store what was found (default) or only report it. */
    store: z.boolean().default(true),
    /** Use the configured LLM when there is one (default), or force the heuristic reading. */
    useLlm: z.boolean().default(true),
  })
  .strict()
  .refine((a) => a.turns !== undefined || a.sessionId !== undefined, {
    message: 'give the turns, or a sessionId whose messages to analyse',
    path: ['turns'],
  });

export type AnalyzeInput = z.input<typeof analyzeInputSchema>;

export const similarInputSchema = z
  .object({
    tenant: scopeFields.tenant,
    userId: scopeFields.userId,
    agentId: scopeFields.agentId,
    query: text(10_000),
    /** Examples per polarity. */
    k: z.number().int().min(1).max(20).default(3),
    /** Similarity in 0..1 an example needs to count as "similar" (see similar.ts). */
    minSimilarity: z.number().min(0).max(1).optional(),
  })
  .strict();

export type SimilarInput = z.input<typeof similarInputSchema>;

export const guidanceOptionsSchema = similarInputSchema
  .omit({ query: true })
  .extend({ maxTokens: z.number().int().min(50).max(20_000).default(800) })
  .strict();

export type GuidanceOptions = z.input<typeof guidanceOptionsSchema>;

export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const parsed = parseWith(schema, input, { what });
  for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
    if (typeof value === 'string') assertCleanText(value, key);
  }
  return parsed;
}
