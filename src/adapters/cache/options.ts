/**
 * Options of the Redis hot tier, validated once when it opens. TTLs only bound how long an entry may take
 * memory: correctness never depends on them, since every write that changes a cached family invalidates it
 * (see `with-cache.ts`).
 */
import { z } from 'zod';
import { parseWith } from '../../core/validate.js';
import { FAMILIES } from './keys.js';

const YEAR_SECONDS = 365 * 24 * 3600;

export const redisCacheOptionsSchema = z
  .object({
    url: z.string().regex(/^rediss?:\/\/\S*$/, 'must be a redis:// or rediss:// URL'),
    /** Namespaces every key, so several deployments (or tests) can share one Redis. Glob characters are refused. */
    keyPrefix: z
      .string()
      .regex(/^[A-Za-z0-9_.:/-]{1,120}$/, 'letters, digits and _ . : / - only (1-120)')
      .default('engram:'),
    ttl: z
      .object({
        /** Recent-events windows (`queryEvents` with `lastN` or `since`). */
        windowSeconds: z.number().positive().max(YEAR_SECONDS).default(300),
        /** Stable facts: seed 000's `semantic_cache_ttl_hours`. */
        factHours: z.number().positive().max(24 * 365).default(24),
        /** Working-memory / session buffers. */
        workingMemorySeconds: z.number().positive().max(YEAR_SECONDS).default(3600),
      })
      .strict()
      .prefault({}),
    /**
     * Which families this process reads from the cache. Writes invalidate every family regardless, so
     * processes with different choices can share one Redis. Point reads of facts and working memory cost
     * a Redis round trip; over an in-process SQLite that is slower than the primary (see the report).
     */
    families: z.array(z.enum(FAMILIES)).max(FAMILIES.length).default([...FAMILIES]),
    /** A Redis command that has not answered by then counts as an outage; the read goes to the primary. */
    commandTimeoutMs: z.number().int().min(1).max(60_000).default(250),
    connectTimeoutMs: z.number().int().min(1).max(60_000).default(2000),
    /** Windows with more events than this are not cached (they would cost more to ship than to query). */
    maxWindowEvents: z.number().int().min(1).max(100_000).default(1000),
    /** Entries whose JSON is longer than this many characters are not cached. */
    maxEntryChars: z.number().int().min(1).max(64 * 1024 * 1024).default(1024 * 1024),
  })
  .strict();

export type RedisCacheOptions = z.output<typeof redisCacheOptionsSchema>;
export type RedisCacheOptionsInput = z.input<typeof redisCacheOptionsSchema>;

export function parseRedisCacheOptions(input: unknown): RedisCacheOptions {
  return parseWith(redisCacheOptionsSchema, input, { what: 'redis cache options', prefix: 'cache', code: 'CONFIG' });
}
