/** Input schemas of the working-memory API (errors name the failing field). */
import { z } from 'zod';
import { DOC_KINDS } from '../core/types.js';
import { scopeInputSchema } from '../write/input.js';

const MAX_TEXT = 20_000;
const ids = scopeInputSchema.shape;
const text = z.string().max(MAX_TEXT).refine((t) => t.trim() !== '', 'must not be blank');
const priority = z.number().min(0).max(10);

export const sessionRefSchema = z
  .object({ tenant: ids.tenant, sessionId: ids.sessionId.unwrap(), userId: ids.userId, agentId: ids.agentId })
  .strict();

export type SessionRef = z.input<typeof sessionRefSchema>;

export const turnInputSchema = sessionRefSchema.extend({ role: z.enum(['user', 'agent', 'assistant', 'tool', 'system']), content: text }).strict();

export const appendInputSchema = sessionRefSchema
  .extend({
    content: text,
    kind: z.enum(['note', 'evidence']).default('note'),
    /** Where the evidence came from (a file, URL, tool, memory id); required for evidence. */
    source: z.string().min(1).max(500).optional(),
    priority: priority.optional(),
  })
  .strict()
  .refine((a) => a.kind !== 'evidence' || a.source !== undefined, { message: 'evidence needs its source', path: ['source'] });

export const replaceInputSchema = sessionRefSchema
  .extend({
    id: z.string().min(1).max(40).optional(),
    find: z.string().min(1).max(MAX_TEXT).optional(),
    content: z.string().max(MAX_TEXT).optional(),
    priority: priority.optional(),
    source: z.string().min(1).max(500).optional(),
  })
  .strict()
  .refine((r) => r.id !== undefined || r.find !== undefined, { message: 'name the item by id, or give text to find', path: ['id'] })
  .refine((r) => r.content !== undefined || r.priority !== undefined || r.source !== undefined, { message: 'nothing to change', path: ['content'] });

export const removeInputSchema = sessionRefSchema.extend({ id: z.string().min(1).max(40) }).strict();

export const planInputSchema = sessionRefSchema.extend({ plan: z.string().max(MAX_TEXT).nullable() }).strict();

export const entityInputSchema = sessionRefSchema
  .extend({ key: z.string().min(1).max(40).refine((t) => t.trim() !== '', 'must not be blank'), value: z.string().max(500).nullable() })
  .strict();

export const pageOutInputSchema = sessionRefSchema.extend({ id: z.string().min(1).max(40), tags: z.array(z.string().min(1).max(100)).max(16).optional() }).strict();

export const pageInInputSchema = sessionRefSchema
  .extend({
    query: text,
    k: z.number().int().min(1).max(20).default(3),
    priority: priority.optional(),
    kinds: z.array(z.enum(DOC_KINDS)).min(1).optional(),
  })
  .strict();
