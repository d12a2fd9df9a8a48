/**
 * `createMemory(deps)`: a thin facade over the three paths. Instances are passed in; nothing starts in a
 * constructor. The write path acknowledges once storage is durable; embedding happens behind it.
 */
import { parseContextConfig, parseEngramConfig, type ContextConfigInput, type EngramConfig, type EngramConfigInput } from './core/config.js';
import { EngramError } from './core/errors.js';
import { parseFilter } from './core/filter.js';
import { assertId, idKind } from './core/ids.js';
import { createTokenCounter, type TokenCounter } from './core/tokens.js';
import type { DocKind, EventType, Fact, Json, MemoryEvent } from './core/types.js';
import { systemClock, type Clock } from './ports/clock.js';
import type { Embedder } from './ports/embedder.js';
import type { Reranker } from './ports/reranker.js';
import type { ForgetReport, ScopeFilter, Storage } from './ports/storage.js';
import { buildContext } from './read/context.js';
import { search as hybridSearch } from './read/search.js';
import type { ContextResult, ReadDeps, SearchHit } from './read/types.js';
import type { ConflictJudge } from './read/conflicts.js';
import { llmConflictDecider, llmConflictJudge, llmImportanceRater } from './learn/llm-judgements.js';
import { AppendQueue } from './write/append-queue.js';
import { prepareEvents, type EventWriteContext } from './write/events.js';
import { rememberFact, type RememberResult } from './write/facts.js';
import { documentVectorModel } from './write/document-vectors.js';
import { Indexer, type IndexerProgress } from './write/indexer.js';
import type { EventInput, FactInput } from './write/input.js';
import { createScrubber } from './write/scrub.js';
import { forgetWorkingMemories, sessionsToForget } from './forget-working.js';
import { Lru } from './core/lru.js';
import { createExamplesApi, type ExamplesApi, type LearnDeps } from './learn/feedback/index.js';
import { createWorkingMemoryApi, type WorkingMemoryApi } from './working/index.js';
import { importJsonl, type ImportProgress, type ImportReport } from './io/jsonl.js';
import { exportBackup, importBackup, isBackupFile } from './io/backup.js';
import type { BackupLine } from './io/backup-format.js';
import { createMemoriesApi, type ListInput, type ListPage, type MemoriesApi } from './memories.js';
import { fetchEventsQuery, searchRequest, type FetchEventsInput, type SearchInput } from './memory-queries.js';
// --- learn wiring (issue B) ---
import type { Outcome } from './core/types.js';
import type { Llm } from './ports/llm.js';
import { createLearnEngine, type LearnApi, type OutcomeOptions, type OutcomeReport, type ProceduresApi } from './learn/engine/index.js';
// --- knowledge graph (issue I) ---
import { createGraphApi, type GraphApi } from './graph/api.js';
import { relateFact } from './learn/graph/facts.js';

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

export async function createMemory(deps: MemoryDeps): Promise<Memory> {
  const config = parseEngramConfig(deps.config ?? {});
  const clock = deps.clock ?? systemClock;
  const tokens = deps.tokens ?? createTokenCounter(config.tokenizer.encoding);
  const { storage, embedder, reranker } = deps;
  const { dimension } = await embedder.init();
  await storage.init({ embeddingModel: documentVectorModel(embedder.model, config.indexing.documentVectors), dimension });

  const writeCtx: EventWriteContext = {
    config,
    scrubber: createScrubber(config.pii),
    clock,
    defaultTenant: config.defaultTenant,
    decideConflict: deps.llm ? llmConflictDecider(deps.llm) : undefined,
    onError: (e) => deps.onBackgroundError?.(e),
  };
  const queue = new AppendQueue(storage);
  const indexer = new Indexer(storage, embedder, {
    batchSize: config.indexing.batchSize,
    documentVectors: config.indexing.documentVectors,
    lingerMs: config.indexing.lingerMs,
    ...(deps.onBackgroundError ? { onError: deps.onBackgroundError } : {}),
  });
  if (config.indexing.background) indexer.start();
  const queryVectors = new Lru<string, Float32Array>(512);
  const embedQuery = async (text: string): Promise<Float32Array | undefined> => {
    const hit = queryVectors.get(text);
    if (hit) return hit;
    try {
      const [v] = await embedder.embed([text], { priority: 'query' });
      if (v) queryVectors.set(text, v);
      return v;
    } catch (e) {
      // Retrieval degrades to lexical-only rather than failing the read.
      deps.onBackgroundError?.(e);
      return undefined;
    }
  };
  // --- learn wiring (issue B) ---
  const learnEngine = createLearnEngine(
    { storage, clock, settings: config.learn, embedder, llm: deps.llm, factPolicy: config.facts, onError: (e) => deps.onBackgroundError?.(e) },
    {
      defaultTenant: config.defaultTenant,
      append: (inputs) => append(inputs, 'events'),
      // Segment with vectors: wait for the embedding backlog, but never longer than vectorWaitMs.
      waitForVectors: () => (config.indexing.background ? waitAtMost(indexer.drain(), config.learn.engine.vectorWaitMs) : Promise.resolve()),
    },
  );
  if (config.learn.engine.background) learnEngine.learner.start();

  // Consolidation on a schedule (learn.engine.consolidateEveryMinutes): each tenant written to since the last
  // run, and the default tenant. One run at a time; failures go to onBackgroundError.
  const touched = new Set<string>([config.defaultTenant]);
  let consolidateTimer: NodeJS.Timeout | undefined;
  let consolidating: Promise<void> | undefined;
  if (config.learn.engine.consolidateEveryMinutes > 0) {
    consolidateTimer = setInterval(() => {
      if (consolidating) return;
      const tenants = [...touched];
      touched.clear();
      touched.add(config.defaultTenant);
      consolidating = (async () => {
        for (const tenant of tenants) await learnEngine.learn.consolidate({ tenant }).catch((e: unknown) => deps.onBackgroundError?.(e));
      })().finally(() => {
        consolidating = undefined;
      });
    }, config.learn.engine.consolidateEveryMinutes * 60_000);
    consolidateTimer.unref();
  }

  const rateImportance = config.importance.method === 'llm' && deps.llm ? llmImportanceRater(deps.llm) : undefined;
  /** The LLM's rating for events whose caller gave no importance; the content rating stays when it fails. */
  async function rate(events: { importance: number; content: string }[], inputs: readonly unknown[]): Promise<void> {
    if (!rateImportance) return;
    const open = events.flatMap((e, i) => ((inputs[i] as { importance?: unknown } | null)?.importance === undefined ? [e] : []));
    for (let i = 0; i < open.length; i += 50) {
      const batch = open.slice(i, i + 50);
      try {
        const ratings = await rateImportance(batch.map((e) => e.content));
        batch.forEach((e, j) => {
          if (ratings[j] !== undefined) e.importance = ratings[j]!;
        });
      } catch (e) {
        deps.onBackgroundError?.(e);
        return;
      }
    }
  }

  const readDeps: ReadDeps = {
    storage,
    reranker,
    tokens,
    clock,
    embedQuery,
    scrubText: (t) => writeCtx.scrubber.scrub(t).text,
    scrubJson: (v) => writeCtx.scrubber.scrubJson(v as Json).value,
    factPolicy: config.facts,
    // The configured LLM confirms or overrules detected conflicts; when it fails, the rules decide alone.
    conflictJudge: deps.llm ? forgivingJudge(llmConflictJudge(deps.llm), (e) => deps.onBackgroundError?.(e)) : undefined,
  };
  const tenantOf = (t?: string) => t ?? config.defaultTenant;

  let sweepTimer: NodeJS.Timeout | undefined;
  if (config.retention.sweepIntervalMinutes > 0) {
    sweepTimer = setInterval(() => {
      storage.sweepExpired(clock.now()).catch((e: unknown) => deps.onBackgroundError?.(e));
    }, config.retention.sweepIntervalMinutes * 60_000);
    sweepTimer.unref();
  }

  async function append(inputs: readonly unknown[], path: string): Promise<LoggedEvent[]> {
    const events = prepareEvents(writeCtx, inputs, path);
    if (events.length === 0) return [];
    await rate(events, inputs);
    const results = await queue.append(events);
    for (const e of events) touched.add(e.tenant);
    indexer.notify();
    for (const tenant of new Set(events.map((e) => e.tenant))) learnEngine.learner.notify(tenant);
    const dupIds = results.filter((r) => r.duplicateOf).map((r) => r.duplicateOf!);
    const originals = dupIds.length ? new Map((await storage.getEvents(events[0]!.tenant, dupIds)).map((e) => [e.id, e])) : new Map();
    return events.map((e, i) => {
      const r = results[i]!;
      const original = r.duplicateOf ? originals.get(r.duplicateOf) : undefined;
      return original ? { ...original, duplicate: true } : { ...e, seq: r.seq, duplicate: false };
    });
  }

  const feedbackDeps: LearnDeps = {
    storage,
    embedQuery,
    clock,
    tokens,
    llm: deps.llm,
    reranker,
    notifyIndexer: () => indexer.notify(),
    defaultTenant: config.defaultTenant,
    scrub: (t) => writeCtx.scrubber.scrub(t).text,
    remember: async (text, meta) => {
      const { tenant, source, tags, metadata, ...scope } = meta;
      const r = await memory.remember({ text, tenant, ...scope, ...(source ? { source } : {}), tags: tags ?? [], metadata: metadata ?? {} });
      return { id: r.fact.id };
    },
    search: async (query, o) =>
      (await memory.search({ query, tenant: o.tenant, userId: o.userId, agentId: o.agentId, sessionId: o.sessionId, k: o.k, ...(o.kinds ? { kinds: o.kinds } : {}) })).map((h) => ({
        id: h.doc.refId,
        kind: h.doc.kind,
        text: h.doc.text,
        score: h.score,
      })),
  };

  const memoriesApi = createMemoriesApi({
    storage,
    now: () => clock.now(),
    defaultTenant: config.defaultTenant,
    remember: (input) => memory.remember(input),
    forget: (input) => memory.forget(input),
  });

  const memory: Memory = {
    examples: createExamplesApi(feedbackDeps),
    working: createWorkingMemoryApi(feedbackDeps, config.working),
    config,
    storage,
    embedder,
    async logEvent(input) {
      return (await append([input], 'event'))[0]!;
    },
    async logEvents(inputs) {
      if (!Array.isArray(inputs)) throw new EngramError('VALIDATION', 'events must be an array', { issues: [{ path: 'events', message: 'expected an array' }] });
      return append(inputs, 'events');
    },
    async remember(input) {
      const result = await rememberFact(writeCtx, storage, input);
      if (result.status !== 'duplicate') {
        indexer.notify();
        // A fact whose predicate names a relation (works_at, manager, lives_in …) is also that relation (learn/graph/facts.ts).
        if (config.learn.engine.graph) await relateFact(storage, result.fact, { now: clock.now(), replaced: result.status === 'versioned' });
      }
      return result;
    },
    async fetchEvents(input) {
      return storage.queryEvents(fetchEventsQuery(input, tenantOf(input.tenant), clock.now()));
    },
    async search(input) {
      return hybridSearch(readDeps, searchRequest(input, tenantOf(input.tenant)));
    },
    async getContext(query, cfg = {}) {
      const { tenant, ...rest } = cfg;
      const config = parseContextConfig({ ...rest, query });
      // Validate filters up front so a bad one is a VALIDATION error naming its path.
      parseFilter(config.episodic_window.filters, 'episodic_window.filters');
      parseFilter(config.semantic_retrieval.filters, 'semantic_retrieval.filters');
      const scope = config.scope ? { userId: config.scope.user_id, agentId: config.scope.agent_id, sessionId: config.scope.session_id } : undefined;
      return buildContext(readDeps, { tenant: tenantOf(tenant), query, config, ...(scope ? { scope } : {}) });
    },
    async getFact(id, tenant) {
      assertId('fact', id);
      const fact = await storage.getFact(tenantOf(tenant), id);
      if (!fact) throw new EngramError('NOT_FOUND', `no fact ${id}`);
      return fact;
    },
    async factHistory(keyOrId, tenant) {
      return memoriesApi.history(keyOrId, tenant);
    },
    memories: memoriesApi,
    list: (input) => memoriesApi.list(input),
    async redact(eventId, reason, tenant) {
      assertId('event', eventId);
      const ok = await storage.redactEvent(tenantOf(tenant), eventId, reason, clock.now());
      if (!ok) throw new EngramError('NOT_FOUND', `no event ${eventId}`);
      // learn wiring: the episode that summarised the event is described again without it.
      await learnEngine.learner.redescribe(tenantOf(tenant), eventId);
    },
    async forget(input) {
      const ids = input.ids ?? [];
      ids.forEach((id, i) => {
        if (!idKind(id)) throw new EngramError('VALIDATION', `ids.${i} is not an Engram id`, { issues: [{ path: `ids.${i}`, message: 'unknown id' }] });
      });
      if (ids.length === 0 && input.scope === undefined) {
        throw new EngramError('VALIDATION', 'forget needs ids or a scope', { issues: [{ path: '', message: 'give ids or scope' }] });
      }
      await queue.drain();
      const tenant = tenantOf(input.tenant);
      learnEngine.learner.reset(tenant);
      const sessions = await sessionsToForget(storage, tenant, input.scope);
      const report = await storage.forget({ tenant, ...(ids.length ? { ids } : {}), ...(input.scope ? { scope: input.scope } : {}) }, clock.now());
      const workingMemories = await forgetWorkingMemories(storage, tenant, sessions);
      return workingMemories > 0 ? { ...report, workingMemories } : report;
    },
    async importJsonl(path, opts = {}) {
      if (!(await isBackupFile(path))) return importJsonl(memory, writeCtx, path, opts);
      await queue.drain();
      const r = await importBackup(storage, path, { tenant: opts.tenant, onProgress: opts.onProgress });
      // The restored timeline, episodes and learner checkpoint are read afresh; new docs wait for vectors.
      learnEngine.learner.reset(r.tenant);
      indexer.notify();
      const duplicates = Object.values(r.records).reduce((n, k) => n + k.existing + k.kept, 0);
      return { lines: r.lines, events: r.records.event.written, facts: r.records.fact.written, duplicates, records: r.records };
    },
    exportRecords(tenant) {
      return exportBackup(storage, tenantOf(tenant), clock.now());
    },
    async sweep() {
      return storage.sweepExpired(clock.now());
    },
    async flush(opts = {}) {
      await queue.drain();
      await indexer.drain();
      if (opts.learn === false) return;
      // Segmentation after embedding (events carry their vectors), then embed the episodes and facts it wrote.
      await learnEngine.learner.drain();
      await indexer.drain();
    },
    async warm(tenant) {
      await storage.warm?.(tenantOf(tenant));
    },
    onIndexProgress(listener) {
      indexer.on('progress', listener);
      return () => indexer.off('progress', listener);
    },
    async embeddingBacklog(opts = {}) {
      if (opts.upTo !== undefined && !(Number.isInteger(opts.upTo) && opts.upTo > 0)) {
        throw new EngramError('VALIDATION', 'invalid embeddingBacklog: upTo: a positive integer', { issues: [{ path: 'upTo', message: 'a positive integer' }] });
      }
      return storage.embeddingBacklog(opts);
    },
    // --- learn wiring (issue B) ---
    learn: learnEngine.learn,
    procedures: learnEngine.procedures,
    recordOutcome: (retrievalId, outcome, opts) => learnEngine.recordOutcome(retrievalId, outcome, opts),
    // --- knowledge graph (issue I) ---
    graph: createGraphApi(storage, clock, config.defaultTenant),
    async close() {
      if (sweepTimer) clearInterval(sweepTimer);
      if (consolidateTimer) clearInterval(consolidateTimer);
      await consolidating;
      await queue.drain();
      await learnEngine.learner.stop();
      await indexer.stop();
      await embedder.close();
      await storage.close();
    },
  };
  return memory;
}

function forgivingJudge(judge: ConflictJudge, onError: (e: unknown) => void): ConflictJudge {
  return async (input) => {
    try {
      return await judge(input);
    } catch (e) {
      onError(e);
      return undefined;
    }
  };
}

/** Resolves when `p` settles or after `ms`, whichever is first; never rejects (learn wiring). */
function waitAtMost(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref();
  });
  return Promise.race([p.then(() => undefined, () => undefined), timeout]).finally(() => clearTimeout(timer));
}

// --- learn wiring (issue B) ---
export type { LearnApi, OutcomeOptions, OutcomeReport, ProceduresApi } from './learn/engine/index.js';
export type { GraphApi, GraphScope, RefEntity, RefGraph, RefRelation, RelationInput, RelationQueryInput, RelationView } from './graph/api.js';
export type { ContextResult, SearchHit, RememberResult, EventType, DocKind, ImportReport, ImportProgress, BackupLine };
