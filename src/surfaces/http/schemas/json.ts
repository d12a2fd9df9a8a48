/**
 * The library's recursive JSON-value schema, named once in the OpenAPI document: the generator cannot inline
 * a recursive schema. The library does not export it by itself, so it is taken from the event schema.
 *
 * zod copies prototype methods onto each instance when it is built, and this one was built before
 * `@hono/zod-openapi` added `.openapi()` to the prototype, so the method is called from the prototype.
 * On a lazy schema it also tags the original instance, which is what every embedding library schema holds.
 */
import { z } from '@hono/zod-openapi';
import type { Json } from '../../../core/types.js';
import { eventInputSchema } from '../../../write/input.js';

type WithOpenApi = { openapi(this: z.ZodType, refId: string): z.ZodType };

const libraryJson = eventInputSchema(1).shape.args.unwrap() as z.ZodType<Json>;
(z.ZodType.prototype as unknown as WithOpenApi).openapi.call(libraryJson, 'JsonValue');

export const JsonValue: z.ZodType<Json> = libraryJson;
