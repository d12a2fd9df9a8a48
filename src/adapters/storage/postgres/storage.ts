/**
 * The PostgreSQL implementation of the storage port: a thin class that owns the pool and the context and
 * delegates each method to the store module for that part of the schema (the layout of the SQLite adapter).
 */
import { EngramError } from '../../../core/errors.js';
import type { ApiKeyRecord, Doc, Episode, Example, Fact, FactEvidence, Link, MemoryEvent, Procedure, WorkingMemoryRecord } from '../../../core/types.js';
import type {
  AppendResult,
  AuditRecord,
  DocHit,
  DocQuery,
  EpisodeQuery,
  EventQuery,
  ExampleQuery,
  FactVersionQuery,
  ForgetReport,
  ForgetSelector,
  LinkQuery,
  NewEvent,
  PendingEmbedding,
  ProcedureQuery,
  RetrievalRecord,
  ScopeFilter,
  Storage,
  StorageCapabilities,
  TraverseQuery,
} from '../../../ports/storage.js';
import { assertVector } from '../sqlite/vector-codec.js';
import * as apiKeys from './api-key-store.js';
import { usesAnn, type AnnOptions, type PgContext } from './context.js';
import { PgDb } from './db.js';
import * as docs from './doc-store.js';
import * as embeddings from './embedding-store.js';
import * as episodes from './episode-store.js';
import { toEngramError } from './errors.js';
import * as events from './event-store.js';
import * as evidence from './evidence-store.js';
import * as examples from './example-store.js';
import * as facts from './fact-store.js';
import { lexicalSearch, lexicalSearchWithTermBest, Stemmer } from './lexical-search.js';
import * as links from './link-store.js';
import * as logs from './log-store.js';
import type { PgMigration } from './migrate.js';
import { MIGRATIONS } from './migrations.js';
import { createPgPool, type PoolLike } from './pool.js';
import * as procedures from './procedure-store.js';
import * as retention from './retention.js';
import { prepareSchema } from './schema-setup.js';
import { InProcessVectors } from './vector-cache.js';
import { annSearch } from './vector-search.js';
import type { VectorPreference } from './vector-setup.js';
import * as workingMemory from './working-memory-store.js';

export interface StorageLogger {
  warn(message: string, details?: Record<string, unknown>): void;
}

export interface PostgresStorageOptions {
  /** A connection URL (`postgres://user@host:5432/db`); the storage creates and owns a `pg.Pool` for it. */
  url?: string;
  /** A pool to use instead (not ended by `close` unless `ownsPool`): a `pg.Pool`, or `openPglitePool` for an embedded PGlite. */
  pool?: PoolLike;
  /** Whether `close` ends the given `pool` too (an embedded PGlite opened for this storage alone). */
  ownsPool?: boolean;
  /** The schema holding Engram's tables (created if missing). Default 'engram'. */
  schema?: string;
  /** Connections of the pool created for `url`. Default 10. */
  poolSize?: number;
  /**
   * How vectors are kept in a new schema: 'auto' (pgvector when available, else bytea with a warning),
   * 'pgvector' (refuse to start without it) or 'bytea'. An existing schema keeps the mode it was created with.
   */
  vectors?: VectorPreference;
  ann?: Partial<AnnOptions>;
  /** Where the one-time warnings go (default: console.warn). */
  logger?: StorageLogger;
  /** The schema to migrate to; tests pass a prefix or an extension of `MIGRATIONS`. */
  migrations?: readonly PgMigration[];
}

const SCHEMA_RE = /^[a-z_][a-z0-9_]{0,62}$/;
const DEFAULT_ANN: AnnOptions = { exactLimit: 5000, efSearch: 100 };

export class PostgresStorage implements Storage {
  readonly name = 'postgres';
  /** `ann`: above `ann.exactLimit` candidates, HNSW (or the in-process index) may return approximate results. */
  readonly capabilities: StorageCapabilities = { ann: true, multiProcess: true };
  private ctx: PgContext | undefined;
  private closed = false;
  readonly schema: string;

  constructor(
    /** The pool, for PostgreSQL-specific maintenance and tests. */
    readonly pool: PoolLike,
    private readonly opts: PostgresStorageOptions,
    private readonly ownsPool: boolean,
  ) {
    this.schema = opts.schema ?? 'engram';
  }

  /** How this instance searches vectors (after init): 'hnsw' in PostgreSQL, or 'in-process'. */
  get vectorSearchMode(): 'hnsw' | 'in-process' | undefined {
    return this.ctx && (usesAnn(this.ctx) ? 'hnsw' : 'in-process');
  }

  async init(opts: { embeddingModel: string; dimension: number }): Promise<void> {
    if (!opts.embeddingModel) throw new EngramError('CONFIG', 'embeddingModel is required');
    if (!Number.isInteger(opts.dimension) || opts.dimension <= 0) throw new EngramError('CONFIG', 'dimension must be a positive integer');
    if (this.closed) throw new EngramError('UNAVAILABLE', 'postgres storage: init after close()');
    const logger = this.opts.logger ?? { warn: (message: string) => console.warn(message) };
    try {
      const setup = await prepareSchema(this.pool, {
        schema: this.schema,
        migrations: this.opts.migrations ?? MIGRATIONS,
        preference: this.opts.vectors ?? 'auto',
        model: opts.embeddingModel,
        dimension: opts.dimension,
        warn: (message, details) => logger.warn(message, details),
      });
      let vectors: InProcessVectors | undefined;
      const db = new PgDb(this.pool, setup.names, (info) => vectors?.applyCommit(info));
      const ctx: PgContext = {
        db,
        model: opts.embeddingModel,
        dimension: opts.dimension,
        mode: setup.mode,
        ann: setup.ann,
        vectors: undefined,
        annOptions: { ...DEFAULT_ANN, ...this.opts.ann },
        stemmer: new Stemmer(db),
      };
      const stored = await embeddings.storedDimension(ctx, opts.embeddingModel);
      if (stored !== undefined && stored !== opts.dimension) {
        throw new EngramError('CONFIG', `model ${opts.embeddingModel} has ${stored}-dimensional vectors stored, not ${opts.dimension}`);
      }
      if (!usesAnn(ctx)) {
        vectors = new InProcessVectors(ctx.db, ctx.model, ctx.dimension, ctx.mode);
        ctx.vectors = vectors;
      }
      this.ctx = ctx;
    } catch (e) {
      throw toEngramError('postgres storage: init', e);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.ctx = undefined;
    if (this.ownsPool) await this.pool.end();
  }

  // --- timeline ---
  appendEvents(batch: readonly NewEvent[]): Promise<AppendResult[]> {
    return this.run('appendEvents', (c) => events.appendEvents(c, batch));
  }
  getEvents(tenant: string, ids: readonly string[]): Promise<MemoryEvent[]> {
    return this.run('getEvents', (c) => events.getEvents(c, tenant, ids));
  }
  queryEvents(q: EventQuery): Promise<MemoryEvent[]> {
    return this.run('queryEvents', (c) => events.queryEvents(c, q));
  }
  redactEvent(tenant: string, id: string, reason: string, at: number): Promise<boolean> {
    return this.run('redactEvent', (c) => events.redactEvent(c, tenant, id, reason, at));
  }

  // --- facts ---
  putFact(fact: Fact): Promise<{ fact: Fact; duplicate: boolean }> {
    return this.run('putFact', (c) => facts.putFact(c, fact));
  }
  getFact(tenant: string, id: string): Promise<Fact | undefined> {
    return this.run('getFact', (c) => facts.getFact(c, tenant, id));
  }
  getLiveFact(tenant: string, key: string, now: number): Promise<Fact | undefined> {
    return this.run('getLiveFact', (c) => facts.getLiveFact(c, tenant, key, now));
  }
  getFactVersions(q: FactVersionQuery): Promise<Fact[]> {
    return this.run('getFactVersions', (c) => facts.getFactVersions(c, q));
  }
  findFactByHash(tenant: string, scope: ScopeFilter, source: string | undefined, contentHash: string, now: number): Promise<Fact | undefined> {
    return this.run('findFactByHash', (c) => facts.findFactByHash(c, tenant, scope, source, contentHash, now));
  }
  updateFactStats(tenant: string, id: string, stats: Pick<Fact, 'confidence' | 'supportCount' | 'contradictCount'>): Promise<void> {
    return this.run('updateFactStats', (c) => facts.updateFactStats(c, tenant, id, stats));
  }
  listFacts(q: { tenant: string; scope?: ScopeFilter; includeExpired?: boolean; limit?: number; now: number }): Promise<Fact[]> {
    return this.run('listFacts', (c) => facts.listFacts(c, q));
  }

  // --- retrieval projection ---
  getDocs(tenant: string, docIds: readonly number[]): Promise<Doc[]> {
    return this.run('getDocs', (c) => docs.getDocs(c.db, tenant, docIds));
  }
  lexicalSearchWithTermBest(q: DocQuery & { text: string }): Promise<{ hits: DocHit[]; termBest: number[] }> {
    return this.run('lexicalSearch', (c) => lexicalSearchWithTermBest(c.db, c.stemmer, q));
  }
  lexicalSearch(q: DocQuery & { text: string }): Promise<DocHit[]> {
    return this.run('lexicalSearch', (c) => lexicalSearch(c.db, c.stemmer, q));
  }
  vectorSearch(q: DocQuery & { vector: Float32Array }): Promise<DocHit[]> {
    return this.run('vectorSearch', (c) => {
      assertVector(q.vector, c.dimension, 'vector');
      return c.vectors ? c.vectors.search(q) : annSearch(c, q);
    });
  }

  // --- embeddings ---
  pendingEmbeddings(limit: number): Promise<PendingEmbedding[]> {
    return this.run('pendingEmbeddings', (c) => embeddings.pendingEmbeddings(c, limit));
  }
  embeddingBacklog(opts: { upTo?: number } = {}): Promise<number> {
    return this.run('embeddingBacklog', (c) => embeddings.embeddingBacklog(c, opts.upTo));
  }
  putEmbeddings(rows: readonly { contentHash: string; vector: Float32Array }[]): Promise<void> {
    return this.run('putEmbeddings', (c) => embeddings.putEmbeddings(c, rows));
  }
  getEmbeddings(contentHashes: readonly string[]): Promise<Map<string, Float32Array>> {
    return this.run('getEmbeddings', (c) => embeddings.getEmbeddings(c, contentHashes));
  }

  // --- retention ---
  forget(sel: ForgetSelector, at: number): Promise<ForgetReport> {
    return this.run('forget', (c) => retention.forget(c, sel, at));
  }
  sweepExpired(now: number): Promise<number> {
    return this.run('sweepExpired', (c) => retention.sweepExpired(c, now));
  }

  // --- episodes ---
  putEpisode(episode: Episode): Promise<void> {
    return this.run('putEpisode', (c) => episodes.putEpisode(c, episode));
  }
  getEpisodes(tenant: string, ids: readonly string[]): Promise<Episode[]> {
    return this.run('getEpisodes', (c) => episodes.getEpisodes(c, tenant, ids));
  }
  listEpisodes(q: EpisodeQuery): Promise<Episode[]> {
    return this.run('listEpisodes', (c) => episodes.listEpisodes(c, q));
  }

  // --- links ---
  putLinks(batch: readonly Link[]): Promise<Link[]> {
    return this.run('putLinks', (c) => links.putLinks(c, batch));
  }
  getLinks(q: LinkQuery): Promise<Link[]> {
    return this.run('getLinks', (c) => links.getLinks(c, q));
  }
  traverse(q: TraverseQuery): Promise<{ link: Link; depth: number }[]> {
    return this.run('traverse', (c) => links.traverse(c, q));
  }
  deleteLinks(tenant: string, ids: readonly string[]): Promise<number> {
    return this.run('deleteLinks', (c) => links.deleteLinks(c, tenant, ids));
  }

  // --- fact evidence ---
  addFactEvidence(rows: readonly FactEvidence[]): Promise<void> {
    return this.run('addFactEvidence', (c) => evidence.addFactEvidence(c, rows));
  }
  getFactEvidence(tenant: string, factId: string): Promise<FactEvidence[]> {
    return this.run('getFactEvidence', (c) => evidence.getFactEvidence(c, tenant, factId));
  }

  // --- procedures ---
  putProcedure(p: Procedure): Promise<void> {
    return this.run('putProcedure', (c) => procedures.putProcedure(c, p));
  }
  getProcedures(tenant: string, ids: readonly string[]): Promise<Procedure[]> {
    return this.run('getProcedures', (c) => procedures.getProcedures(c, tenant, ids));
  }
  listProcedures(q: ProcedureQuery): Promise<Procedure[]> {
    return this.run('listProcedures', (c) => procedures.listProcedures(c, q));
  }

  // --- feedback examples ---
  putExample(e: Example): Promise<void> {
    return this.run('putExample', (c) => examples.putExample(c, e));
  }
  getExamples(tenant: string, ids: readonly string[]): Promise<Example[]> {
    return this.run('getExamples', (c) => examples.getExamples(c, tenant, ids));
  }
  findExample(tenant: string, scope: ScopeFilter, contentHash: string): Promise<Example | undefined> {
    return this.run('findExample', (c) => examples.findExample(c, tenant, scope, contentHash));
  }
  listExamples(q: ExampleQuery): Promise<Example[]> {
    return this.run('listExamples', (c) => examples.listExamples(c, q));
  }
  deleteExample(tenant: string, id: string): Promise<boolean> {
    return this.run('deleteExample', (c) => examples.deleteExample(c, tenant, id));
  }

  // --- working memory ---
  getWorkingMemory(tenant: string, sessionId: string, now: number): Promise<WorkingMemoryRecord | undefined> {
    return this.run('getWorkingMemory', (c) => workingMemory.getWorkingMemory(c, tenant, sessionId, now));
  }
  putWorkingMemory(rec: Omit<WorkingMemoryRecord, 'version'>, expectedVersion: number): Promise<WorkingMemoryRecord> {
    return this.run('putWorkingMemory', (c) => workingMemory.putWorkingMemory(c, rec, expectedVersion));
  }
  deleteWorkingMemory(tenant: string, sessionId: string): Promise<boolean> {
    return this.run('deleteWorkingMemory', (c) => workingMemory.deleteWorkingMemory(c, tenant, sessionId));
  }

  // --- API keys ---
  putApiKey(k: ApiKeyRecord): Promise<void> {
    return this.run('putApiKey', (c) => apiKeys.putApiKey(c, k));
  }
  findApiKeyByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    return this.run('findApiKeyByHash', (c) => apiKeys.findApiKeyByHash(c, hash));
  }
  listApiKeys(tenant?: string): Promise<ApiKeyRecord[]> {
    return this.run('listApiKeys', (c) => apiKeys.listApiKeys(c, tenant));
  }
  revokeApiKey(id: string, at: number): Promise<boolean> {
    return this.run('revokeApiKey', (c) => apiKeys.revokeApiKey(c, id, at));
  }

  // --- logs ---
  putRetrieval(rec: RetrievalRecord): Promise<void> {
    return this.run('putRetrieval', (c) => logs.putRetrieval(c, rec));
  }
  getRetrieval(tenant: string, id: string): Promise<RetrievalRecord | undefined> {
    return this.run('getRetrieval', (c) => logs.getRetrieval(c, tenant, id));
  }
  listAudit(tenant: string, limit: number): Promise<AuditRecord[]> {
    return this.run('listAudit', (c) => logs.listAudit(c, tenant, limit));
  }

  /** Runs a store function with the initialised context, mapping every failure to an EngramError. */
  private async run<T>(what: string, fn: (c: PgContext) => Promise<T>): Promise<T> {
    const ctx = this.ctx;
    if (!ctx) throw new EngramError(this.closed ? 'UNAVAILABLE' : 'ADAPTER', `postgres storage: ${what} before init()${this.closed ? ' or after close()' : ''}`);
    try {
      return await fn(ctx);
    } catch (e) {
      throw toEngramError(`postgres storage: ${what}`, e);
    }
  }
}

/**
 * Opens a PostgreSQL storage on a URL (creating a pool, loading `pg` lazily) or on a given pool. Nothing
 * is migrated until `init` runs.
 */
export async function openPostgresStorage(opts: PostgresStorageOptions): Promise<PostgresStorage> {
  const schema = opts.schema ?? 'engram';
  if (!SCHEMA_RE.test(schema)) {
    throw new EngramError('CONFIG', `schema "${schema}" must be lower-case letters, digits and "_" (at most 63)`, {
      issues: [{ path: 'schema', message: 'lower-case letters, digits and "_"' }],
    });
  }
  if ((opts.url === undefined) === (opts.pool === undefined)) {
    throw new EngramError('CONFIG', 'postgres storage needs exactly one of url or pool', { issues: [{ path: 'url', message: 'give url or pool' }] });
  }
  const pool = opts.pool ?? (await createPgPool({ url: opts.url!, ...(opts.poolSize !== undefined ? { max: opts.poolSize } : {}) }));
  return new PostgresStorage(pool, opts, opts.ownsPool ?? opts.pool === undefined);
}
