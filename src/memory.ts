/**
 * `createMemory(deps)`: a thin facade over the three paths. Instances are passed in; nothing starts in a
 * constructor. The write path acknowledges once storage is durable; embedding happens behind it.
 */
import { parseContextConfig, parseEngramConfig, type EngramConfig } from './core/config.js';
import { EngramError } from './core/errors.js';
import { parseFilter } from './core/filter.js';
import { assertId, idKind } from './core/ids.js';
import { createTokenCounter } from './core/tokens.js';
import type { DocKind, EventType, Json } from './core/types.js';
import { systemClock, type Clock } from './ports/clock.js';
import { buildContext } from './read/context.js';
import { search as hybridSearch } from './read/search.js';
import type { ContextResult, ReadDeps, SearchHit } from './read/types.js';
import type { ConflictJudge } from './read/conflicts.js';
import { llmConflictDecider, llmConflictJudge, llmImportanceRater } from './learn/llm-judgements.js';
import { AppendQueue } from './write/append-queue.js';
import { prepareEvents, type EventWriteContext } from './write/events.js';
import { rememberFact, type RememberResult } from './write/facts.js';
import { documentVectorModel } from './write/document-vectors.js';
import { Indexer } from './write/indexer.js';
import { createScrubber } from './write/scrub.js';
import { forgetWorkingMemories, sessionsToForget } from './forget-working.js';
import { Lru } from './core/lru.js';
import { createExamplesApi, type LearnDeps } from './learn/feedback/index.js';
import { createWorkingMemoryApi } from './working/index.js';
import { importJsonl, type ImportProgress, type ImportReport } from './io/jsonl.js';
import { exportBackup, importBackup, isBackupFile } from './io/backup.js';
import type { BackupLine } from './io/backup-format.js';
import { createMemoriesApi } from './memories.js';
import { fetchEventsQuery, searchRequest } from './memory-queries.js';
import type { ForgetInput, LoggedEvent, Memory, MemoryDeps } from './memory-api.js';
import type { ForgetReport } from './ports/storage.js';
// --- learn wiring (issue B) ---
import { createLearnEngine, type LearnEngine } from './learn/engine/index.js';
// --- knowledge graph (issue I) ---
import { createGraphApi } from './graph/api.js';
import { relateFact } from './learn/graph/facts.js';

export type { ForgetInput, LoggedEvent, Memory, MemoryDeps } from './memory-api.js';

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
  const embedQuery = queryEmbedder(embedder, (e) => deps.onBackgroundError?.(e));
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
  const consolidation = scheduleConsolidation(config, learnEngine.learn, (e) => deps.onBackgroundError?.(e));
  const rate = importanceRater(config.importance.method === 'llm' && deps.llm ? llmImportanceRater(deps.llm) : undefined, (e) => deps.onBackgroundError?.(e));

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

  const sweepTimer = scheduleSweep(config.retention.sweepIntervalMinutes, storage, clock, (e) => deps.onBackgroundError?.(e));

  async function append(inputs: readonly unknown[], path: string): Promise<LoggedEvent[]> {
    const events = prepareEvents(writeCtx, inputs, path);
    if (events.length === 0) return [];
    await rate(events, inputs);
    const results = await queue.append(events);
    for (const e of events) consolidation.touched.add(e.tenant);
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
    ...feedbackCalls(() => memory),
  };

  const memoriesApi = createMemoriesApi({
    storage,
    now: () => clock.now(),
    defaultTenant: config.defaultTenant,
    remember: (input) => memory.remember(input),
    forget: (input) => memory.forget(input),
  });

  const parts: Parts = { storage, queue, indexer, learner: learnEngine.learner, clock, tenantOf };
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
      return forgetRecords(parts, input);
    },
    async importJsonl(path, opts = {}) {
      if (!(await isBackupFile(path))) return importJsonl(memory, writeCtx, path, opts);
      return restoreBackup(parts, path, opts);
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
      await consolidation.stop();
      await queue.drain();
      await learnEngine.learner.stop();
      await indexer.stop();
      await embedder.close();
      await storage.close();
    },
  };
  return memory;
}

/** What the memory's larger operations below work on. */
interface Parts {
  storage: MemoryDeps['storage'];
  queue: AppendQueue;
  indexer: Indexer;
  learner: LearnEngine['learner'];
  clock: Clock;
  tenantOf: (t?: string) => string;
}

/** `forget`: ids or a scope, once queued writes have landed; the tenant's learner starts afresh. */
async function forgetRecords({ storage, queue, learner, clock, tenantOf }: Parts, input: ForgetInput): Promise<ForgetReport & { workingMemories?: number }> {
  const ids = input.ids ?? [];
  ids.forEach((id, i) => {
    if (!idKind(id)) throw new EngramError('VALIDATION', `ids.${i} is not an Engram id`, { issues: [{ path: `ids.${i}`, message: 'unknown id' }] });
  });
  if (ids.length === 0 && input.scope === undefined) {
    throw new EngramError('VALIDATION', 'forget needs ids or a scope', { issues: [{ path: '', message: 'give ids or scope' }] });
  }
  await queue.drain();
  const tenant = tenantOf(input.tenant);
  learner.reset(tenant);
  const sessions = await sessionsToForget(storage, tenant, input.scope);
  const report = await storage.forget({ tenant, ...(ids.length ? { ids } : {}), ...(input.scope ? { scope: input.scope } : {}) }, clock.now());
  const workingMemories = await forgetWorkingMemories(storage, tenant, sessions);
  return workingMemories > 0 ? { ...report, workingMemories } : report;
}

/** `importJsonl` of a backup file: restored once queued writes have landed. */
async function restoreBackup({ storage, queue, indexer, learner }: Parts, path: string, opts: { tenant?: string; onProgress?: (p: ImportProgress) => void }): Promise<ImportReport> {
  await queue.drain();
  const r = await importBackup(storage, path, { tenant: opts.tenant, onProgress: opts.onProgress });
  // The restored timeline, episodes and learner checkpoint are read afresh; new docs wait for vectors.
  learner.reset(r.tenant);
  indexer.notify();
  const duplicates = Object.values(r.records).reduce((n, k) => n + k.existing + k.kept, 0);
  return { lines: r.lines, events: r.records.event.written, facts: r.records.fact.written, duplicates, records: r.records };
}

/** The query's vector, cached (512 queries); without one, retrieval degrades to lexical-only rather than failing. */
function queryEmbedder(embedder: MemoryDeps['embedder'], onError: (e: unknown) => void): (text: string) => Promise<Float32Array | undefined> {
  const queryVectors = new Lru<string, Float32Array>(512);
  return async (text: string): Promise<Float32Array | undefined> => {
    const hit = queryVectors.get(text);
    if (hit) return hit;
    try {
      const [v] = await embedder.embed([text], { priority: 'query' });
      if (v) queryVectors.set(text, v);
      return v;
    } catch (e) {
      // Retrieval degrades to lexical-only rather than failing the read.
      onError(e);
      return undefined;
    }
  };
}

interface ConsolidationSchedule {
  /** Tenants written to since the last run (and the default tenant): the writer adds to it. */
  touched: Set<string>;
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

/**
 * Consolidation on a schedule (learn.engine.consolidateEveryMinutes): each tenant written to since the last
 * run, and the default tenant. One run at a time; failures go to onBackgroundError.
 */
function scheduleConsolidation(config: EngramConfig, learn: Pick<Memory['learn'], 'consolidate'>, onError: (e: unknown) => void): ConsolidationSchedule {
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
        for (const tenant of tenants) await learn.consolidate({ tenant }).catch((e: unknown) => onError(e));
      })().finally(() => {
        consolidating = undefined;
      });
    }, config.learn.engine.consolidateEveryMinutes * 60_000);
    consolidateTimer.unref();
  }
  return {
    touched,
    async stop() {
      if (consolidateTimer) clearInterval(consolidateTimer);
      await consolidating;
    },
  };
}

/** The LLM's rating for events whose caller gave no importance; the content rating stays when it fails. */
function importanceRater(
  rateImportance: ReturnType<typeof llmImportanceRater> | undefined,
  onError: (e: unknown) => void,
): (events: { importance: number; content: string }[], inputs: readonly unknown[]) => Promise<void> {
  return async function rate(events, inputs) {
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
        onError(e);
        return;
      }
    }
  };
}

/** Sweeps expired records every `minutes` (0: never); the timer does not keep the process alive. */
function scheduleSweep(minutes: number, storage: MemoryDeps['storage'], clock: Clock, onError: (e: unknown) => void): NodeJS.Timeout | undefined {
  let sweepTimer: NodeJS.Timeout | undefined;
  if (minutes > 0) {
    sweepTimer = setInterval(() => {
      storage.sweepExpired(clock.now()).catch((e: unknown) => onError(e));
    }, minutes * 60_000);
    sweepTimer.unref();
  }
  return sweepTimer;
}

/** What the examples and working-memory APIs call back on the memory: remember a fact, search. */
function feedbackCalls(memory: () => Memory): Pick<LearnDeps, 'remember' | 'search'> {
  return {
    remember: async (text, meta) => {
      const { tenant, source, tags, metadata, ...scope } = meta;
      const r = await memory().remember({ text, tenant, ...scope, ...(source ? { source } : {}), tags: tags ?? [], metadata: metadata ?? {} });
      return { id: r.fact.id };
    },
    search: async (query, o) =>
      (await memory().search({ query, tenant: o.tenant, userId: o.userId, agentId: o.agentId, sessionId: o.sessionId, k: o.k, ...(o.kinds ? { kinds: o.kinds } : {}) })).map((h) => ({
        id: h.doc.refId,
        kind: h.doc.kind,
        text: h.doc.text,
        score: h.score,
      })),
  };
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
