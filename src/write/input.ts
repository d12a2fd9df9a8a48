/**
 * Input schemas of the write path. The library API is camelCase; JSON edges (JSONL import, HTTP) may use
 * seed 000's snake_case field names, which `normalizeKeys` maps first.
 */
import { z } from 'zod';
import { ACTORS, EVENT_TYPES, FACT_KINDS, type Json } from '../core/types.js';
import { timeInput } from '../core/validate.js';

const MAX_ID = 200;
export const MAX_TAGS = 64;
const MAX_METADATA_BYTES = 64 * 1024;

export { timeInput };

// eslint-disable-next-line no-control-regex -- rejecting control characters is the point
const scopeId = z.string().min(1).max(MAX_ID).regex(/^[^\u0000-\u001f]+$/, 'control characters are not allowed');

export const scopeInputSchema = z.object({
  tenant: scopeId.optional(),
  userId: scopeId.optional(),
  agentId: scopeId.optional(),
  sessionId: scopeId.optional(),
  taskId: scopeId.optional(),
});

const jsonValue: z.ZodType<Json> = z.lazy(() =>
  z.union([z.string(), z.number().finite(), z.boolean(), z.null(), z.array(jsonValue), z.record(z.string(), jsonValue)]),
);

const metadata = z.record(z.string().min(1).max(64), jsonValue).superRefine((m, ctx) => {
  if (JSON.stringify(m).length > MAX_METADATA_BYTES) {
    ctx.addIssue({ code: 'custom', message: `metadata is larger than ${MAX_METADATA_BYTES} bytes` });
  }
});

const tags = z.array(z.string().min(1).max(100)).max(MAX_TAGS);
const unit = z.number().min(0).max(1);

/**
 * Schemas are built once per content limit: zod compiles each schema on its first parse, which cost more than
 * the rest of a logEvent when it happened on every call.
 */
function perLimit<T>(build: (maxChars: number) => T): (maxChars: number) => T {
  const built = new Map<number, T>();
  return (maxChars) => {
    let schema = built.get(maxChars);
    if (schema === undefined) {
      schema = build(maxChars);
      built.set(maxChars, schema);
    }
    return schema;
  };
}

export const eventInputSchema = perLimit((maxChars: number) =>
  scopeInputSchema
    .extend({
      id: z.string().max(40).optional(),
      ts: timeInput.optional(),
      type: z.enum(EVENT_TYPES).default('message'),
      actor: z.enum(ACTORS).optional(),
      name: z.string().min(1).max(200).optional(),
      content: z.string().max(maxChars).optional(),
      tool: z.string().min(1).max(200).optional(),
      args: jsonValue.optional(),
      result: jsonValue.optional(),
      stateLabel: z.string().min(1).max(100).optional(),
      tags: tags.default([]),
      importance: unit.optional(),
      source: z.string().min(1).max(500).optional(),
      metadata: metadata.default({}),
      expiresAt: timeInput.optional(),
    })
    .strict()
    .refine((e) => (e.content !== undefined && e.content.trim() !== '') || e.tool !== undefined, {
      message: 'an event needs content (or a tool call)',
      path: ['content'],
    }),
);

export type EventInput = z.input<ReturnType<typeof eventInputSchema>>;
export type ParsedEventInput = z.output<ReturnType<typeof eventInputSchema>>;

export const factInputSchema = perLimit((maxChars: number) =>
  scopeInputSchema
    .extend({
      /** Stable caller key (e.g. `doc_42_para_7`): remembering the same key again creates a new version. */
      key: z.string().min(1).max(MAX_ID).optional(),
      text: z.string().min(1).max(maxChars).refine((t) => t.trim() !== '', 'text is blank'),
      kind: z.enum(FACT_KINDS).default('fact'),
      subject: z.string().min(1).max(500).optional(),
      predicate: z.string().min(1).max(200).optional(),
      value: z.string().min(1).max(maxChars).optional(),
      source: z.string().min(1).max(500).optional(),
      section: z.string().min(1).max(500).optional(),
      tags: tags.default([]),
      pii: z.boolean().default(false),
      metadata: metadata.default({}),
      confidence: unit.default(0.8),
      importance: unit.default(0.5),
      validFrom: timeInput.optional(),
      validTo: timeInput.optional(),
      expiresAt: timeInput.optional(),
    })
    .strict(),
);

export type FactInput = z.input<ReturnType<typeof factInputSchema>>;
export type ParsedFactInput = z.output<ReturnType<typeof factInputSchema>>;

const SNAKE_TO_CAMEL: Record<string, string> = {
  user_id: 'userId',
  agent_id: 'agentId',
  session_id: 'sessionId',
  task_id: 'taskId',
  state_label: 'stateLabel',
  expires_at: 'expiresAt',
  valid_from: 'validFrom',
  valid_to: 'validTo',
};

/** Maps seed 000's snake_case top-level keys to the API's camelCase; other keys pass through. */
export function normalizeKeys(input: unknown): unknown {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  const out: Record<string, unknown> = {};
  // hasOwn: a key named `constructor` must stay `constructor`, not index Object.prototype.
  for (const [k, v] of Object.entries(input)) out[Object.hasOwn(SNAKE_TO_CAMEL, k) ? SNAKE_TO_CAMEL[k]! : k] = v;
  return out;
}
