/**
 * The public shape of a memory: what `createMemory` (memory.ts) needs and what it returns. The wiring of the
 * three paths behind it lives in memory.ts.
 */
import type { ContextConfigInput, EngramConfig, EngramConfigInput } from './core/config.js';
import type { TokenCounter } from './core/tokens.js';
import type { Fact, MemoryEvent, Outcome } from './core/types.js';
import type { Clock } from './ports/clock.js';
import type { Embedder } from './ports/embedder.js';
import type { Llm } from './ports/llm.js';
import type { Reranker } from './ports/reranker.js';
import type { ForgetReport, ScopeFilter, Storage } from './ports/storage.js';
import type { ContextResult, SearchHit } from './read/types.js';
import type { RememberResult } from './write/facts.js';
import type { IndexerProgress } from './write/indexer.js';
import type { EventInput, FactInput } from './write/input.js';
import type { ExamplesApi } from './learn/feedback/index.js';
import type { WorkingMemoryApi } from './working/index.js';
import type { ImportProgress, ImportReport } from './io/jsonl.js';
import type { BackupLine } from './io/backup-format.js';
import type { ListInput, ListPage, MemoriesApi } from './memories.js';
import type { FetchEventsInput, SearchInput } from './memory-queries.js';
import type { LearnApi, OutcomeOptions, OutcomeReport, ProceduresApi } from './learn/engine/index.js';
import type { GraphApi } from './graph/api.js';

export interface MemoryDeps {
  storage: Storage;
  embedder: Embedder;
  reranker: Reranker;
  config?: EngramConfigInput | EngramConfig;
  clock?: Clock;
  tokens?: TokenCounter;
  /** Called with background failures (embedding backlog, sweeps). Defaults to silence. */
  onBackgroundError?: (error: unknown) => void;
  /** Learn path: LLM summaries, extraction and reflection when given; deterministic heuristics otherwise. */
  llm?: Llm;
}

export type LoggedEvent = MemoryEvent & { duplicate: boolean };

export interface ForgetInput {
  tenant?: string;
  ids?: string[];
  scope?: ScopeFilter;
}

export interface Memory {
  readonly config: EngramConfig;
  readonly storage: Storage;
  readonly embedder: Embedder;
  /** Appends one event to the timeline; resolves when it is durable. */
  logEvent(input: EventInput): Promise<LoggedEvent>;
  /** Appends a batch atomically (all or nothing). */
  logEvents(inputs: readonly EventInput[]): Promise<LoggedEvent[]>;
  /** Stores a fact or document chunk as a new version of its lineage (see write/facts.ts). */
  remember(input: FactInput): Promise<RememberResult>;
  fetchEvents(input: FetchEventsInput): Promise<MemoryEvent[]>;
  search(input: SearchInput): Promise<SearchHit[]>;
  /** Seed 000's hybrid recipe: episodic window + semantic retrieval, fused, reranked, diversified, budgeted. */
  getContext(query: string, config?: ContextConfigInput & { tenant?: string }): Promise<ContextResult>;
  getFact(id: string, tenant?: string): Promise<Fact>;
  /** Every version of a lineage, oldest first: by its key or by the id of any of its versions. */
  factHistory(keyOrId: string, tenant?: string): Promise<Fact[]>;
  /** Mem0-style CRUD over semantic memory: list (filters, cursor, as_of/known_at), get, update, delete, history (memories.ts). */
  readonly memories: MemoriesApi;
  /** The same as `memories.list`. */
  list(input?: ListInput): Promise<ListPage>;
  redact(eventId: string, reason: string, tenant?: string): Promise<void>;
  forget(input: ForgetInput): Promise<ForgetReport>;
  /**
   * Imports a JSONL file; validates every line before writing any. A backup (what `exportRecords` writes, see
   * io/backup.ts) is restored as it was, into `tenant` or the backup's own; other JSONL is ingested as new
   * events and facts (io/jsonl.ts).
   */
  importJsonl(path: string, opts?: { tenant?: string; chunkLong?: boolean; onProgress?: (p: ImportProgress) => void }): Promise<ImportReport>;
  /** A lossless backup of a tenant, streamed line by line (io/backup-format.ts): every record of every kind. */
  exportRecords(tenant?: string): AsyncGenerator<BackupLine>;
  /** Deletes expired records physically now (reads already hide them). */
  sweep(): Promise<number>;
  /**
   * Resolves when every write so far is embedded and searchable by vector, and (unless `learn: false`) the
   * learner has segmented it into episodes, with those episodes and the facts it extracted embedded too.
   */
  flush(opts?: { learn?: boolean }): Promise<void>;
  /**
   * Loads a tenant's in-process search indexes and completes background index builds (an HNSW graph at
   * 100k vectors takes a minute or two), so later searches run at full speed. A no-op on engines that keep
   * their own indexes. Servers may call it at start; benchmarks call it before measuring.
   */
  warm(tenant?: string): Promise<void>;
  onIndexProgress(listener: (p: IndexerProgress) => void): () => void;
  /** Texts waiting for a vector (lexical search already finds them); with `upTo`, counted up to there. */
  embeddingBacklog(opts?: { upTo?: number }): Promise<number>;
  close(): Promise<void>;
  /** Positive/negative query → response examples from feedback (seed 003), and guidance built from them. */
  readonly examples: ExamplesApi;
  /** Bounded per-session scratchpads with priority eviction and MemGPT-style editing (seeds 002, 004). */
  readonly working: WorkingMemoryApi;
  // --- learn wiring (issue B) ---
  /** Episodes, links, causal chains, consolidation (src/learn/engine). */
  readonly learn: LearnApi;
  /** Procedural memory: findApplicable, recordOutcome, list, put. */
  readonly procedures: ProceduresApi;
  /**
   * Closes the loop for a retrieval: logs the outcome (and correction) in the retrieval's stream, closes its
   * episode, links it to exactly the retrieved episodes and facts, and reinforces or contradicts those facts.
   */
  recordOutcome(retrievalId: string, outcome: Outcome | Lowercase<Outcome>, opts?: OutcomeOptions): Promise<OutcomeReport>;
  // --- knowledge graph (issue I) ---
  /** Entities and versioned relations: the reference MCP memory server's operations, graph search, history and as-of reads. */
  readonly graph: GraphApi;
}
