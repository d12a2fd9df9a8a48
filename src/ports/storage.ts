/**
 * The storage port. Every method takes the tenant explicitly and every adapter must confine every query to
 * it: tenant is a hard partition, not a relevance hint. Scoring, fusion and budgeting are not here; an
 * adapter stores records, keeps the retrieval projection (`Doc`) and its indexes in step, and answers
 * queries. Semantics that must agree across adapters are pinned by `src/testing/storage-conformance.ts` (exported as `engram/testing`).
 */
import type { FilterNode } from '../core/filter.js';
import type { Entity, Relation, RelationWrite } from '../core/graph.js';
import type {
  ApiKeyRecord,
  Doc,
  DocKind,
  Episode,
  EventType,
  Example,
  ExamplePolarity,
  Fact,
  FactEvidence,
  FactKind,
  Link,
  LinkType,
  MemoryEvent,
  Outcome,
  Procedure,
  Scope,
  WorkingMemoryRecord,
} from '../core/types.js';

export interface StorageCapabilities {
  /** Vector search uses an approximate index above some size (results may differ slightly from exact). */
  ann: boolean;
  /** Several processes may write at once. */
  multiProcess: boolean;
}

/** An event as the write path hands it to storage; storage assigns `seq`. */
export type NewEvent = Omit<MemoryEvent, 'seq'>;

export interface AppendResult {
  id: string;
  seq: number;
  /**
   * Set when the tenant already held this event (same id and content hash) or one with the same source and
   * content hash; nothing was written and this names the original. The same id with other content is a
   * CONFLICT for the whole batch.
   */
  duplicateOf?: string;
}

/**
 * A caller's identity for a layered read (docs/scopes.md). A record is visible when it belongs to this user
 * (whatever its agent or session), or belongs to no user and is either shared tenant-wide (no agent, no
 * session), this agent's own (agent set, no session) or bound to this session. With no field set, every
 * record that no user owns is visible: an anonymous read never sees a user's memories.
 */
export interface Layers {
  userId?: string | undefined;
  agentId?: string | undefined;
  sessionId?: string | undefined;
}

/**
 * Narrowing inside a tenant. Every scope field present must match exactly; `layers`, when present, adds the
 * layered visibility rule above (both hold).
 */
export type ScopeFilter = Partial<Omit<Scope, 'tenant'>> & { layers?: Layers | undefined };


export interface EventQuery {
  tenant: string;
  scope?: ScopeFilter;
  types?: EventType[];
  /** Events carrying all of these tags. */
  tags?: string[];
  /** ts >= since, ts < until (epoch ms). */
  since?: number;
  until?: number;
  /** Transaction time: only events Engram had recorded by then (recordedAt <= knownAt). */
  knownAt?: number;
  filter?: FilterNode;
  /** The `lastN` events latest by event time (`ts`, then seq), returned in chronological order. */
  lastN?: number;
  /** Chronological paging: events with seq > afterSeq, at most `limit`. */
  afterSeq?: number;
  limit?: number;
  /** Events whose `expiresAt` is at or before `now` are not returned. */
  now: number;
}

export interface DocQuery {
  tenant: string;
  scope?: ScopeFilter;
  kinds?: DocKind[];
  filter?: FilterNode;
  k: number;
  /** Documents expired at `now` are not returned. */
  now: number;
}

export interface DocHit {
  docId: number;
  /** Lexical: BM25 with higher = better. Vector: cosine similarity in [-1, 1]. */
  score: number;
}

export interface PendingEmbedding {
  contentHash: string;
  text: string;
}

export interface ForgetSelector {
  tenant: string;
  /** Event, fact (any version: the whole lineage goes), episode, procedure or example ids. */
  ids?: string[];
  /** Everything in this scope (all fields must match). `{}` means the whole tenant. */
  scope?: ScopeFilter;
}

export interface ForgetReport {
  events: number;
  facts: number;
  docs: number;
  embeddings: number;
  /** Episodes, links, procedures, examples and working memories removed (0 where none existed). */
  episodes?: number;
  links?: number;
  procedures?: number;
  examples?: number;
  /** Knowledge-graph entities and relations removed (present only when some were). */
  entities?: number;
  relations?: number;
}

export interface EpisodeQuery {
  tenant: string;
  scope?: ScopeFilter;
  streamKey?: string;
  closed?: boolean;
  outcomes?: Outcome[];
  /** endTs >= since */
  since?: number;
  /** Newest first (by endTs) when 'desc'; default 'asc'. */
  order?: 'asc' | 'desc';
  limit?: number;
}

export interface LinkQuery {
  tenant: string;
  ids: readonly string[];
  /** 'out': links whose fromId is in ids; 'in': toId in ids; 'both'. */
  direction: 'out' | 'in' | 'both';
  types?: LinkType[];
}

export interface TraverseQuery extends LinkQuery {
  maxDepth: number;
  limit: number;
}

export interface ProcedureQuery {
  tenant: string;
  scope?: ScopeFilter;
  limit?: number;
}

export interface ExampleQuery {
  tenant: string;
  scope?: ScopeFilter;
  polarity?: ExamplePolarity;
  limit?: number;
}

export interface RetrievalRecord {
  id: string;
  tenant: string;
  query: string;
  createdAt: number;
  /** What was handed to the caller, in order: ids of events, facts, episodes … */
  itemIds: string[];
  config: unknown;
  /**
   * Per item handed out, in order: its kind, section and score breakdown, so the retrieval log can say why it
   * was recalled. Absent on records written before it was kept.
   */
  items?: RetrievedItem[] | undefined;
}

export interface RetrievedItem {
  id: string;
  kind: string;
  section: string;
  scores: Record<string, number | null>;
}

/** Newest first (creation order); `beforeId` pages on from the last record of the previous page. */
export interface RetrievalListQuery {
  tenant: string;
  limit: number;
  beforeId?: string | undefined;
  /** created_at >= since, < until (epoch ms). */
  since?: number | undefined;
  until?: number | undefined;
}

/** Keyset position in the audit log: the last record of the previous page. */
export interface AuditCursor {
  at: number;
  id: string;
}

export interface AuditRecord {
  id: string;
  tenant: string;
  at: number;
  action: 'redact' | 'forget' | 'sweep' | 'pii_scrub' | 'import';
  targetIds: string[];
  details: Record<string, unknown>;
}

/**
 * Listing facts. Default: the live version of each lineage whose TTL has not passed and whose validity has not
 * ended (`validTo` > now or unset). With `asOf` (valid time) and/or `knownAt` (transaction time): for each
 * lineage, the latest version Engram had recorded by `knownAt` (default now) that is valid at `asOf` (default
 * `knownAt`, else now); a version closed only after `knownAt` counts as open-ended (its end was not known yet).
 * `includeExpired`: every version, no time rule.
 * Ordered by (recordedAt, id); `after` continues after that position (cursor pagination).
 */
export interface FactListQuery {
  tenant: string;
  scope?: ScopeFilter;
  includeExpired?: boolean;
  asOf?: number;
  knownAt?: number;
  kinds?: FactKind[];
  after?: { recordedAt: number; id: string };
  limit?: number;
  now: number;
}

export interface FactVersionQuery {
  tenant: string;
  key: string;
}

/** Opening, warming and closing; what every sub-port shares. */
export interface StorageLifecycle {
  readonly name: string;
  readonly capabilities: StorageCapabilities;

  /** Opens and migrates. `embeddingModel` selects which vectors search uses and which are pending. */
  init(opts: { embeddingModel: string; dimension: number }): Promise<void>;
  /**
   * Loads a tenant's in-process search indexes and finishes their background building now, so the first
   * searches are not the ones paying for it (servers at start, benchmarks before measuring). Adapters whose
   * engine holds the indexes leave it out.
   */
  warm?(tenant: string): Promise<void>;
  close(): Promise<void>;
}

/** The append-only timeline. */
export interface TimelineStore {
  /** Appends atomically: all rows and their docs are durable when this resolves, or nothing is written. */
  appendEvents(events: readonly NewEvent[]): Promise<AppendResult[]>;
  getEvents(tenant: string, ids: readonly string[]): Promise<MemoryEvent[]>;
  queryEvents(q: EventQuery): Promise<MemoryEvent[]>;
  /** Removes an event's content, leaving a tombstone and an audit record. False if no such event. */
  redactEvent(tenant: string, id: string, reason: string, at: number): Promise<boolean>;
}

/** Semantic memory: versioned facts (rows are never overwritten) and their evidence. */
export interface FactStore {
  /**
   * Inserts a fact version. With `supersedes`, atomically closes that version (`expiredAt`, and `validTo`
   * when unset) so exactly one version of a key is live. Dedupe: if a live version of the same key already
   * has the same content hash, nothing is written and that version is returned.
   */
  putFact(fact: Fact): Promise<{ fact: Fact; duplicate: boolean }>;
  getFact(tenant: string, id: string): Promise<Fact | undefined>;
  /**
   * Optional: versions by id (as `getFact` for each), in the order asked, ids not found left out, in one read.
   * The read path loads its candidates' facts with it; without it, one `getFact` per id.
   */
  getFacts?(tenant: string, ids: readonly string[]): Promise<Fact[]>;
  /** The live (unexpired, unsuperseded) version of a key. */
  getLiveFact(tenant: string, key: string, now: number): Promise<Fact | undefined>;
  /** All versions of a key, oldest first. */
  getFactVersions(q: FactVersionQuery): Promise<Fact[]>;
  /** A live fact in the same scope whose source and content hash match (dedupe by source+hash). */
  findFactByHash(tenant: string, scope: ScopeFilter, source: string | undefined, contentHash: string, now: number): Promise<Fact | undefined>;
  /** Updates the evidence counters of one version (text never changes in place). */
  updateFactStats(tenant: string, id: string, stats: Pick<Fact, 'confidence' | 'supportCount' | 'contradictCount'>): Promise<void>;
  listFacts(q: FactListQuery): Promise<Fact[]>;
  addFactEvidence(rows: readonly FactEvidence[]): Promise<void>;
  getFactEvidence(tenant: string, factId: string): Promise<FactEvidence[]>;
}

/** Docs with their stored vectors (by content hash), the facts behind them and the events behind some of them. */
export interface HydratedDocs {
  docs: Doc[];
  vectors: Map<string, Float32Array>;
  events: Map<string, MemoryEvent>;
  /** By fact id (a fact doc's `refId`). */
  facts: Map<string, Fact>;
}

/** The retrieval projection (`Doc`) and its search indexes. */
export interface DocIndex {
  getDocs(tenant: string, docIds: readonly number[]): Promise<Doc[]>;
  /**
   * Optional: `getDocs`, `getEmbeddings` of their texts, `getFacts` of the fact docs among them and, with `events`,
   * `getEvents` of the first `events` event docs among them (in the order asked), in one round trip where the
   * engine can (a server database); the read path hydrates its candidates with it. Without it, those calls one
   * after the other.
   */
  hydrateDocs?(tenant: string, docIds: readonly number[], opts?: { events?: number }): Promise<HydratedDocs>;
  /** BM25 over doc text. `text` is the raw query; the adapter tokenises it safely (no query syntax leaks). */
  lexicalSearch(q: DocQuery & { text: string }): Promise<DocHit[]>;
  /**
   * Optional: the same hits plus, for each distinct query term, its best single-term BM25 score among the
   * docs passing the query's tenant, scope, kinds, expiry and filter (0 when none has it), in one pass.
   * The read path's lexical ceiling needs these; without this method it probes one term at a time.
   */
  lexicalSearchWithTermBest?(q: DocQuery & { text: string }): Promise<{ hits: DocHit[]; termBest: number[] }>;
  /** Nearest docs by cosine among those with an embedding for the current model. Exact up to the ANN threshold. */
  vectorSearch(q: DocQuery & { vector: Float32Array }): Promise<DocHit[]>;
}

/** The embedding cache, keyed by model + content hash and shared by docs with equal text. */
export interface EmbeddingStore {
  /** Texts whose hash has no vector for the current model, oldest first. */
  pendingEmbeddings(limit: number): Promise<PendingEmbedding[]>;
  /**
   * Number of content hashes still waiting for a vector; with `upTo`, the count stops there (the full count
   * reads every waiting doc, about a second and a half at a million on the embedded store).
   */
  embeddingBacklog(opts?: { upTo?: number }): Promise<number>;
  putEmbeddings(rows: readonly { contentHash: string; vector: Float32Array }[]): Promise<void>;
  getEmbeddings(contentHashes: readonly string[]): Promise<Map<string, Float32Array>>;
}

/** Physical deletion: forget on request, sweep on expiry. */
export interface RetentionStore {
  /** Physically deletes records, their docs, index entries and now-unreferenced embeddings; writes an audit record. */
  forget(sel: ForgetSelector, at: number): Promise<ForgetReport>;
  /** Physically deletes everything whose `expiresAt` is at or before `now`. Returns the number of records. */
  sweepExpired(now: number): Promise<number>;
}

/** What the learn path builds: episodes, the links between memories, procedures and feedback examples. */
export interface LearnGraphStore {
  /**
   * Inserts or replaces an episode by id (episodes grow while open). A closed episode is projected as a doc of
   * kind 'episode' (text: summary, root cause, corrections) so retrieval finds it; an open one is not.
   */
  putEpisode(episode: Episode): Promise<void>;
  getEpisodes(tenant: string, ids: readonly string[]): Promise<Episode[]>;
  listEpisodes(q: EpisodeQuery): Promise<Episode[]>;

  /**
   * Upserts by (tenant, type, fromId, toId). Re-asserting an existing link keeps its id and creation time, sets
   * weight to max(old, new) and origin to 'reinforced'. Returns the stored links in input order.
   */
  putLinks(links: readonly Link[]): Promise<Link[]>;
  getLinks(q: LinkQuery): Promise<Link[]>;
  /** Breadth-first walk from `ids` along links of `types` in `direction`; each link once, with its hop depth (1..maxDepth). */
  traverse(q: TraverseQuery): Promise<{ link: Link; depth: number }[]>;
  deleteLinks(tenant: string, ids: readonly string[]): Promise<number>;

  /** Procedures are projected as docs of kind 'procedure': name, trigger and steps. */
  putProcedure(p: Procedure): Promise<void>;
  getProcedures(tenant: string, ids: readonly string[]): Promise<Procedure[]>;
  listProcedures(q: ProcedureQuery): Promise<Procedure[]>;

  /** Feedback examples are projected as docs of kind 'example': the query text. */
  putExample(e: Example): Promise<void>;
  getExamples(tenant: string, ids: readonly string[]): Promise<Example[]>;
  /** The example with this content hash in exactly this scope, whatever its polarity. */
  findExample(tenant: string, scope: ScopeFilter, contentHash: string): Promise<Example | undefined>;
  listExamples(q: ExampleQuery): Promise<Example[]>;
  deleteExample(tenant: string, id: string): Promise<boolean>;
}

/** Per-session scratchpads under an optimistic version. */
export interface WorkingMemoryStore {
  getWorkingMemory(tenant: string, sessionId: string, now: number): Promise<WorkingMemoryRecord | undefined>;
  /**
   * Stores the scratchpad if `expectedVersion` matches the stored version (0 = must not exist yet), returning the
   * new record with version + 1; otherwise CONFLICT.
   */
  putWorkingMemory(rec: Omit<WorkingMemoryRecord, 'version'>, expectedVersion: number): Promise<WorkingMemoryRecord>;
  deleteWorkingMemory(tenant: string, sessionId: string): Promise<boolean>;
}

/** API keys (lookups by hash span tenants: that is how a request finds its tenant). */
export interface KeyStore {
  putApiKey(k: ApiKeyRecord): Promise<void>;
  findApiKeyByHash(hash: string): Promise<ApiKeyRecord | undefined>;
  listApiKeys(tenant?: string): Promise<ApiKeyRecord[]>;
  revokeApiKey(id: string, at: number): Promise<boolean>;
}

/** The retrieval log and the audit trail. */
export interface LogStore {
  putRetrieval(rec: RetrievalRecord): Promise<void>;
  getRetrieval(tenant: string, id: string): Promise<RetrievalRecord | undefined>;
  /** Newest first (creation order, i.e. by id); the page after `beforeId` when given. */
  listRetrievals(q: RetrievalListQuery): Promise<RetrievalRecord[]>;
  /** Newest first (by time, then id); the page after `before` when given. */
  listAudit(tenant: string, limit: number, before?: AuditCursor): Promise<AuditRecord[]>;
}

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

export interface EntityQuery {
  tenant: string;
  scope?: ScopeFilter;
  /** Names or aliases, resolved by `nameKey` (case, possessive and article folded). */
  names?: readonly string[];
  /** Case-insensitive substring of the name, type, aliases or observations. */
  text?: string;
  types?: readonly string[];
  /** Oldest first; at most this many. */
  limit?: number;
}

export interface RelationQuery {
  tenant: string;
  scope?: ScopeFilter;
  /** Relations touching these entities in `direction` ('out': the entity is the source; default 'both'). */
  entityIds?: readonly string[];
  direction?: 'out' | 'in' | 'both';
  types?: readonly string[];
  /** Transaction time: the edges Engram held at this instant (recorded at or before it, not yet closed). */
  asOf?: number;
  /** Valid time: the edges that hold in the world at this instant (open ends unbounded). */
  validAt?: number;
  /** Without `asOf`: closed edges too (history). Default: live edges only. */
  includeExpired?: boolean;
  limit?: number;
}

export interface PutRelationResult {
  relation: Relation;
  /** A live edge with the same source, type and target existed; it was reinforced (confidence, provenance). */
  duplicate: boolean;
  /** Ids of the live edges this one contradicted and closed. */
  closed: string[];
}

/**
 * The knowledge graph (src/core/graph.ts). Entities are upserted by id or by name: an entity whose name or an
 * alias resolves to one already in exactly the same scope is merged into it. Relations are versioned: never
 * updated in place except to reinforce (confidence, provenance) or to close, never deleted except by forget.
 */
export interface GraphStore {
  /**
   * Upserts in one transaction, returning the stored entities in input order. Merging keeps the stored id,
   * name and creation time; aliases, observations and provenance are unions; a given summary replaces the old.
   */
  putEntities(entities: readonly Entity[]): Promise<Entity[]>;
  /** Replaces the entity with this id as given (NOT_FOUND when absent); names are re-indexed. */
  replaceEntity(entity: Entity): Promise<Entity>;
  getEntities(tenant: string, ids: readonly string[]): Promise<Entity[]>;
  findEntities(q: EntityQuery): Promise<Entity[]>;
  /** Deletes entities and every relation touching them. */
  deleteEntities(tenant: string, ids: readonly string[]): Promise<{ entities: number; relations: number }>;
  /**
   * Inserts relations in one transaction, in order. Both ends must be entities of the tenant (NOT_FOUND). A live
   * edge with the same (source, type, target) is reinforced instead; with `exclusive`, the live edges of the same
   * source and type to other targets are closed (`expiredAt` = the new `recordedAt`, `validTo` = the new
   * `validFrom ?? recordedAt` when unset) and the new edge `supersedes` the first of them. A relation whose id is
   * stored already is returned as a duplicate (re-import); one given closed (`expiredAt` set) is stored as history.
   */
  putRelations(writes: readonly RelationWrite[]): Promise<PutRelationResult[]>;
  getRelations(tenant: string, ids: readonly string[]): Promise<Relation[]>;
  /** Oldest first (by recordedAt). */
  queryRelations(q: RelationQuery): Promise<Relation[]>;
  /** Closes live edges at `at` (`validTo` = `at` when unset); the rows stay for history. Returns how many closed. */
  closeRelations(tenant: string, ids: readonly string[], at: number): Promise<number>;
}

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
