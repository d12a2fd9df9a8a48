/** Turns a zod schema into the JSON Schema a model is shown, and knows how to read the model's reply back. */
import { z } from 'zod';
import type { JsonSchemaObject } from '../../ports/llm.js';
import { isRecord } from './http.js';

export interface ModelSchema {
  schema: JsonSchemaObject;
  /** The zod schema's root is not an object, so the model fills `{ value: … }` and we unwrap it. */
  wrapped: boolean;
  /** Every object lists all its properties as required and forbids others: OpenAI strict mode accepts it. */
  strictCompatible: boolean;
}

const WRAP_KEY = 'value';

export function toModelSchema(schema: z.ZodType): ModelSchema {
  // `input`: the model writes what the zod schema accepts (defaults optional, transforms unapplied).
  const raw = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete raw.$schema;
  const closed = closeObjects(raw);
  const wrapped = closed.type !== 'object';
  const root = wrapped ? wrapRoot(closed) : closed;
  return { schema: root, wrapped, strictCompatible: isStrictCompatible(root) };
}

export function unwrapValue(value: unknown, wrapped: boolean): unknown {
  return wrapped && isRecord(value) ? value[WRAP_KEY] : value;
}

/**
 * Forbids properties the schema does not name, unless it says otherwise: zod would strip them anyway, and a
 * model told "no extra keys" spends its tokens on the fields we read.
 */
function closeObjects(node: Record<string, unknown>): Record<string, unknown> {
  return mapSchema(node, (n) =>
    n.type === 'object' && isRecord(n.properties) && !('additionalProperties' in n) ? { ...n, additionalProperties: false } : n,
  );
}

/** Both native mechanisms need an object root; `$defs` move up and self references follow the move. */
function wrapRoot(inner: Record<string, unknown>): Record<string, unknown> {
  const { $defs, ...rest } = inner;
  const moved = mapSchema(rest, (n) => (n.$ref === '#' ? { ...n, $ref: `#/properties/${WRAP_KEY}` } : n));
  return {
    type: 'object',
    properties: { [WRAP_KEY]: moved },
    required: [WRAP_KEY],
    additionalProperties: false,
    ...($defs === undefined ? {} : { $defs }),
  };
}

function isStrictCompatible(root: Record<string, unknown>): boolean {
  let ok = true;
  mapSchema(root, (n) => {
    if (n.type !== 'object') return n;
    const props = isRecord(n.properties) ? Object.keys(n.properties) : [];
    const required = Array.isArray(n.required) ? new Set(n.required) : new Set();
    if (n.additionalProperties !== false || props.some((p) => !required.has(p))) ok = false;
    return n;
  });
  return ok;
}

/** Applies `fn` bottom-up to every schema node (objects anywhere in the tree), returning a new tree. */
function mapSchema(node: Record<string, unknown>, fn: (n: Record<string, unknown>) => Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = mapValue(value, fn);
  return fn(out);
}

function mapValue(value: unknown, fn: (n: Record<string, unknown>) => Record<string, unknown>): unknown {
  if (Array.isArray(value)) return value.map((v) => mapValue(v, fn));
  if (isRecord(value)) return mapSchema(value, fn);
  return value;
}

/**
 * Reads JSON out of a model's text: as is, inside a ```json fence, or the outermost `{…}` span (local models
 * in json_object mode sometimes add prose). Throws the JSON.parse error when none of those parse.
 */
export function extractJson(text: string): unknown {
  const trimmed = text.trim();
  const candidates = [trimmed];
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(trimmed);
  if (fenced?.[1]) candidates.push(fenced[1].trim());
  const start = trimmed.indexOf('{');
  const end = trimmed.lastIndexOf('}');
  if (start >= 0 && end > start) candidates.push(trimmed.slice(start, end + 1));
  let firstError: unknown;
  for (const candidate of candidates) {
    try {
      return JSON.parse(candidate) as unknown;
    } catch (e) {
      firstError ??= e;
    }
  }
  throw firstError;
}

/** The instruction used when a provider has no native mechanism (or the server rejected it). */
export function schemaInstruction(schema: JsonSchemaObject): string {
  return `Reply with a single JSON object, and nothing else, that conforms to this JSON Schema:\n${JSON.stringify(schema)}`;
}

export function withSchemaInstruction(system: string | undefined, schema: JsonSchemaObject): string {
  return system ? `${system}\n\n${schemaInstruction(schema)}` : schemaInstruction(schema);
}
