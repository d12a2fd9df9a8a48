/**
 * The SQLite implementation of the storage port: a thin class that owns the connection and the caches
 * and delegates each method to the store module for that part of the schema.
 */
import { EngramError } from '../../../core/errors.js';
import { isEmpty } from '../../../core/filter.js';
import type { Doc, MemoryEvent } from '../../../core/types.js';
import type { AppendResult, BackupEvent, DocHit, DocQuery, EventQuery, NewEvent, PendingEmbedding, RestoreReport, Storage, StorageCapabilities } from '../../../ports/storage.js';
import { openDatabase, type Db } from './connection.js';
import { makeWrite, makeWriteRelaxed, type StoreContext } from './context.js';
import * as docs from './doc-store.js';
import { SQLITE_DIALECT } from './dialect.js';
import { sqliteRunner } from './runner.js';
import type { SqlRunner } from '../sql/program.js';
import { SqlStorageBase } from '../sql/storage-base.js';
import * as embeddings from './embedding-store.js';
import { toEngramError } from './errors.js';
import * as events from './event-store.js';
import { assertCurrent, migrate, type Migration } from './migrate.js';
import { MIGRATIONS } from './migrations.js';
import { StatementCache } from './statements.js';
import { FilterMemo } from './filter-memo.js';
import { LexicalCache } from './lexical-cache.js';
import { VectorCache } from './vector-cache.js';
import { DocFeed, type IndexEvent } from './per-tenant.js';
import { assertVector } from '../sql/vector-codec.js';
import type { VectorIndexOptions } from '../../vector/index.js';

export interface SqliteStorageOptions {
  /** A file path, or ':memory:' for a private in-memory database. */
  path: string;
  readonly?: boolean;
  /** The schema to migrate to; tests pass a prefix or an extension of `MIGRATIONS`. */
  migrations?: readonly Migration[];
  /**
   * Where the search indexes are saved so a restart loads them instead of rebuilding (one file per tenant and
   * index, see docs/scaling.md): default `<path>.indexes` beside the database file; `false` saves none.
   * An in-memory database saves none unless given a directory.
   */
  indexDir?: string | false;
  /** Options of the tenants' vector indexes (tests lower `annThreshold`); f32 row files go to the index directory. */
  vectorIndex?: VectorIndexOptions;
  /** Told when a tenant's index is opened (from its file, or from the rows and why) or saved. */
  onIndexEvent?: (e: IndexEvent) => void;
  /** Change-feed rows older than this are pruned (ms; default one day); a reader further behind reloads. */
  feedRetentionMs?: number;
}

/** One day: a process or saved file that was away longer loads from the rows (or a newer file). */
const DEFAULT_FEED_RETENTION_MS = 24 * 3600 * 1000;

/** The directory index files go to (undefined: none). */
export function sqliteIndexDir(opts: Pick<SqliteStorageOptions, 'path' | 'indexDir'>): string | undefined {
  if (opts.indexDir === false) return undefined;
  if (opts.indexDir !== undefined) return opts.indexDir;
  return opts.path === ':memory:' || opts.path === '' ? undefined : `${opts.path}.indexes`;
}

export class SqliteStorage extends SqlStorageBase<StoreContext> implements Storage {
  readonly name = 'sqlite';
  /** `ann`: vector search goes through `createVectorIndex`, which may be approximate above its threshold. */
  readonly capabilities: StorageCapabilities = { ann: true, multiProcess: true };
  protected readonly dialect = SQLITE_DIALECT;
  private runner: SqlRunner | undefined;
  private feed: DocFeed | undefined;

  constructor(
    /** The raw connection, for SQLite-specific maintenance and tests. */
    readonly db: Db,
    private readonly opts: SqliteStorageOptions,
  ) {
    super();
  }

  protected runnerOf(ctx: StoreContext): SqlRunner {
    this.runner ??= sqliteRunner(ctx);
    return this.runner;
  }

  protected toError(what: string, e: unknown): EngramError {
    return toEngramError(what, e);
  }

  /** Deleted content must not linger in the WAL's page images. */
  protected override afterDelete(): void {
    this.checkpoint();
  }

  async init(opts: { embeddingModel: string; dimension: number }): Promise<void> {
    this.sync('init', () => {
      if (!opts.embeddingModel) throw new EngramError('CONFIG', 'embeddingModel is required');
      if (!Number.isInteger(opts.dimension) || opts.dimension <= 0) throw new EngramError('CONFIG', 'dimension must be a positive integer');
      const migrations = this.opts.migrations ?? MIGRATIONS;
      if (this.opts.readonly) assertCurrent(this.db, migrations);
      else migrate(this.db, migrations);
      const stmts = new StatementCache(this.db);
      const stored = embeddings.storedDimension({ stmts }, opts.embeddingModel);
      if (stored !== undefined && stored !== opts.dimension) {
        throw new EngramError('CONFIG', `model ${opts.embeddingModel} has ${stored}-dimensional vectors stored, not ${opts.dimension}`);
      }
      const feed = new DocFeed(this.db, this.opts.feedRetentionMs ?? DEFAULT_FEED_RETENTION_MS);
      this.feed = feed;
      const files = { dir: sqliteIndexDir(this.opts), ...(this.opts.onIndexEvent ? { onEvent: this.opts.onIndexEvent } : {}) };
      const vectors = new VectorCache(feed, stmts, opts.embeddingModel, opts.dimension, files, this.opts.vectorIndex);
      const lexical = new LexicalCache(feed, stmts, files);
      const filterMemo = new FilterMemo(this.db);
      const write = makeWrite(this.db, () => [vectors, lexical], this.opts.readonly ?? false, feed);
      // Any write, committed or rolled back, may have changed docs: filtered searches recompute their allow-list.
      const writeDocs: StoreContext['write'] = (fn) => {
        try {
          return write(fn);
        } finally {
          filterMemo.invalidate();
        }
      };
      this.ctx = {
        db: this.db,
        stmts,
        vectors,
        lexical,
        filterMemo,
        model: opts.embeddingModel,
        dimension: opts.dimension,
        readonly: this.opts.readonly ?? false,
        cursor: { embeddedThrough: 0 },
        write: writeDocs,
        writeRelaxed: makeWriteRelaxed(this.db, write),
      };
    });
  }

  async warm(tenant: string): Promise<void> {
    await this.run('warm', (c) => {
      c.lexical.warm(tenant);
      c.vectors.warm(tenant);
    });
  }

  /** Deletes change-feed rows older than `olderThanMs` (see DocFeed.prune); returns how many. */
  pruneChangeFeed(olderThanMs: number): number {
    if (!this.feed) throw new EngramError('UNAVAILABLE', 'sqlite storage: pruneChangeFeed before init');
    const feed = this.feed;
    return this.sync('pruneChangeFeed', () => feed.prune(olderThanMs));
  }

  /** Saves the index files of every loaded tenant that changed since its file was written. */
  saveIndexes(): void {
    const c = this.ctx;
    if (!c) return;
    c.lexical.saveAll();
    c.vectors.saveAll();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.saveIndexes();
    this.closed = true;
    this.ctx = undefined;
    this.runner = undefined;
    this.db.close();
  }

  // --- timeline ---
  async appendEvents(batch: readonly NewEvent[]): Promise<AppendResult[]> {
    return this.run('appendEvents', (c) => events.appendEvents(c, batch));
  }
  async getEvents(tenant: string, ids: readonly string[]): Promise<MemoryEvent[]> {
    return this.run('getEvents', (c) => events.getEvents(c, tenant, ids));
  }
  async queryEvents(q: EventQuery): Promise<MemoryEvent[]> {
    return this.run('queryEvents', (c) => events.queryEvents(c, q));
  }  protected async restoreEvents(batch: readonly BackupEvent[]): Promise<RestoreReport> {
    return this.run('restoreEvents', (c) => events.restoreEvents(c, batch));
  }


  // --- retrieval projection ---
  async getDocs(tenant: string, docIds: readonly number[]): Promise<Doc[]> {
    return this.run('getDocs', (c) => docs.getDocs(c, tenant, docIds));
  }
  async lexicalSearch(q: DocQuery & { text: string }): Promise<DocHit[]> {
    return (await this.lexicalSearchWithTermBest(q)).hits;
  }
  async lexicalSearchWithTermBest(q: DocQuery & { text: string }): Promise<{ hits: DocHit[]; termBest: number[] }> {
    return this.run('lexicalSearch', (c) => {
      const allowed = isEmpty(q.filter) ? undefined : docs.filteredDocIds(c, q);
      return c.lexical.search(q, allowed?.size === 0 ? new Set() : allowed);
    });
  }
  async vectorSearch(q: DocQuery & { vector: Float32Array }): Promise<DocHit[]> {
    return this.run('vectorSearch', (c) => {
      assertVector(q.vector, c.dimension, 'vector');
      const allowed = isEmpty(q.filter) ? undefined : docs.filteredDocIds(c, q);
      if (allowed?.size === 0) return [];
      return c.vectors.search(q, allowed);
    });
  }

  // --- embeddings ---
  async pendingEmbeddings(limit: number): Promise<PendingEmbedding[]> {
    return this.run('pendingEmbeddings', (c) => embeddings.pendingEmbeddings(c, limit));
  }
  async embeddingBacklog(opts: { upTo?: number } = {}): Promise<number> {
    return this.run('embeddingBacklog', (c) => embeddings.embeddingBacklog(c, opts.upTo));
  }
  async putEmbeddings(rows: readonly { contentHash: string; vector: Float32Array }[]): Promise<void> {
    await this.run('putEmbeddings', (c) => embeddings.putEmbeddings(c, rows));
  }
  async getEmbeddings(contentHashes: readonly string[]): Promise<Map<string, Float32Array>> {
    return this.run('getEmbeddings', (c) => embeddings.getEmbeddings(c, contentHashes));
  }

  // --- SQLite-specific maintenance ---
  /**
   * Copies the WAL into the database file and truncates the WAL, so page images holding deleted content
   * do not survive there. Best effort: with readers holding old snapshots it checkpoints what it can.
   */
  checkpoint(): { busy: boolean } {
    if (this.closed || this.opts.readonly || this.opts.path === ':memory:') return { busy: false };
    const row = this.sync('checkpoint', () => this.db.pragma('wal_checkpoint(TRUNCATE)')) as { busy: number }[];
    return { busy: row[0]?.busy === 1 };
  }

  /**
   * Rewrites the file from its live rows and returns free pages to the file system (maintenance after
   * large deletions; about 1 s per 100 MB). Other connections wait on busy_timeout meanwhile.
   */
  vacuum(): void {
    if (this.closed || this.opts.readonly || this.opts.path === ':memory:') return;
    this.sync('vacuum', () => this.db.exec('VACUUM'));
    this.checkpoint();
  }

  private sync<T>(what: string, fn: () => T): T {
    try {
      return fn();
    } catch (e) {
      throw toEngramError(`sqlite storage: ${what}`, e);
    }
  }
}

/** Opens (creating if needed) the database file. Nothing is migrated until `init` runs. */
export async function openSqliteStorage(opts: SqliteStorageOptions): Promise<SqliteStorage> {
  const db = openDatabase(opts.path, opts.readonly ?? false);
  return new SqliteStorage(db, opts);
}
