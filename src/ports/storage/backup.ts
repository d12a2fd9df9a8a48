/** The backup sub-port: lossless listing and re-insertion of every stored record. */
import type { Entity, Relation } from '../../core/graph.js';
import type { Episode, Example, Fact, FactEvidence, Link, MemoryEvent, Procedure, WorkingMemoryRecord } from '../../core/types.js';
import type { AuditRecord, RetrievalRecord } from './logs.js';

/** An event as a backup holds it: a redacted one has no content and says when and why it was redacted. */
export type BackupEvent = MemoryEvent & { redaction?: { at: number; reason: string } | undefined };

/**
 * Every record kind a backup carries (io/backup.ts), by the name its lines use. Derived data is not here: docs
 * and their index entries are projected again from these records, vectors are computed again. API keys are
 * not here either (credentials are issued again, never restored from a file). A new record kind is one entry
 * here plus one list/restore pair in the SQL stores' backup registry (sql/stores/backup.ts).
 */
export interface BackupRecordKinds {
  event: BackupEvent;
  fact: Fact;
  fact_evidence: FactEvidence;
  episode: Episode;
  link: Link;
  procedure: Procedure;
  example: Example;
  entity: Entity;
  relation: Relation;
  retrieval: RetrievalRecord;
  working_memory: WorkingMemoryRecord;
  audit: AuditRecord;
}
export type BackupKind = keyof BackupRecordKinds;

export interface BackupPage<K extends BackupKind> {
  records: BackupRecordKinds[K][];
  /** The cursor of the next page; absent on the last page. */
  next?: string | undefined;
}

export interface RestoreReport {
  /** Records inserted. */
  written: number;
  /** Records already stored under the same identity with the same content (nothing written). */
  existing: number;
  /** Records whose identity is stored with other content: the stored record is kept as it is. */
  kept: number;
}

/** Lossless listing and re-insertion of every stored record, ids and timestamps kept, for backup and restore. */
export interface BackupStore {
  /**
   * One page of a tenant's records of `kind`, in a stable storage order (events by seq, others by insertion),
   * everything stored: expired, superseded and redacted records included. `after` is the previous page's `next`.
   */
  listBackupPage<K extends BackupKind>(kind: K, tenant: string, after: string | undefined, limit: number): Promise<BackupPage<K>>;
  /**
   * Inserts records exactly as listed (ids, seqs, versions, timestamps and counters kept) in one write
   * transaction, projecting their docs as the write path would. A record whose identity (id; evidence: fact and
   * episode; working memory: session; links: also type and ends) is already stored is left as it is: counted
   * `existing` when its content is the same, `kept` when it differs. An insert that breaks a storage invariant
   * (an event's seq taken by another event, a second live version of a fact key, an example pair already stored
   * under another id) is a CONFLICT and writes nothing.
   */
  restoreRecords<K extends BackupKind>(kind: K, records: readonly BackupRecordKinds[K][]): Promise<RestoreReport>;
}
