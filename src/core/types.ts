/**
 * The data model. Times are epoch milliseconds (UTC); surfaces render them as ISO-8601.
 * Records are plain data: every layer (storage, retrieval, surfaces) passes them around unchanged.
 */

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** Where a memory belongs. `tenant` is a hard partition; the rest narrow within a tenant. */
export interface Scope {
  tenant: string;
  userId?: string | undefined;
  agentId?: string | undefined;
  sessionId?: string | undefined;
  taskId?: string | undefined;
}

export const SCOPE_KEYS = ['userId', 'agentId', 'sessionId', 'taskId'] as const;
export type ScopeKey = (typeof SCOPE_KEYS)[number];

export const EVENT_TYPES = [
  'message',
  'tool_call',
  'tool_result',
  'observation',
  'decision',
  'outcome',
  'correction',
  'feedback',
  'state_change',
  'error',
  'note',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const ACTORS = ['user', 'agent', 'system', 'tool'] as const;
export type Actor = (typeof ACTORS)[number];

/** What the PII scrubber removed from a record before it was stored. Counts only, never the values. */
export interface PiiReport {
  scrubbed: boolean;
  counts: Partial<Record<PiiKind, number>>;
}

export const PII_KINDS = ['email', 'phone', 'card', 'iban', 'gov_id', 'ip', 'secret'] as const;
export type PiiKind = (typeof PII_KINDS)[number];

/** One entry of the append-only timeline (seed 000's episodic event plus actor, state, tags, importance). */
export interface MemoryEvent extends Scope {
  id: string;
  /** Monotonic position in the tenant's timeline; assigned by storage. */
  seq: number;
  /** When it happened. */
  ts: number;
  /** When Engram stored it. */
  recordedAt: number;
  type: EventType;
  actor: Actor;
  /** Display name of whoever acted (a person, an agent, a tool), e.g. a chat speaker. */
  name?: string | undefined;
  /** Searchable text. For tool calls without text it is derived from tool, args and result. */
  content: string;
  tool?: string | undefined;
  args?: Json | undefined;
  result?: Json | undefined;
  stateLabel?: string | undefined;
  tags: string[];
  /** 0..1, Generative-Agents importance. */
  importance: number;
  source?: string | undefined;
  metadata: JsonObject;
  contentHash: string;
  expiresAt?: number | undefined;
  pii: PiiReport;
}

export const FACT_KINDS = ['fact', 'chunk', 'preference', 'heuristic', 'insight'] as const;
export type FactKind = (typeof FACT_KINDS)[number];

/** Where a fact came from. */
export interface Provenance {
  origin: 'user' | 'import' | 'extraction' | 'reflection' | 'consolidation';
  eventIds?: string[] | undefined;
  episodeIds?: string[] | undefined;
  note?: string | undefined;
}

/**
 * Semantic memory. Versions are rows that are never overwritten: a revision inserts a new row with
 * `version + 1` and `supersedes`, and closes the old one (`expiredAt` = when we stopped believing it).
 * `validFrom`/`validTo` are when the fact holds in the world; `recordedAt`/`expiredAt` when Engram held it.
 */
export interface Fact extends Scope {
  id: string;
  /** Stable across versions: the id of version 1, or a caller-supplied key such as `doc_42_para_7`. */
  key: string;
  version: number;
  supersedes?: string | undefined;
  kind: FactKind;
  text: string;
  subject?: string | undefined;
  predicate?: string | undefined;
  value?: string | undefined;
  source?: string | undefined;
  section?: string | undefined;
  tags: string[];
  /** The caller declares the text contains personal data; the scrubber's own findings are in `piiReport`. */
  pii: boolean;
  piiReport: PiiReport;
  metadata: JsonObject;
  confidence: number;
  supportCount: number;
  contradictCount: number;
  importance: number;
  validFrom?: number | undefined;
  validTo?: number | undefined;
  recordedAt: number;
  expiredAt?: number | undefined;
  expiresAt?: number | undefined;
  contentHash: string;
  provenance: Provenance;
}

export const OUTCOMES = ['SUCCESS', 'FAILURE', 'PARTIAL', 'UNKNOWN'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** A segment of the timeline. References its events; never copies them. */
export interface Episode extends Scope {
  id: string;
  /** The segmentation stream it was cut from (tenant + session/task scope); open episodes are found by it. */
  streamKey: string;
  startSeq: number;
  endSeq: number;
  startTs: number;
  endTs: number;
  eventIds: string[];
  stateLabel?: string | undefined;
  summary: string;
  outcome: Outcome;
  outcomeDetails?: string | undefined;
  decisions: string[];
  assumptions: string[];
  corrections: string[];
  rootCause?: string | undefined;
  importance: number;
  closed: boolean;
  metadata: JsonObject;
  recordedAt: number;
}

export const LINK_TYPES = ['CAUSED_BY', 'LED_TO', 'RETRY_OF', 'LEARNED_FROM', 'CONTINUATION', 'CONTRADICTED'] as const;
export type LinkType = (typeof LINK_TYPES)[number];

/** A typed, weighted edge between two memories (episodes, facts). */
export interface Link {
  id: string;
  tenant: string;
  type: LinkType;
  fromId: string;
  toId: string;
  weight: number;
  origin: 'explicit' | 'inferred' | 'reinforced';
  evidence?: string | undefined;
  createdAt: number;
}

export interface Procedure extends Scope {
  id: string;
  name: string;
  trigger: string;
  steps: string[];
  preconditions: string[];
  successCount: number;
  failureCount: number;
  notes: string[];
  lastUsedAt?: number | undefined;
  sourceEpisodeIds: string[];
  createdAt: number;
  updatedAt: number;
}

/** One piece of evidence for or against a fact version, from an episode. */
export interface FactEvidence {
  tenant: string;
  factId: string;
  episodeId: string;
  polarity: 'support' | 'contradict';
  /** 0..1: how strongly the episode bears on the fact (e.g. similarity of situation). */
  weight: number;
  at: number;
}

export type ExamplePolarity = 'positive' | 'negative';

/** A query → response pair the user marked (or the analysis inferred) as good or bad. */
export interface Example extends Scope {
  id: string;
  polarity: ExamplePolarity;
  query: string;
  response: string;
  reason?: string | undefined;
  origin: 'feedback' | 'analysis';
  /** Hash of query + response: the same pair given feedback again finds this example (toggle rules). */
  contentHash: string;
  createdAt: number;
}

/** A per-session scratchpad (seed 004's bounded working memory), stored whole with an optimistic version. */
export interface WorkingMemoryRecord {
  tenant: string;
  sessionId: string;
  version: number;
  state: JsonObject;
  updatedAt: number;
  expiresAt?: number | undefined;
}

/** An API key. Only a hash of the secret is stored; `prefix` lets a human tell keys apart. */
export interface ApiKeyRecord {
  id: string;
  /** The tenant the key acts for; admin keys manage tenants and keys and have no tenant. */
  tenant?: string | undefined;
  role: 'tenant' | 'admin';
  name: string;
  prefix: string;
  hash: string;
  createdAt: number;
  revokedAt?: number | undefined;
}

/** Kinds of memory that retrieval can return. */
export const DOC_KINDS = ['event', 'fact', 'episode', 'example', 'procedure'] as const;
export type DocKind = (typeof DOC_KINDS)[number];

/**
 * The retrieval projection of a memory: one row per searchable record, kept in the same transaction as
 * the record. Lexical and vector indexes, filters and TTL all work on documents, whatever their kind.
 */
export interface Doc extends Scope {
  /** Storage-internal dense id; keys the vector and lexical indexes. */
  docId: number;
  kind: DocKind;
  refId: string;
  text: string;
  ts: number;
  importance: number;
  type?: string | undefined;
  actor?: string | undefined;
  source?: string | undefined;
  section?: string | undefined;
  stateLabel?: string | undefined;
  tags: string[];
  pii: boolean;
  metadata: JsonObject;
  contentHash: string;
  expiresAt?: number | undefined;
  /** Facts: confidence of the live version; others 1. */
  confidence: number;
}
