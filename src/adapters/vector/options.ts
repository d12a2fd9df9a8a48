import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { parseWith } from '../../core/validate.js';

const positiveInt = z.number().int().positive();

export const vectorIndexOptionsSchema = z
  .object({
    /** 'auto' uses usearch when it loads, else the flat scan; 'usearch' fails (UNAVAILABLE) without it. */
    prefer: z.enum(['auto', 'flat', 'usearch']).default('auto'),
    /** From this many vectors on, unfiltered searches go through an HNSW graph (below it: SIMD exact scan). */
    annThreshold: positiveInt.default(20_000),
    /**
     * 'background' (default) builds the graph in short slices between event-loop turns, so add() stays
     * cheap and searches stay exact until the graph has caught up; 'inline' inserts inside add() (and
     * builds the whole graph synchronously the moment the threshold is crossed).
     */
    indexing: z.enum(['background', 'inline']).default('background'),
    /**
     * Where the f32 vectors are kept once the index reaches `annThreshold`: 'disk' (default) in a private
     * scratch file (in `rowDir`, default the OS temp dir), memory holding i8 rows for candidate selection and
     * the top candidates rescored from the f32 file; 'memory' keeps every f32 vector in memory.
     */
    fullPrecision: z.enum(['disk', 'memory']).default('disk'),
    rowDir: z.string().min(1).optional(),
    /** Longest a background slice holds the event loop, in ms. */
    sliceMs: z.number().positive().max(1000).default(8),
    hnsw: z
      .object({
        connectivity: positiveInt.max(64).default(32),
        expansionAdd: positiveInt.max(4096).default(64),
        expansionSearch: positiveInt.max(4096).default(192),
        /** The graph's own vector copy (candidates are rescored in f32 either way); see docs/benchmarks.md for recall. */
        quantization: z.enum(['f32', 'f16', 'bf16', 'i8']).default('f16'),
        threads: positiveInt.max(256).optional(),
      })
      .strict()
      .prefault({}),
  })
  .strict();

export type VectorIndexOptions = z.input<typeof vectorIndexOptionsSchema>;
export type ResolvedVectorIndexOptions = z.output<typeof vectorIndexOptionsSchema> & {
  hnsw: { threads: number };
};

/** Parses options once (VALIDATION errors name the field) and fills defaults. */
export function resolveVectorIndexOptions(input: VectorIndexOptions = {}): ResolvedVectorIndexOptions {
  const o = parseWith(vectorIndexOptionsSchema, input, { what: 'vector index options' });
  return { ...o, hnsw: { ...o.hnsw, threads: o.hnsw.threads ?? Math.min(4, availableParallelism()) } };
}
