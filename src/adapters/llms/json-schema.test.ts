import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { extractJson, toModelSchema, unwrapValue } from './json-schema.js';

describe('toModelSchema', () => {
  it('closes nested objects and marks an all-required schema strict-compatible', () => {
    const ms = toModelSchema(z.object({ a: z.string(), items: z.array(z.object({ x: z.number() })) }));
    expect(ms.wrapped).toBe(false);
    expect(ms.strictCompatible).toBe(true);
    expect(ms.schema).not.toHaveProperty('$schema');
    expect(ms.schema).toMatchObject({
      additionalProperties: false,
      properties: { items: { items: { additionalProperties: false, required: ['x'] } } },
    });
  });

  it('is not strict-compatible with optional or defaulted fields, or with open objects', () => {
    expect(toModelSchema(z.object({ a: z.string().optional() })).strictCompatible).toBe(false);
    expect(toModelSchema(z.object({ a: z.string().default('x') })).strictCompatible).toBe(false);
    expect(toModelSchema(z.looseObject({ a: z.string() })).strictCompatible).toBe(false);
  });

  it('keeps a property literally named "type" intact', () => {
    const ms = toModelSchema(z.object({ type: z.enum(['a', 'b']), properties: z.string() }));
    expect(ms.schema).toMatchObject({ properties: { type: { enum: ['a', 'b'] }, properties: { type: 'string' } } });
    expect(ms.strictCompatible).toBe(true);
  });

  it('wraps a recursive non-object root and points its self references at the moved schema', () => {
    // A nested list of strings: the root is a union that refers to itself as "#".
    type Nested = string | Nested[];
    const nested: z.ZodType<Nested> = z.lazy(() => z.union([z.string(), z.array(nested)]));
    expect(JSON.stringify(z.toJSONSchema(nested))).toContain('"$ref":"#"');
    const ms = toModelSchema(nested);
    expect(ms.wrapped).toBe(true);
    const text = JSON.stringify(ms.schema);
    expect(text).not.toContain('"$ref":"#"');
    expect(text).toContain('"$ref":"#/properties/value"');
    // Every $ref must resolve inside the wrapped document.
    for (const [, ref] of text.matchAll(/"\$ref":"#([^"]*)"/g)) {
      let at: unknown = ms.schema;
      for (const part of ref!.split('/').filter(Boolean)) at = (at as Record<string, unknown>)[part];
      expect(at, `ref #${ref}`).toBeTypeOf('object');
    }
    expect(unwrapValue({ value: [1] }, true)).toEqual([1]);
    expect(unwrapValue({ value: [1] }, false)).toEqual({ value: [1] });
  });
});

describe('extractJson', () => {
  it('reads bare, fenced and prose-wrapped JSON', () => {
    expect(extractJson(' {"a":1} ')).toEqual({ a: 1 });
    expect(extractJson('```json\n{"a":[1,2]}\n```')).toEqual({ a: [1, 2] });
    expect(extractJson('Sure, here it is: {"a":{"b":true}} Hope that helps!')).toEqual({ a: { b: true } });
    expect(extractJson('[1,2]')).toEqual([1, 2]);
  });

  it('throws when there is no JSON', () => {
    expect(() => extractJson('no json here')).toThrow(SyntaxError);
    expect(() => extractJson('{"a": }')).toThrow(SyntaxError);
  });
});
