/**
 * The PostgreSQL implementation of the storage port: a thin class that owns the pool and the context and
 * delegates each method to the store module for that part of the schema (the layout of the SQLite adapter).
 */
import { EngramError } from '../../../core/errors.js';
import type { Doc, MemoryEvent } from '../../../core/types.js';
import type { AppendResult, BackupEvent, DocHit, DocQuery, EventQuery, HydratedDocs, NewEvent, PendingEmbedding, RestoreReport, Storage, StorageCapabilities } from '../../../ports/storage.js';
import { assertVector } from '../sql/vector-codec.js';
import { usesAnn, type AnnOptions, type PgContext } from './context.js';
import { PgDb } from './db.js';
import { POSTGRES_DIALECT } from './dialect.js';
import { pgRunner } from './runner.js';
import type { SqlRunner } from '../sql/program.js';
import { SqlStorageBase } from '../sql/storage-base.js';
import * as docs from './doc-store.js';
import * as embeddings from './embedding-store.js';
import { toEngramError } from './errors.js';
import * as events from './event-store.js';
import { hydrateDocs } from './hydrate.js';
import type { PgMigration } from './migrate.js';
import { MIGRATIONS } from './migrations.js';
import { createPgPool, type PoolLike } from './pool.js';
import { prepareSchema } from './schema-setup.js';
import { InProcessIndexes } from './search-indexes.js';
import { annSearch } from './vector-search.js';
import type { VectorPreference } from './vector-setup.js';
import type { IndexEvent } from '../sql/index-file.js';
import type { VectorIndexOptions } from '../../vector/index.js';

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
  /**
   * This node's local directory for saved search indexes (one file per tenant, see docs/scaling.md), so a
   * restart loads them and catches up from the change feed instead of rebuilding. Default: none.
   */
  indexDir?: string;
  /** Change-feed rows older than this are pruned (ms; default one day); a reader further behind reloads. */
  feedRetentionMs?: number;
  /** Told when a tenant's index is opened (from its file, or from the rows and why) or saved. */
  onIndexEvent?: (e: IndexEvent) => void;
  /** Options of the tenants' in-process vector indexes (tests lower `annThreshold`); f32 row files go to `indexDir`. */
  vectorIndex?: VectorIndexOptions;
}

const SCHEMA_RE = /^[a-z_][a-z0-9_]{0,62}$/;
const DEFAULT_ANN: AnnOptions = { exactLimit: 5000, efSearch: 100 };

export class PostgresStorage extends SqlStorageBase<PgContext> implements Storage {
  readonly name = 'postgres';
  /** `ann`: above `ann.exactLimit` candidates, HNSW (or the in-process index) may return approximate results. */
  readonly capabilities: StorageCapabilities = { ann: true, multiProcess: true };
  readonly schema: string;
  protected readonly dialect = POSTGRES_DIALECT;
  private runner: SqlRunner | undefined;

  constructor(
    /** The pool, for PostgreSQL-specific maintenance and tests. */
    readonly pool: PoolLike,
    private readonly opts: PostgresStorageOptions,
    private readonly ownsPool: boolean,
  ) {
    super();
    this.schema = opts.schema ?? 'engram';
  }

  protected runnerOf(ctx: PgContext): SqlRunner {
    this.runner ??= pgRunner(ctx);
    return this.runner;
  }

  protected toError(what: string, e: unknown): EngramError {
    return toEngramError(what, e);
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
      const db = new PgDb(this.pool, setup.names);
      const ctx: PgContext = {
        db,
        model: opts.embeddingModel,
        dimension: opts.dimension,
        mode: setup.mode,
        ann: setup.ann,
        indexes: new InProcessIndexes(db, {
          model: opts.embeddingModel,
          dimension: opts.dimension,
          mode: setup.mode,
          vectors: !usesAnn({ ann: setup.ann, model: opts.embeddingModel, dimension: opts.dimension }),
          schema: this.schema,
          indexDir: this.opts.indexDir,
          feedRetentionMs: this.opts.feedRetentionMs,
          onIndexEvent: this.opts.onIndexEvent,
          vectorIndex: this.opts.vectorIndex,
        }),
        annOptions: { ...DEFAULT_ANN, ...this.opts.ann },
      };
      const stored = await embeddings.storedDimension(ctx, opts.embeddingModel);
      if (stored !== undefined && stored !== opts.dimension) {
        throw new EngramError('CONFIG', `model ${opts.embeddingModel} has ${stored}-dimensional vectors stored, not ${opts.dimension}`);
      }
      this.ctx = ctx;
    } catch (e) {
      throw toEngramError('postgres storage: init', e);
    }
  }

  /** Loads the tenant's in-process indexes (or catches them up) and completes the vector graph. */
  warm(tenant: string): Promise<void> {
    return this.run('warm', (c) => c.indexes.warm(tenant));
  }

  /** Deletes change-feed rows older than `olderThanMs` (see InProcessIndexes.pruneFeed); returns how many. */
  pruneChangeFeed(olderThanMs: number): Promise<number> {
    return this.run('pruneChangeFeed', (c) => c.indexes.pruneFeed(olderThanMs));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    if (this.ctx) await this.ctx.indexes.saveAll().catch(() => undefined);
    this.closed = true;
    this.ctx = undefined;
    this.runner = undefined;
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
  }  protected restoreEvents(batch: readonly BackupEvent[]): Promise<RestoreReport> {
    return this.run('restoreEvents', (c) => events.restoreEvents(c, batch));
  }


  // --- retrieval projection ---
  getDocs(tenant: string, docIds: readonly number[]): Promise<Doc[]> {
    return this.run('getDocs', (c) => docs.getDocs(c.db, tenant, docIds));
  }
  hydrateDocs(tenant: string, docIds: readonly number[], opts?: { events?: number }): Promise<HydratedDocs> {
    return this.run('hydrateDocs', (c) => hydrateDocs(c, tenant, docIds, opts));
  }
  lexicalSearchWithTermBest(q: DocQuery & { text: string }): Promise<{ hits: DocHit[]; termBest: number[] }> {
    return this.run('lexicalSearch', (c) => c.indexes.lexicalSearch(q));
  }
  lexicalSearch(q: DocQuery & { text: string }): Promise<DocHit[]> {
    return this.run('lexicalSearch', async (c) => (await c.indexes.lexicalSearch(q)).hits);
  }
  vectorSearch(q: DocQuery & { vector: Float32Array }): Promise<DocHit[]> {
    return this.run('vectorSearch', (c) => {
      assertVector(q.vector, c.dimension, 'vector');
      return usesAnn(c) ? annSearch(c, q) : c.indexes.vectorSearch(q);
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
