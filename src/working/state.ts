/**
 * The working-memory state of one session (seed 004's bounded working memory, with seed 002's history
 * strategies): a plan, items (evidence with its source, notes, memories paged in from long-term memory), a
 * state dictionary of key facts, the recent turns and a summary of the turns folded out of the window.
 * Stored whole as JSON under an optimistic version (`WorkingMemoryRecord.state`).
 *
 * Every evictable unit has a priority (higher = kept longer); eviction takes the lowest first, oldest first
 * on a tie. Plan and summary are not evicted, only shortened as a last resort (see fit.ts).
 */
import { z } from 'zod';
import { EngramError } from '../core/errors.js';
import type { JsonObject } from '../core/types.js';

export const ITEM_KINDS = ['note', 'evidence', 'paged_in'] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];

export const TURN_ROLES = ['user', 'agent', 'tool', 'system'] as const;
export type TurnRole = (typeof TURN_ROLES)[number];

/** Short ids a model can quote back: n = note, e = evidence, m = memory paged in. */
export const ID_LETTER: Record<ItemKind, string> = { note: 'n', evidence: 'e', paged_in: 'm' };

const itemSchema = z.object({
  id: z.string(),
  kind: z.enum(ITEM_KINDS),
  content: z.string(),
  source: z.string().optional(),
  priority: z.number(),
  addedAt: z.number(),
});

const turnSchema = z.object({ role: z.enum(TURN_ROLES), content: z.string(), at: z.number() });

const entitySchema = z.object({ key: z.string(), value: z.string(), updatedAt: z.number() });

export const workingStateSchema = z.object({
  plan: z.string().optional(),
  items: z.array(itemSchema).default([]),
  entities: z.array(entitySchema).default([]),
  summary: z.string().optional(),
  turns: z.array(turnSchema).default([]),
  nextId: z.number().int().min(1).default(1),
  /** How many units eviction and the window have removed over the session's life. */
  evictedCount: z.number().int().min(0).default(0),
  /**
   * The users who wrote to the scratchpad (a session ref with `userId`): a record keyed by session carries no
   * user, and `forget` of a user finds their scratchpads by this even where they left no event or fact.
   */
  userIds: z.array(z.string()).optional(),
});

export type WmItem = z.infer<typeof itemSchema>;
export type WmTurn = z.infer<typeof turnSchema>;
export type WmEntity = z.infer<typeof entitySchema>;
export type WorkingState = z.infer<typeof workingStateSchema>;

export function emptyState(): WorkingState {
  return { items: [], entities: [], turns: [], nextId: 1, evictedCount: 0 };
}

export function parseState(json: JsonObject, sessionId: string): WorkingState {
  const r = workingStateSchema.safeParse(json);
  if (!r.success) {
    throw new EngramError('ADAPTER', `stored working memory of session ${sessionId} is not readable: ${r.error.issues[0]?.message ?? 'invalid'}`, {
      details: { sessionId },
    });
  }
  return r.data;
}

/** JSON for storage: optional fields that are unset are left out rather than stored as null. */
export function stateToJson(s: WorkingState): JsonObject {
  return JSON.parse(JSON.stringify(s)) as JsonObject;
}

export function cloneState(s: WorkingState): WorkingState {
  return structuredClone(s);
}
