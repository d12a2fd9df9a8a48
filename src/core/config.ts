/**
 * Configuration schemas. Parsed once at the edge (`parseEngramConfig`, `parseContextConfig`); everything
 * inside the engine receives the typed result. Defaults live here and nowhere else.
 */
import { z } from 'zod';
import { learnSettingsSchema } from '../learn/engine/options.js';
import { workingMemoryOptionsSchema } from '../working/options.js';
import { llmConfigSchema } from './llm-config.js';
import { factPolicySchema } from './predicates.js';
import { DOC_KINDS, PII_KINDS } from './types.js';
import { parseWith, timeInput } from './validate.js';

const filterInput = z.record(z.string(), z.unknown()).optional();
const positiveInt = (max: number) => z.number().int().min(1).max(max);

// ---------------------------------------------------------------------------------------------------------
// Seed 000's hybrid memory config, accepted as written; extra sections are Engram extensions.
// ---------------------------------------------------------------------------------------------------------

export const episodicWindowSchema = z
  .object({
    mode: z.enum(['last_n_events', 'since_minutes', 'none']).default('last_n_events'),
    n: z.number().int().min(0).max(500).default(5),
    since_minutes: z.number().positive().max(10_000_000).nullable().default(null),
    filters: filterInput,
  })
  .strict();

export const rerankerSettingsSchema = z
  .object({
    enabled: z.boolean().default(true),
    /**
     * `heuristic` forces the built-in deterministic reranker. Any other name is passed to the configured HTTP
     * reranker as its model; with no HTTP reranker configured the built-in one is used. Unset: the engine's reranker.
     */
    model: z.string().min(1).max(200).optional(),
  })
  .strict();

/**
 * How the read path reads memories as turns of a conversation: the steps of src/read/turns.ts (an information
 * prior, answers after questions, same-author context), the author field of src/read/expand.ts and the question
 * form of src/read/fuse.ts. Tuned on LoCoMo's dev split; 0 turns a step off (e.g. for memories that are not
 * turns of a conversation).
 */
export const conversationSchema = z
  .object({
    /** Relevance lost per unit of ln(1 + stated words) below the reference. */
    information_weight: z.number().min(0).max(1).default(0.04),
    /** Stated words from which on a memory loses nothing. */
    information_reference: z.number().int().min(0).max(1000).default(15),
    /** Share of a question's relevance the next event of its session gains. */
    answer_share: z.number().min(0).max(2).default(0.5),
    /** Share of the relevance of the same author's events nearby an event gains. */
    context_share: z.number().min(0).max(2).default(0.2),
    /** How many timeline positions away those events may be. */
    context_reach: z.number().int().min(1).max(10).default(2),
    /** Relevance gained by the events of an author the query names (when it names some, not all, in view). */
    author_bonus: z.number().min(0).max(1).default(0.15),
    /** When the query asks: share of a memory's vector evidence lost per unit of its question share. */
    question_discount: z.number().min(0).max(1).default(1),
  })
  .strict();

export type ConversationConfig = z.output<typeof conversationSchema>;
export type ConversationInput = z.input<typeof conversationSchema>;

export const relevanceFloorSchema = z
  .object({
    enabled: z.boolean().default(true),
    /** Item level: a memory's raw cosine with the query, or its share of the query's content words. */
    min_cosine: z.number().min(-1).max(1).default(0.2),
    min_coverage: z.number().min(0).max(1).default(0.25),
    /** Query level: some candidate must reach one of these, or the semantic section stays empty. */
    query_min_cosine: z.number().min(-1).max(1).default(0.42),
    /** 0: any content word of the query in some candidate; higher asks for that share of the words. */
    query_min_coverage: z.number().min(0).max(1).default(0),
    /** A share of the query's content words in one candidate that makes the query relevant whatever the cosines. */
    query_strong_coverage: z.number().min(0).max(1).default(0.5),
    /**
     * A shared word makes the query relevant only if some candidate is at least this close; a query that fails
     * the query level but has such a candidate, or a shared word, keeps its `weak_items` best memories, each
     * marked `weak` in its scores, instead of nothing (0 items: such a query gets nothing).
     */
    weak_min_cosine: z.number().min(-1).max(1).default(0.3),
    weak_items: z.number().int().min(0).max(200).default(3),
  })
  .strict();

export const semanticRetrievalSchema = z
  .object({
    /** Semantic items picked (MMR). From 20 on, a larger top_k keeps a smaller one's context first (docs/http.md, "top_k"). */
    top_k: positiveInt(200).default(5),
    filters: filterInput,
    kinds: z.array(z.enum(DOC_KINDS)).min(1).optional(),
    /** Candidates fetched from each index before fusion; defaults to max(50, 4·top_k). */
    candidates: positiveInt(2000).optional(),
    reranker: rerankerSettingsSchema.prefault({}),
    conversation: conversationSchema.prefault({}),
    /**
     * The relevance floor (read/floor.ts): semantic items only when some candidate reaches `query_min_cosine`
     * (raw cosine with the query) or holds a content word of the query (`query_min_coverage` of them), and then only
     * the items reaching `min_cosine` or `min_coverage`. On by default, so a query about nothing in the store
     * gets no semantic items. The cosines are calibrated for USE-lite; set them again for another model.
     */
    relevance_floor: relevanceFloorSchema.prefault({}),
    /**
     * Concept matching (read/concepts.ts): when the query asks which members of a category ("Which animals…",
     * "What instruments…"), a candidate naming a member ("our beagle", "the violin") gains relevance, by WordNet's
     * noun hierarchy. The first query that asks loads WordNet (~20 MB, ~0.2 s); off: never loaded.
     */
    concepts: z.boolean().default(true),
  })
  .strict();

export const mergePolicySchema = z
  .object({
    dedupe: z.enum(['source+hash', 'hash', 'none']).default('source+hash'),
    /**
     * Section order for the budget. `episodic_recent` (the window), `semantic` (all retrieved memory) and
     * `semantic_<tag>` (retrieved memory tagged <tag>, e.g. `semantic_policy`); later sections fill what is left.
     */
    priority: z.array(z.string().regex(/^[a-z][a-z0-9_-]{0,63}$/)).max(16).default(['episodic_recent', 'semantic']),
    token_budget: positiveInt(1_000_000).default(3000),
  })
  .strict();

export const guardrailsSchema = z
  .object({
    provenance_inline: z.boolean().default(true),
    /** At read time: scrub the rendered context once more (ingest scrubbing is configured on the engine). */
    pii_scrub_at_ingest: z.boolean().default(true),
    /** At read time: episodic items older than this are left out of the context. */
    episodic_ttl_days: z.number().positive().nullable().default(null),
    semantic_cache_ttl_hours: z.number().positive().nullable().default(null),
  })
  .strict();

export const scoringSchema = z
  .object({
    /** Generative-Agents weights: score = relevance·w_r + recency·w_t + importance·w_i (+ confidence·w_c). */
    weights: z
      .object({
        relevance: z.number().min(0).max(10).default(1),
        recency: z.number().min(0).max(10).default(0.15),
        importance: z.number().min(0).max(10).default(0.1),
        confidence: z.number().min(0).max(10).default(0.1),
      })
      .strict()
      .prefault({}),
    /** Recency is 0.5^(age/half_life): 0.99^hours (seed 002) is a half-life of ~69 hours. */
    recency_half_life_hours: z.number().positive().max(1e7).default(72),
  })
  .strict();

export const diversitySchema = z
  .object({
    /**
     * MMR trade-off: 1 = pure relevance, 0 = pure novelty. 0.9 keeps near-duplicates out without pushing aside
     * memories that are merely on the same topic (several evidence turns of one question usually are). Measured
     * against 0.75 with `top_k` 10: LoCoMo evidence recall@10 0.669 → 0.685 (dev split 0.704 → 0.719),
     * paraphrase-dev R@5 0.683 → 0.692, R@1 unchanged; 1.0 gives LoCoMo 0.692 but paraphrase R@5 0.675.
     * 0.95 since 2026-11-27: at 0.9 the discount pushed evidence that search ranks 8th–10th out of a top_k-10 context
     * (docs/benchmarks.md, "Paraphrase R@10").
     */
    mmr_lambda: z.number().min(0).max(1).default(0.95),
    /**
     * Near-duplicates (read/mmr.ts) are dropped from the semantic picks: vectors at cosine ≥ `cosine` that also
     * share a Jaccard ≥ `jaccard` of their content stems (or, without vectors, stems alone ≥ `text_only`).
     * `enabled: false` leaves only the MMR discount.
     */
    near_duplicate: z
      .object({
        enabled: z.boolean().default(true),
        cosine: z.number().min(0).max(1).default(0.6),
        jaccard: z.number().min(0).max(1).default(0.35),
        text_only: z.number().min(0).max(1).default(0.6),
      })
      .strict()
      .prefault({}),
  })
  .strict();

export const SCOPE_MODES = ['layered', 'strict'] as const;
export const scopeModeSchema = z.enum(SCOPE_MODES);
export type ScopeMode = (typeof SCOPE_MODES)[number];

export const contextScopeSchema = z
  .object({
    user_id: z.string().min(1).max(200).optional(),
    agent_id: z.string().min(1).max(200).optional(),
    session_id: z.string().min(1).max(200).optional(),
  })
  .strict();

export const contextConfigSchema = z
  .object({
    task_id: z.string().min(1).max(200).nullable().optional(),
    query: z.string().max(10_000).optional(),
    scope: contextScopeSchema.optional(),
    /**
     * How `scope` reads (docs/scopes.md). 'layered': the window from the session, semantic memory from the
     * user's, the agent's and the shared layers, never another user's. 'strict': every scope field given must
     * match exactly, and no scope at all reads the whole tenant (an admin-style read).
     */
    scope_mode: scopeModeSchema.default('layered'),
    /**
     * Valid time (docs/scopes.md#time): read the world as it was then. Events after it stay out; each fact lineage
     * shows the version that held then; facts not valid then are left out; the knowledge graph's relations are
     * those that held then (a later contradiction does not hide them). ISO-8601 or epoch ms.
     */
    as_of: timeInput.optional(),
    /** Transaction time: read only what Engram had recorded by then, as it believed it then. ISO-8601 or epoch ms. */
    known_at: timeInput.optional(),
    episodic_window: episodicWindowSchema.prefault({}),
    semantic_retrieval: semanticRetrievalSchema.prefault({}),
    merge_policy: mergePolicySchema.prefault({}),
    guardrails: guardrailsSchema.prefault({}),
    conflict_resolution: z
      .enum(['prefer_fresh_episodic_else_surface_both_with_note', 'surface_both_with_note', 'prefer_fresh'])
      .default('prefer_fresh_episodic_else_surface_both_with_note'),
    scoring: scoringSchema.prefault({}),
    diversity: diversitySchema.prefault({}),
    /** Also report the candidates considered but left out, with the reason (`droppedItems`; src/read/explain.ts). */
    explain: z.boolean().default(false),
  })
  .strict();

export type ContextConfigInput = z.input<typeof contextConfigSchema>;
export type ContextConfig = z.output<typeof contextConfigSchema>;

export function parseContextConfig(input: unknown): ContextConfig {
  return parseWith(contextConfigSchema, input ?? {}, { what: 'context config' });
}

// ---------------------------------------------------------------------------------------------------------
// Engine configuration.
// ---------------------------------------------------------------------------------------------------------

export const embedderConfigSchema = z.discriminatedUnion('provider', [
  z
    .object({
      provider: z.literal('use-lite'),
      /** Worker threads, each with its own copy of the model (~300 MB). 0 runs on the main thread. */
      workers: z.number().int().min(0).max(16).default(2),
      batchSize: positiveInt(256).default(16),
    })
    .strict(),
  z
    .object({
      provider: z.literal('openai-compatible'),
      baseUrl: z.url(),
      model: z.string().min(1),
      apiKey: z.string().optional(),
      /** Ask the server for this many dimensions (OpenAI text-embedding-3). Otherwise read from the first reply. */
      dimensions: z.number().int().positive().optional(),
      batchSize: positiveInt(2048).default(64),
      timeoutMs: z.number().int().positive().default(30_000),
    })
    .strict(),
]);

export const rerankerConfigSchema = z.discriminatedUnion('provider', [
  z.object({ provider: z.literal('heuristic') }).strict(),
  z
    .object({
      provider: z.literal('http'),
      /** Base URL of a service exposing POST /rerank (TEI, vLLM, Cohere-compatible). */
      baseUrl: z.url(),
      model: z.string().min(1).optional(),
      apiKey: z.string().optional(),
      timeoutMs: z.number().int().positive().default(10_000),
    })
    .strict(),
]);

export const piiConfigSchema = z
  .object({
    enabled: z.boolean().default(true),
    kinds: z.array(z.enum(PII_KINDS)).default([...PII_KINDS]),
    /** Default region for phone numbers without a country code. */
    defaultCountry: z.string().length(2).default('US'),
  })
  .strict();

export const engramConfigSchema = z
  .object({
    storage: z
      .object({
        url: z.string().min(1).default('sqlite:./engram.db'),
        /**
         * Where the search indexes are saved so a restart loads them instead of rebuilding (docs/scaling.md).
         * SQLite: default `<file>.indexes` beside the database, "off" saves none. PostgreSQL: this node's local
         * cache directory; default none (every process start loads its tenants from the rows).
         */
        indexDir: z.string().min(1).optional(),
      })
      .strict()
      .prefault({}),
    /** Optional Redis hot tier in front of the storage (`redis://host:6379`). Writes stay primary-first. */
    cache: z
      .object({
        url: z.string().regex(/^rediss?:\/\//, 'expected redis:// or rediss://'),
        factTtlHours: z.number().positive().default(24),
        windowTtlSeconds: z.number().int().positive().default(300),
      })
      .strict()
      .optional(),
    embedder: embedderConfigSchema.default({ provider: 'use-lite', workers: 2, batchSize: 16 }),
    reranker: rerankerConfigSchema.default({ provider: 'heuristic' }),
    /** Optional everywhere: every step that can use an LLM has a deterministic default. */
    llm: llmConfigSchema.default({ provider: 'none' }),
    pii: piiConfigSchema.prefault({}),
    retention: z
      .object({
        /** TTL given to events that do not carry their own `expiresAt`. null keeps them until forgotten. */
        episodicTtlDays: z.number().positive().nullable().default(null),
        /** How often expired rows are deleted physically. 0 disables the background sweep. */
        sweepIntervalMinutes: z.number().min(0).default(60),
      })
      .strict()
      .prefault({}),
    indexing: z
      .object({
        /** Embed in the background after the write is acknowledged (lexical search works at once). */
        background: z.boolean().default(true),
        batchSize: positiveInt(1024).default(64),
        /**
         * A memory's vector: `sentences` sums the vectors of its text and of each of its sentences (labelled
         * with the speaker), `whole` embeds the text alone (write/document-vectors.ts). Sentences cost about
         * one embedding per sentence; with USE-lite they lift LoCoMo vector recall@10 from 0.374 to 0.460.
         */
        documentVectors: z.enum(['sentences', 'whole']).default('sentences'),
        /**
         * Background indexing waits this long after a write wakes it, so single writes arriving close together
         * are embedded and stored as one batch. Vector search sees a memory at most this much later; lexical
         * search sees it at once.
         */
        lingerMs: z.number().int().min(0).max(1000).default(5),
      })
      .strict()
      .prefault({}),
    tokenizer: z.object({ encoding: z.enum(['cl100k_base', 'o200k_base']).default('cl100k_base') }).strict().prefault({}),
    limits: z
      .object({
        maxContentChars: positiveInt(1_000_000).default(32_768),
        maxBatch: positiveInt(100_000).default(10_000),
      })
      .strict()
      .prefault({}),
    defaultTenant: z.string().min(1).max(100).default('default'),
    /** The learn path: segmentation, description, confidence, extraction, reflection, procedures, engine. */
    learn: learnSettingsSchema.prefault({}),
    /**
     * Importance of events at ingest: `content` (default) is deterministic (write/importance.ts: type, urgency,
     * danger, stakes, commitments, emotion); `llm` asks the configured LLM for a 1–10 poignancy rating per
     * batch (content when no LLM is configured or it fails). An explicit `importance` on the event always wins.
     */
    importance: z.object({ method: z.enum(['content', 'llm']).default('content') }).strict().prefault({}),
    /** Conflict strategy per predicate (single / multi / merge / llm) for facts with subject + predicate (core/predicates.ts). */
    facts: factPolicySchema.prefault({}),
    /** The per-session scratchpads: token cap, history strategy, key facts, TTL (working/options.ts). */
    working: workingMemoryOptionsSchema.prefault({}),
  })
  .strict();

export type EngramConfigInput = z.input<typeof engramConfigSchema>;
export type EngramConfig = z.output<typeof engramConfigSchema>;
export type EmbedderConfig = z.output<typeof embedderConfigSchema>;
export type RerankerConfig = z.output<typeof rerankerConfigSchema>;
export type PiiConfig = z.output<typeof piiConfigSchema>;

export function parseEngramConfig(input: unknown): EngramConfig {
  return parseWith(engramConfigSchema, input ?? {}, { what: 'configuration', code: 'CONFIG' });
}
