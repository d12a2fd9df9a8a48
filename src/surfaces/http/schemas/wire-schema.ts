/**
 * A library input schema as the HTTP surface documents and enforces it: keys in the wire casing (snake_case),
 * and every field with a default *optional* with the default named in its description. A JSON-Schema
 * `default` is read as "always present" by type generators (openapi-typescript makes such a field required),
 * which would make clients send what the server fills in anyway.
 *
 * The conversion rebuilds objects, so object-level refinements are dropped here: the library validates the
 * converted input again behind the route and reports them (with paths mapped back by wire.ts).
 */
import { z } from '@hono/zod-openapi';
import { snakeKey } from '../wire.js';

type WithOpenApi = { openapi(this: z.ZodType, meta: Record<string, unknown>): z.ZodType };
/** Schemas built before `@hono/zod-openapi` was loaded lack the instance method; the prototype has it. */
function describe(schema: z.ZodType, description: string): z.ZodType {
  return (z.ZodType.prototype as unknown as WithOpenApi).openapi.call(schema, { description });
}

function defaultText(value: unknown): string {
  return `default ${JSON.stringify(value)}`;
}

export function toWireSchema(schema: z.ZodType): z.ZodType {
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
  const description = z.globalRegistry.get(schema)?.description;
  switch (def.type) {
    case 'object': {
      const shape = (schema as z.ZodObject).shape;
      const out = Object.fromEntries(Object.entries(shape).map(([k, v]) => [snakeKey(k), toWireSchema(v as z.ZodType)]));
      const strict = (def.catchall as { _zod?: { def: { type: string } } } | undefined)?._zod?.def.type === 'never';
      const rebuilt = strict ? z.object(out).strict() : z.object(out);
      return description ? describe(rebuilt, description) : rebuilt;
    }
    case 'default':
    case 'prefault': {
      const inner = toWireSchema(def.innerType as z.ZodType);
      const value: unknown = typeof def.defaultValue === 'function' ? (def.defaultValue as () => unknown)() : def.defaultValue;
      const said = value !== undefined && !(typeof value === 'object' && value !== null && Object.keys(value).length === 0) ? defaultText(value) : undefined;
      const text = [description ?? z.globalRegistry.get(def.innerType as z.ZodType)?.description, said].filter(Boolean).join('; ');
      const optional = inner.optional();
      return text ? describe(optional, text) : optional;
    }
    case 'optional': {
      const inner = toWireSchema(def.innerType as z.ZodType);
      const optional = inner.optional();
      return description ? describe(optional, description) : optional;
    }
    case 'nullable':
      return toWireSchema(def.innerType as z.ZodType).nullable();
    case 'array': {
      const arr = schema as z.ZodArray;
      const rebuilt = z.array(toWireSchema(arr.element as z.ZodType));
      // Keep the original's length checks.
      const checks = (def.checks as z.core.$ZodCheck<unknown[]>[] | undefined) ?? [];
      return checks.length ? rebuilt.check(...checks) : rebuilt;
    }
    default:
      return schema;
  }
}
