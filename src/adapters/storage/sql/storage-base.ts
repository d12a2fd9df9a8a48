/**
 * The one delegation layer of the SQL engines: a storage class owns its context and runner, and the
 * sub-ports written once over the dialect (`./stores/`) are delegated here for every engine. An engine
 * class extends this and adds what is still its own (the timeline's insertion path, the docs and their
 * search indexes, the embedding cache). Adding a table therefore costs one store module and its methods here.
 */
import { EngramError } from '../../../core/errors.js';
import type { Entity, Relation, RelationWrite } from '../../../core/graph.js';
import type { ApiKeyRecord, Episode, Example, Fact, FactEvidence, Link, Procedure, WorkingMemoryRecord } from '../../../core/types.js';
import type {
  AuditCursor,
  AuditRecord,
  BackupEvent,
  BackupKind,
  BackupPage,
  BackupRecordKinds,
  BackupStore,
  EpisodeQuery,
  ExampleQuery,
  FactStore,
  EntityQuery,
  FactVersionQuery,
  ForgetReport,
  GraphStore,
  PutRelationResult,
  RelationQuery,
  ForgetSelector,
  KeyStore,
  LearnGraphStore,
  LinkQuery,
  LogStore,
  ProcedureQuery,
  RetentionStore,
  RestoreReport,
  RetrievalListQuery,
  RetrievalRecord,
  ScopeFilter,
  FactListQuery,
  TraverseQuery,
  WorkingMemoryStore,
} from '../../../ports/storage.js';
import type { Dialect } from './dialect.js';
import type { SqlRunner, Step } from './program.js';
import * as apiKeys from './stores/api-keys.js';
import * as backup from './stores/backup.js';
import * as evidence from './stores/evidence.js';
import * as facts from './stores/facts.js';
import * as graph from './stores/graph.js';
import * as learned from './stores/learned.js';
import * as links from './stores/links.js';
import { deleteLinksTouching } from './stores/cleanup.js';
import { redactEvent } from './stores/redact.js';
import * as logs from './stores/logs.js';
import * as retention from './stores/retention.js';
import * as workingMemory from './stores/working-memory.js';
import { assertFact, assertFactStats } from './validate-input.js';
import {
  assertApiKey,
  assertEpisode,
  assertEvidence,
  assertExample,
  assertLinks,
  assertProcedure,
  assertWorkingMemory,
} from './validate-learn.js';

export abstract class SqlStorageBase<C> implements FactStore, GraphStore, LearnGraphStore, WorkingMemoryStore, KeyStore, LogStore, RetentionStore, BackupStore {
  abstract readonly name: string;
  protected ctx: C | undefined;
  protected closed = false;
  protected abstract readonly dialect: Dialect;

  /** The runner of shared steps over an initialised context. */
  protected abstract runnerOf(ctx: C): SqlRunner;
  /** Maps an engine failure to an EngramError (EngramErrors pass through). */
  protected abstract toError(what: string, e: unknown): EngramError;
  /** Inserts events with their seqs, contents or tombstones and docs, in one transaction (the engine's timeline path). */
  protected abstract restoreEvents(events: readonly BackupEvent[]): Promise<RestoreReport>;
  /** Called after a forget or sweep that deleted something (SQLite clears old page images out of its WAL). */
  protected afterDelete(): void {}

  /** Runs `fn` with the initialised context, mapping every failure to an EngramError. */
  protected async run<T>(what: string, fn: (c: C) => T | Promise<T>): Promise<T> {
    const ctx = this.ctx;
    if (!ctx) throw new EngramError(this.closed ? 'UNAVAILABLE' : 'ADAPTER', `${this.name} storage: ${what} before init()${this.closed ? ' or after close()' : ''}`);
    try {
      return await fn(ctx);
    } catch (e) {
      throw this.toError(`${this.name} storage: ${what}`, e);
    }
  }

  /** A shared read step, outside any write transaction. */
  protected read<T>(what: string, make: () => Step<T>): Promise<T> {
    return this.run(what, (c) => this.runnerOf(c).read(make));
  }

  /** A shared step in one write transaction. */
  protected write<T>(what: string, make: () => Step<T>, opts?: { relaxed?: boolean }): Promise<T> {
    return this.run(what, (c) => this.runnerOf(c).write(what, make, opts));
  }

  // --- timeline: redaction (appending and reading stay with the engine, beside its lexical context) ---
  async redactEvent(tenant: string, id: string, reason: string, at: number): Promise<boolean> {
    const done = await this.write('redactEvent', () => redactEvent(this.dialect, tenant, id, reason, at));
    if (done) this.afterDelete();
    return done;
  }

  // --- facts ---
  async putFact(fact: Fact): Promise<{ fact: Fact; duplicate: boolean }> {
    assertFact(fact);
    return this.write('putFact', () => facts.putFact(this.dialect, fact));
  }
  getFact(tenant: string, id: string): Promise<Fact | undefined> {
    return this.read('getFact', () => facts.getFact(tenant, id));
  }
  getFacts(tenant: string, ids: readonly string[]): Promise<Fact[]> {
    return this.read('getFacts', () => facts.getFacts(this.dialect, tenant, ids));
  }
  getLiveFact(tenant: string, key: string, now: number): Promise<Fact | undefined> {
    return this.read('getLiveFact', () => facts.getLiveFact(tenant, key, now));
  }
  getFactVersions(q: FactVersionQuery): Promise<Fact[]> {
    return this.read('getFactVersions', () => facts.getFactVersions(q));
  }
  findFactByHash(tenant: string, scope: ScopeFilter, source: string | undefined, contentHash: string, now: number): Promise<Fact | undefined> {
    return this.read('findFactByHash', () => facts.findFactByHash(this.dialect, tenant, scope, source, contentHash, now));
  }
  async updateFactStats(tenant: string, id: string, stats: Pick<Fact, 'confidence' | 'supportCount' | 'contradictCount'>): Promise<void> {
    assertFactStats(stats);
    await this.write('updateFactStats', () => facts.updateFactStats(tenant, id, stats));
  }
  listFacts(q: FactListQuery): Promise<Fact[]> {
    return this.read('listFacts', () => facts.listFacts(q));
  }

  // --- episodes ---
  async putEpisode(episode: Episode): Promise<void> {
    assertEpisode(episode);
    await this.write('putEpisode', () => learned.putEpisode(this.dialect, episode));
  }
  getEpisodes(tenant: string, ids: readonly string[]): Promise<Episode[]> {
    return this.read('getEpisodes', () => learned.getEpisodes(this.dialect, tenant, ids));
  }
  listEpisodes(q: EpisodeQuery): Promise<Episode[]> {
    return this.read('listEpisodes', () => learned.listEpisodes(this.dialect, q));
  }

  // --- links ---
  async putLinks(batch: readonly Link[]): Promise<Link[]> {
    assertLinks(batch);
    if (batch.length === 0) return [];
    return this.write('putLinks', () => links.putLinks(this.dialect, batch));
  }
  getLinks(q: LinkQuery): Promise<Link[]> {
    return this.read('getLinks', () => links.getLinks(this.dialect, q));
  }
  traverse(q: TraverseQuery): Promise<{ link: Link; depth: number }[]> {
    return this.read('traverse', () => links.traverse(this.dialect, q));
  }
  /** Deletes links named by their own id or touching any of `ids` at either end. Returns how many. */
  async deleteLinks(tenant: string, ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    return this.write('deleteLinks', () => deleteLinksTouching(this.dialect, tenant, ids));
  }

  // --- knowledge graph ---
  async putEntities(list: readonly Entity[]): Promise<Entity[]> {
    graph.assertEntities(list);
    if (list.length === 0) return [];
    return this.write('putEntities', () => graph.putEntities(this.dialect, list));
  }
  async replaceEntity(entity: Entity): Promise<Entity> {
    graph.assertEntities([entity]);
    return this.write('replaceEntity', () => graph.replaceEntity(this.dialect, entity));
  }
  getEntities(tenant: string, ids: readonly string[]): Promise<Entity[]> {
    return this.read('getEntities', () => graph.getEntities(this.dialect, tenant, ids));
  }
  findEntities(q: EntityQuery): Promise<Entity[]> {
    return this.read('findEntities', () => graph.findEntities(this.dialect, q));
  }
  async deleteEntities(tenant: string, ids: readonly string[]): Promise<{ entities: number; relations: number }> {
    if (ids.length === 0) return { entities: 0, relations: 0 };
    return this.write('deleteEntities', () => graph.deleteEntities(this.dialect, tenant, ids));
  }
  async putRelations(writes: readonly RelationWrite[]): Promise<PutRelationResult[]> {
    graph.assertRelations(writes);
    if (writes.length === 0) return [];
    return this.write('putRelations', () => graph.putRelations(this.dialect, writes));
  }
  getRelations(tenant: string, ids: readonly string[]): Promise<Relation[]> {
    return this.read('getRelations', () => graph.getRelations(this.dialect, tenant, ids));
  }
  queryRelations(q: RelationQuery): Promise<Relation[]> {
    return this.read('queryRelations', () => graph.queryRelations(this.dialect, q));
  }
  async closeRelations(tenant: string, ids: readonly string[], at: number): Promise<number> {
    if (ids.length === 0) return 0;
    return this.write('closeRelations', () => graph.closeRelations(tenant, ids, at));
  }

  // --- procedures ---
  async putProcedure(p: Procedure): Promise<void> {
    assertProcedure(p);
    await this.write('putProcedure', () => learned.putProcedure(p));
  }
  getProcedures(tenant: string, ids: readonly string[]): Promise<Procedure[]> {
    return this.read('getProcedures', () => learned.getProcedures(this.dialect, tenant, ids));
  }
  listProcedures(q: ProcedureQuery): Promise<Procedure[]> {
    return this.read('listProcedures', () => learned.listProcedures(this.dialect, q));
  }

  // --- feedback examples ---
  async putExample(e: Example): Promise<void> {
    assertExample(e);
    await this.write('putExample', () => learned.putExample(e));
  }
  getExamples(tenant: string, ids: readonly string[]): Promise<Example[]> {
    return this.read('getExamples', () => learned.getExamples(this.dialect, tenant, ids));
  }
  findExample(tenant: string, scope: ScopeFilter, contentHash: string): Promise<Example | undefined> {
    return this.read('findExample', () => learned.findExample(this.dialect, tenant, scope, contentHash));
  }
  listExamples(q: ExampleQuery): Promise<Example[]> {
    return this.read('listExamples', () => learned.listExamples(this.dialect, q));
  }
  deleteExample(tenant: string, id: string): Promise<boolean> {
    return this.write('deleteExample', () => learned.deleteExample(this.dialect, tenant, id));
  }

  // --- fact evidence ---
  async addFactEvidence(rows: readonly FactEvidence[]): Promise<void> {
    assertEvidence(rows);
    if (rows.length > 0) await this.write('addFactEvidence', () => evidence.addFactEvidence(rows));
  }
  getFactEvidence(tenant: string, factId: string): Promise<FactEvidence[]> {
    return this.read('getFactEvidence', () => evidence.getFactEvidence(this.dialect, tenant, factId));
  }

  // --- retention ---
  async forget(sel: ForgetSelector, at: number): Promise<ForgetReport> {
    retention.assertForgetSelector(sel);
    const report = await this.write('forget', () => retention.forget(this.dialect, sel, at));
    if (Object.values(report).some((n) => (n ?? 0) > 0)) this.afterDelete();
    return report;
  }
  async sweepExpired(now: number): Promise<number> {
    const n = await this.write('sweepExpired', () => retention.sweepExpired(this.dialect, now));
    if (n > 0) this.afterDelete();
    return n;
  }

  // --- working memory ---
  getWorkingMemory(tenant: string, sessionId: string, now: number): Promise<WorkingMemoryRecord | undefined> {
    return this.read('getWorkingMemory', () => workingMemory.getWorkingMemory(tenant, sessionId, now));
  }
  async putWorkingMemory(rec: Omit<WorkingMemoryRecord, 'version'>, expectedVersion: number): Promise<WorkingMemoryRecord> {
    assertWorkingMemory(rec, expectedVersion);
    return this.write('putWorkingMemory', () => workingMemory.putWorkingMemory(this.dialect, rec, expectedVersion));
  }
  deleteWorkingMemory(tenant: string, sessionId: string): Promise<boolean> {
    return this.write('deleteWorkingMemory', () => workingMemory.deleteWorkingMemory(tenant, sessionId));
  }

  // --- API keys ---
  async putApiKey(k: ApiKeyRecord): Promise<void> {
    assertApiKey(k);
    await this.write('putApiKey', () => apiKeys.putApiKey(k));
  }
  findApiKeyByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    return this.read('findApiKeyByHash', () => apiKeys.findApiKeyByHash(hash));
  }
  listApiKeys(tenant?: string): Promise<ApiKeyRecord[]> {
    return this.read('listApiKeys', () => apiKeys.listApiKeys(this.dialect, tenant));
  }
  revokeApiKey(id: string, at: number): Promise<boolean> {
    return this.write('revokeApiKey', () => apiKeys.revokeApiKey(this.dialect, id, at));
  }

  // --- logs ---
  putRetrieval(rec: RetrievalRecord): Promise<void> {
    // On every getContext: no fsync on the read path where the engine allows it.
    return this.write('putRetrieval', () => logs.putRetrieval(this.dialect, rec), { relaxed: true });
  }
  getRetrieval(tenant: string, id: string): Promise<RetrievalRecord | undefined> {
    return this.read('getRetrieval', () => logs.getRetrieval(tenant, id));
  }
  listRetrievals(q: RetrievalListQuery): Promise<RetrievalRecord[]> {
    return this.read('listRetrievals', () => logs.listRetrievals(q));
  }
  listAudit(tenant: string, limit: number, before?: AuditCursor): Promise<AuditRecord[]> {
    return this.read('listAudit', () => logs.listAudit(tenant, limit, before));
  }

  // --- backup ---
  listBackupPage<K extends BackupKind>(kind: K, tenant: string, after: string | undefined, limit: number): Promise<BackupPage<K>> {
    const size = Math.max(1, Math.min(10_000, Math.floor(limit)));
    if (kind === 'event') return this.read('listBackupPage', () => backup.listEventPage(tenant, after, size)) as Promise<BackupPage<K>>;
    return this.read('listBackupPage', () => backup.listBackupPage(this.dialect, kind as Exclude<K, 'event'>, tenant, after, size));
  }
  async restoreRecords<K extends BackupKind>(kind: K, records: readonly BackupRecordKinds[K][]): Promise<RestoreReport> {
    if (records.length === 0) return { written: 0, existing: 0, kept: 0 };
    if (kind === 'event') return this.restoreEvents(records as readonly BackupEvent[]);
    const shared = kind as Exclude<K, 'event'>;
    backup.validateBackupRecords(shared, records as readonly BackupRecordKinds[typeof shared][]);
    return this.write('restoreRecords', () => backup.restoreRecords(this.dialect, shared, records as readonly BackupRecordKinds[typeof shared][]));
  }
}
