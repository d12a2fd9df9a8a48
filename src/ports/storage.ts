/**
 * The storage port. Every method takes the tenant explicitly and every adapter must confine every query to
 * it: tenant is a hard partition, not a relevance hint. Scoring, fusion and budgeting are not here; an
 * adapter stores records, keeps the retrieval projection (`Doc`) and its indexes in step, and answers
 * queries. Semantics that must agree across adapters are pinned by `src/testing/storage-conformance.ts` (exported as `engram/testing`).
 *
 * Each sub-port, with its query and result types, lives in `./storage/`; this file composes them into
 * `Storage` and re-exports every name, so importers keep importing from here.
 */
import type { BackupStore } from './storage/backup.js';
import type { StorageLifecycle } from './storage/common.js';
import type { DocIndex, EmbeddingStore } from './storage/docs.js';
import type { FactStore } from './storage/facts.js';
import type { GraphStore } from './storage/graph.js';
import type { LearnGraphStore } from './storage/learn-graph.js';
import type { LogStore } from './storage/logs.js';
import type { RetentionStore } from './storage/retention.js';
import type { KeyStore, WorkingMemoryStore } from './storage/sessions-keys.js';
import type { TimelineStore } from './storage/timeline.js';

export type { StorageCapabilities, Layers, ScopeFilter, StorageLifecycle } from './storage/common.js';
export type { NewEvent, AppendResult, EventQuery, TimelineStore } from './storage/timeline.js';
export type { FactListQuery, FactVersionQuery, FactStore } from './storage/facts.js';
export type { DocQuery, DocHit, PendingEmbedding, HydratedDocs, DocIndex, EmbeddingStore } from './storage/docs.js';
export type { ForgetSelector, ForgetReport, RetentionStore } from './storage/retention.js';
export type { EpisodeQuery, LinkQuery, TraverseQuery, ProcedureQuery, ExampleQuery, LearnGraphStore } from './storage/learn-graph.js';
export type { WorkingMemoryStore, KeyStore } from './storage/sessions-keys.js';
export type { RetrievalRecord, RetrievedItem, RetrievalListQuery, AuditCursor, AuditRecord, LogStore } from './storage/logs.js';
export type { BackupEvent, BackupRecordKinds, BackupKind, BackupPage, RestoreReport, BackupStore } from './storage/backup.js';
export type { EntityQuery, RelationQuery, PutRelationResult, GraphStore } from './storage/graph.js';

/** The whole port: the sub-ports composed. A component that needs one part depends on that part only. */
export interface Storage
  extends StorageLifecycle,
    TimelineStore,
    FactStore,
    DocIndex,
    EmbeddingStore,
    RetentionStore,
    LearnGraphStore,
    GraphStore,
    WorkingMemoryStore,
    KeyStore,
    LogStore,
    BackupStore {}
