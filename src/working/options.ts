/** Tunables of working memory, with their defaults, parsed once when the capability is built. */
import { z } from 'zod';
import { parseWith } from '../core/validate.js';

const priority = z.number().min(0).max(10);

export const workingMemoryOptionsSchema = z
  .object({
    /** The cap: `toContext()` never renders more tokens than this. */
    maxTokens: z.number().int().min(20).max(200_000).default(2000),
    /**
     * What happens to turns that leave the window (seed 002): `sliding_window` drops them; `summarize` folds
     * them into a running summary (extractive by default, the LLM when one is configured).
     */
    history: z.enum(['sliding_window', 'summarize']).default('summarize'),
    /** Turns kept verbatim. */
    windowTurns: z.number().int().min(1).max(500).default(12),
    /** Turns folded at once when the window overflows (the seed folds "the oldest 10 turns"); at most windowTurns. */
    foldTurns: z.number().int().min(1).max(500).default(10),
    summaryMaxTokens: z.number().int().min(10).max(20_000).default(300),
    /** Seed 002's entity extraction: key facts ("User Name: Alice", "Goal: Fix bug") kept in a state dictionary. */
    entities: z.boolean().default(true),
    maxEntities: z.number().int().min(1).max(200).default(24),
    /** Longest single item or turn; longer content is cut. Default: half the cap. */
    maxItemTokens: z.number().int().min(5).max(100_000).optional(),
    /** A session's scratchpad expires this long after its last change; 0 keeps it until cleared. */
    ttlMinutes: z.number().min(0).max(5_256_000).default(7 * 24 * 60),
    /** Default priorities (0–10, higher is kept longer). Turns go first: the summary keeps their gist. */
    priorities: z
      .object({
        turn: priority.default(0),
        note: priority.default(1),
        paged_in: priority.default(1),
        evidence: priority.default(2),
        entity: priority.default(3),
      })
      .strict()
      .prefault({}),
    /** Use the configured LLM for summaries and entity extraction (heuristics otherwise). */
    useLlm: z.boolean().default(true),
  })
  .strict()
  .refine((o) => o.foldTurns <= o.windowTurns, { message: 'foldTurns must not exceed windowTurns', path: ['foldTurns'] });

export type WorkingMemoryOptionsInput = z.input<typeof workingMemoryOptionsSchema>;
export type WorkingMemoryOptions = z.output<typeof workingMemoryOptionsSchema> & { maxItemTokens: number };

export function parseWorkingMemoryOptions(input: unknown): WorkingMemoryOptions {
  const o = parseWith(workingMemoryOptionsSchema, input ?? {}, { what: 'working memory options', code: 'CONFIG' });
  return { ...o, maxItemTokens: o.maxItemTokens ?? Math.max(5, Math.floor(o.maxTokens / 2)) };
}
