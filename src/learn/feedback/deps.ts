/**
 * What the feedback-example and working-memory capabilities need from the engine, as plain values, so the
 * facade (`createMemory`) can build them from what it already holds and tests can build them from real parts.
 */
import type { TokenCounter } from '../../core/tokens.js';
import type { DocKind, JsonObject } from '../../core/types.js';
import type { Clock } from '../../ports/clock.js';
import type { Llm } from '../../ports/llm.js';
import type { Reranker } from '../../ports/reranker.js';
import type { ScopeFilter, Storage } from '../../ports/storage.js';

/** Where a paged-out working-memory item lands in long-term memory. */
export interface RememberMeta extends ScopeFilter {
  tenant: string;
  /** Provenance label, e.g. `working-memory:<sessionId>`. */
  source?: string | undefined;
  tags?: string[] | undefined;
  metadata?: JsonObject | undefined;
}

export interface LongTermSearchOptions extends ScopeFilter {
  tenant: string;
  k: number;
  kinds?: DocKind[] | undefined;
}

/** One long-term memory found for a page-in. */
export interface LongTermHit {
  /** The record id (fact, event, episode …). */
  id: string;
  kind: DocKind;
  text: string;
  score: number;
}

export interface LearnDeps {
  storage: Storage;
  /** Embeds a query (cached by the caller); undefined when no vector is available (embedder down). */
  embedQuery(text: string): Promise<Float32Array | undefined>;
  clock: Clock;
  tokens: TokenCounter;
  /** Optional: conversation analysis, summaries and entity extraction use it when present. */
  llm?: Llm | undefined;
  /** Wakes the background indexer after a write that added a doc (a new example needs its vector). */
  notifyIndexer(): void;
  defaultTenant: string;
  /** PII scrub applied at ingest to every text these capabilities store. */
  scrub(text: string): string;
  /** Optional cross-encoder-style second opinion when ranking similar examples. */
  reranker?: Reranker | undefined;
  /** Stores a text in long-term (semantic) memory; working memory's page-out calls it. */
  remember?(text: string, meta: RememberMeta): Promise<{ id: string }>;
  /** Searches long-term memory by meaning; working memory's page-in calls it. */
  search?(query: string, opts: LongTermSearchOptions): Promise<LongTermHit[]>;
}
