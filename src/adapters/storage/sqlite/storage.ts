/**
 * The SQLite implementation of the storage port: a thin class that owns the connection and the caches
 * and delegates each method to the store module for that part of the schema.
 */
import { EngramError } from '../../../core/errors.js';
import { isEmpty } from '../../../core/filter.js';
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
  NewEvent,
  LinkQuery,
  PendingEmbedding,
  ProcedureQuery,
  RetrievalRecord,
  ScopeFilter,
  Storage,
  StorageCapabilities,
  TraverseQuery,
} from '../../../ports/storage.js';
import * as apiKeys from './api-key-store.js';
import { openDatabase, type Db } from './connection.js';
import { makeWrite, makeWriteRelaxed, type StoreContext } from './context.js';
import * as docs from './doc-store.js';
import * as embeddings from './embedding-store.js';
import * as episodes from './episode-store.js';
import { toEngramError } from './errors.js';
import * as events from './event-store.js';
import * as evidence from './evidence-store.js';
import * as examples from './example-store.js';
import * as facts from './fact-store.js';
import * as links from './link-store.js';
import * as logs from './log-store.js';
import { assertCurrent, migrate, type Migration } from './migrate.js';
import { MIGRATIONS } from './migrations.js';
import * as procedures from './procedure-store.js';
import * as retention from './retention.js';
import { StatementCache } from './statements.js';
import { FilterMemo } from './filter-memo.js';
import { LexicalCache } from './lexical-cache.js';
import { VectorCache } from './vector-cache.js';
import { assertVector } from '../sql/vector-codec.js';
import * as workingMemory from './working-memory-store.js';

export interface SqliteStorageOptions {
  /** A file path, or ':memory:' for a private in-memory database. */
  path: string;
  readonly?: boolean;
  /** The schema to migrate to; tests pass a prefix or an extension of `MIGRATIONS`. */
  migrations?: readonly Migration[];
}

export class SqliteStorage implements Storage {
  readonly name = 'sqlite';
  /** `ann`: vector search goes through `createVectorIndex`, which may be approximate above its threshold. */
  readonly capabilities: StorageCapabilities = { ann: true, multiProcess: true };
  private ctx: StoreContext | undefined;
  private closed = false;

  constructor(
    /** The raw connection, for SQLite-specific maintenance and tests. */
    readonly db: Db,
    private readonly opts: SqliteStorageOptions,
  ) {}

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
      const vectors = new VectorCache(this.db, stmts, opts.embeddingModel, opts.dimension);
      const lexical = new LexicalCache(this.db, stmts);
      const filterMemo = new FilterMemo(this.db);
      const write = makeWrite(this.db, () => [vectors, lexical], this.opts.readonly ?? false);
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
    this.run('warm', (c) => {
      c.lexical.warm(tenant);
      c.vectors.warm(tenant);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.ctx = undefined;
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
  }
  async redactEvent(tenant: string, id: string, reason: string, at: number): Promise<boolean> {
    const done = this.run('redactEvent', (c) => events.redactEvent(c, tenant, id, reason, at));
    if (done) this.checkpoint();
    return done;
  }

  // --- facts ---
  async putFact(fact: Fact): Promise<{ fact: Fact; duplicate: boolean }> {
    return this.run('putFact', (c) => facts.putFact(c, fact));
  }
  async getFact(tenant: string, id: string): Promise<Fact | undefined> {
    return this.run('getFact', (c) => facts.getFact(c, tenant, id));
  }
  async getLiveFact(tenant: string, key: string, now: number): Promise<Fact | undefined> {
    return this.run('getLiveFact', (c) => facts.getLiveFact(c, tenant, key, now));
  }
  async getFactVersions(q: FactVersionQuery): Promise<Fact[]> {
    return this.run('getFactVersions', (c) => facts.getFactVersions(c, q));
  }
  async findFactByHash(tenant: string, scope: ScopeFilter, source: string | undefined, contentHash: string, now: number): Promise<Fact | undefined> {
    return this.run('findFactByHash', (c) => facts.findFactByHash(c, tenant, scope, source, contentHash, now));
  }
  async updateFactStats(tenant: string, id: string, stats: Pick<Fact, 'confidence' | 'supportCount' | 'contradictCount'>): Promise<void> {
    this.run('updateFactStats', (c) => facts.updateFactStats(c, tenant, id, stats));
  }
  async listFacts(q: { tenant: string; scope?: ScopeFilter; includeExpired?: boolean; limit?: number; now: number }): Promise<Fact[]> {
    return this.run('listFacts', (c) => facts.listFacts(c, q));
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
    this.run('putEmbeddings', (c) => embeddings.putEmbeddings(c, rows));
  }
  async getEmbeddings(contentHashes: readonly string[]): Promise<Map<string, Float32Array>> {
    return this.run('getEmbeddings', (c) => embeddings.getEmbeddings(c, contentHashes));
  }

  // --- retention ---
  async forget(sel: ForgetSelector, at: number): Promise<ForgetReport> {
    const report = this.run('forget', (c) => retention.forget(c, sel, at));
    if (Object.values(report).some((n) => (n ?? 0) > 0)) this.checkpoint();
    return report;
  }
  async sweepExpired(now: number): Promise<number> {
    const n = this.run('sweepExpired', (c) => retention.sweepExpired(c, now));
    if (n > 0) this.checkpoint();
    return n;
  }

  // --- episodes ---
  async putEpisode(episode: Episode): Promise<void> {
    this.run('putEpisode', (c) => episodes.putEpisode(c, episode));
  }
  async getEpisodes(tenant: string, ids: readonly string[]): Promise<Episode[]> {
    return this.run('getEpisodes', (c) => episodes.getEpisodes(c, tenant, ids));
  }
  async listEpisodes(q: EpisodeQuery): Promise<Episode[]> {
    return this.run('listEpisodes', (c) => episodes.listEpisodes(c, q));
  }

  // --- links ---
  async putLinks(batch: readonly Link[]): Promise<Link[]> {
    return this.run('putLinks', (c) => links.putLinks(c, batch));
  }
  async getLinks(q: LinkQuery): Promise<Link[]> {
    return this.run('getLinks', (c) => links.getLinks(c, q));
  }
  async traverse(q: TraverseQuery): Promise<{ link: Link; depth: number }[]> {
    return this.run('traverse', (c) => links.traverse(c, q));
  }
  async deleteLinks(tenant: string, ids: readonly string[]): Promise<number> {
    return this.run('deleteLinks', (c) => links.deleteLinks(c, tenant, ids));
  }

  // --- fact evidence ---
  async addFactEvidence(rows: readonly FactEvidence[]): Promise<void> {
    this.run('addFactEvidence', (c) => evidence.addFactEvidence(c, rows));
  }
  async getFactEvidence(tenant: string, factId: string): Promise<FactEvidence[]> {
    return this.run('getFactEvidence', (c) => evidence.getFactEvidence(c, tenant, factId));
  }

  // --- procedures ---
  async putProcedure(p: Procedure): Promise<void> {
    this.run('putProcedure', (c) => procedures.putProcedure(c, p));
  }
  async getProcedures(tenant: string, ids: readonly string[]): Promise<Procedure[]> {
    return this.run('getProcedures', (c) => procedures.getProcedures(c, tenant, ids));
  }
  async listProcedures(q: ProcedureQuery): Promise<Procedure[]> {
    return this.run('listProcedures', (c) => procedures.listProcedures(c, q));
  }

  // --- feedback examples ---
  async putExample(e: Example): Promise<void> {
    this.run('putExample', (c) => examples.putExample(c, e));
  }
  async getExamples(tenant: string, ids: readonly string[]): Promise<Example[]> {
    return this.run('getExamples', (c) => examples.getExamples(c, tenant, ids));
  }
  async findExample(tenant: string, scope: ScopeFilter, contentHash: string): Promise<Example | undefined> {
    return this.run('findExample', (c) => examples.findExample(c, tenant, scope, contentHash));
  }
  async listExamples(q: ExampleQuery): Promise<Example[]> {
    return this.run('listExamples', (c) => examples.listExamples(c, q));
  }
  async deleteExample(tenant: string, id: string): Promise<boolean> {
    return this.run('deleteExample', (c) => examples.deleteExample(c, tenant, id));
  }

  // --- working memory ---
  async getWorkingMemory(tenant: string, sessionId: string, now: number): Promise<WorkingMemoryRecord | undefined> {
    return this.run('getWorkingMemory', (c) => workingMemory.getWorkingMemory(c, tenant, sessionId, now));
  }
  async putWorkingMemory(rec: Omit<WorkingMemoryRecord, 'version'>, expectedVersion: number): Promise<WorkingMemoryRecord> {
    return this.run('putWorkingMemory', (c) => workingMemory.putWorkingMemory(c, rec, expectedVersion));
  }
  async deleteWorkingMemory(tenant: string, sessionId: string): Promise<boolean> {
    return this.run('deleteWorkingMemory', (c) => workingMemory.deleteWorkingMemory(c, tenant, sessionId));
  }

  // --- API keys ---
  async putApiKey(k: ApiKeyRecord): Promise<void> {
    this.run('putApiKey', (c) => apiKeys.putApiKey(c, k));
  }
  async findApiKeyByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    return this.run('findApiKeyByHash', (c) => apiKeys.findApiKeyByHash(c, hash));
  }
  async listApiKeys(tenant?: string): Promise<ApiKeyRecord[]> {
    return this.run('listApiKeys', (c) => apiKeys.listApiKeys(c, tenant));
  }
  async revokeApiKey(id: string, at: number): Promise<boolean> {
    return this.run('revokeApiKey', (c) => apiKeys.revokeApiKey(c, id, at));
  }

  // --- logs ---
  async putRetrieval(rec: RetrievalRecord): Promise<void> {
    this.run('putRetrieval', (c) => logs.putRetrieval(c, rec));
  }
  async getRetrieval(tenant: string, id: string): Promise<RetrievalRecord | undefined> {
    return this.run('getRetrieval', (c) => logs.getRetrieval(c, tenant, id));
  }
  async listAudit(tenant: string, limit: number): Promise<AuditRecord[]> {
    return this.run('listAudit', (c) => logs.listAudit(c, tenant, limit));
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

  /** Runs a store function with the initialised context, mapping every failure to an EngramError. */
  private run<T>(what: string, fn: (c: StoreContext) => T): T {
    return this.sync(what, () => {
      if (!this.ctx) throw new EngramError(this.closed ? 'UNAVAILABLE' : 'ADAPTER', `sqlite storage: ${what} before init()${this.closed ? ' or after close()' : ''}`);
      return fn(this.ctx);
    });
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
