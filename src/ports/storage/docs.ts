/** The docs-and-indexes sub-ports: the retrieval projection, its search indexes and the embedding cache. */
import type { FilterNode } from '../../core/filter.js';
import type { Doc, DocKind, Fact, MemoryEvent } from '../../core/types.js';
import type { ScopeFilter } from './common.js';

export interface DocQuery {
  tenant: string;
  scope?: ScopeFilter;
  kinds?: DocKind[];
  filter?: FilterNode;
  k: number;
  /** Documents expired at `now` are not returned. */
  now: number;
}

export interface DocHit {
  docId: number;
  /** Lexical: BM25 with higher = better. Vector: cosine similarity in [-1, 1]. */
  score: number;
}

export interface PendingEmbedding {
  contentHash: string;
  text: string;
}

/** Docs with their stored vectors (by content hash), the facts behind them and the events behind some of them. */
export interface HydratedDocs {
  docs: Doc[];
  vectors: Map<string, Float32Array>;
  events: Map<string, MemoryEvent>;
  /** By fact id (a fact doc's `refId`). */
  facts: Map<string, Fact>;
}

/** The retrieval projection (`Doc`) and its search indexes. */
export interface DocIndex {
  getDocs(tenant: string, docIds: readonly number[]): Promise<Doc[]>;
  /**
   * Optional: `getDocs`, `getEmbeddings` of their texts, `getFacts` of the fact docs among them and, with `events`,
   * `getEvents` of the first `events` event docs among them (in the order asked), in one round trip where the
   * engine can (a server database); the read path hydrates its candidates with it. Without it, those calls one
   * after the other.
   */
  hydrateDocs?(tenant: string, docIds: readonly number[], opts?: { events?: number }): Promise<HydratedDocs>;
  /** BM25 over doc text, best first. `text` is the raw query; the adapter tokenises it safely (no query syntax leaks). */
  lexicalSearch(q: DocQuery & { text: string }): Promise<DocHit[]>;
  /**
   * Optional: the same hits plus, for each distinct query term, its best single-term BM25 score among the
   * docs passing the query's tenant, scope, kinds, expiry and filter (0 when none has it), in one pass.
   * The read path's lexical ceiling needs these; without this method it probes one term at a time.
   */
  lexicalSearchWithTermBest?(q: DocQuery & { text: string }): Promise<{ hits: DocHit[]; termBest: number[] }>;
  /** Nearest docs by cosine among those with an embedding for the current model, best first. Exact up to the ANN threshold. */
  vectorSearch(q: DocQuery & { vector: Float32Array }): Promise<DocHit[]>;
}

/** The embedding cache, keyed by model + content hash and shared by docs with equal text. */
export interface EmbeddingStore {
  /** Texts whose hash has no vector for the current model, oldest first. */
  pendingEmbeddings(limit: number): Promise<PendingEmbedding[]>;
  /**
   * Number of content hashes still waiting for a vector; with `upTo`, the count stops there (the full count
   * reads every waiting doc, about a second and a half at a million on the embedded store).
   */
  embeddingBacklog(opts?: { upTo?: number }): Promise<number>;
  putEmbeddings(rows: readonly { contentHash: string; vector: Float32Array }[]): Promise<void>;
  getEmbeddings(contentHashes: readonly string[]): Promise<Map<string, Float32Array>>;
}
