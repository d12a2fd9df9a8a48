/**
 * Row shapes and record mappings for the learn tables (migration 002), in the manner of `rows.ts`: NULL maps
 * to `undefined`, JSON columns are parsed here and nowhere else, and each `*_COLUMNS` list fixes the order of
 * its `*Params` function.
 */
import type {
  ApiKeyRecord,
  Episode,
  Example,
  ExamplePolarity,
  FactEvidence,
  JsonObject,
  Link,
  LinkType,
  Outcome,
  Procedure,
  WorkingMemoryRecord,
} from '../../../core/types.js';
import { toNull } from './codec.js';

type Opt<T> = T | null;
type Param = string | number | null;

const opt = <T>(v: T | null): T | undefined => (v === null ? undefined : v);
const strings = (v: string): string[] => JSON.parse(v) as string[];

export interface ScopeRow {
  tenant: string;
  user_id: Opt<string>;
  agent_id: Opt<string>;
  session_id: Opt<string>;
  task_id: Opt<string>;
}

export const scopeOf = (r: ScopeRow) => ({
  tenant: r.tenant,
  userId: opt(r.user_id),
  agentId: opt(r.agent_id),
  sessionId: opt(r.session_id),
  taskId: opt(r.task_id),
});

export const SCOPE_PARAMS = ['tenant', 'user_id', 'agent_id', 'session_id', 'task_id'] as const;
export const scopeParams = (s: { tenant: string; userId?: string | undefined; agentId?: string | undefined; sessionId?: string | undefined; taskId?: string | undefined }): Param[] => [
  s.tenant, toNull(s.userId), toNull(s.agentId), toNull(s.sessionId), toNull(s.taskId),
];

// --- episodes ---

export interface EpisodeRow extends ScopeRow {
  pk: number;
  id: string;
  stream_key: string;
  start_seq: number;
  end_seq: number;
  start_ts: number;
  end_ts: number;
  event_ids: string;
  state_label: Opt<string>;
  summary: string;
  outcome: string;
  outcome_details: Opt<string>;
  decisions: string;
  assumptions: string;
  corrections: string;
  root_cause: Opt<string>;
  importance: number;
  closed: number;
  metadata: string;
  recorded_at: number;
}

export const EPISODE_COLUMNS = [
  ...SCOPE_PARAMS, 'id', 'stream_key', 'start_seq', 'end_seq', 'start_ts', 'end_ts', 'event_ids', 'state_label', 'summary',
  'outcome', 'outcome_details', 'decisions', 'assumptions', 'corrections', 'root_cause', 'importance', 'closed', 'metadata',
  'recorded_at',
] as const;

export function episodeParams(e: Episode): Param[] {
  return [
    ...scopeParams(e), e.id, e.streamKey, e.startSeq, e.endSeq, e.startTs, e.endTs, JSON.stringify(e.eventIds),
    toNull(e.stateLabel), e.summary, e.outcome, toNull(e.outcomeDetails), JSON.stringify(e.decisions),
    JSON.stringify(e.assumptions), JSON.stringify(e.corrections), toNull(e.rootCause), e.importance, e.closed ? 1 : 0,
    JSON.stringify(e.metadata), e.recordedAt,
  ];
}

export function rowToEpisode(r: EpisodeRow): Episode {
  return {
    id: r.id,
    ...scopeOf(r),
    streamKey: r.stream_key,
    startSeq: r.start_seq,
    endSeq: r.end_seq,
    startTs: r.start_ts,
    endTs: r.end_ts,
    eventIds: strings(r.event_ids),
    stateLabel: opt(r.state_label),
    summary: r.summary,
    outcome: r.outcome as Outcome,
    outcomeDetails: opt(r.outcome_details),
    decisions: strings(r.decisions),
    assumptions: strings(r.assumptions),
    corrections: strings(r.corrections),
    rootCause: opt(r.root_cause),
    importance: r.importance,
    closed: r.closed === 1,
    metadata: JSON.parse(r.metadata) as JsonObject,
    recordedAt: r.recorded_at,
  };
}

// --- links ---

export interface LinkRow {
  pk: number;
  tenant: string;
  id: string;
  type: string;
  from_id: string;
  to_id: string;
  weight: number;
  origin: string;
  evidence: Opt<string>;
  created_at: number;
}

export const LINK_COLUMNS = ['tenant', 'id', 'type', 'from_id', 'to_id', 'weight', 'origin', 'evidence', 'created_at'] as const;

export function linkParams(l: Link): Param[] {
  return [l.tenant, l.id, l.type, l.fromId, l.toId, l.weight, l.origin, toNull(l.evidence), l.createdAt];
}

export function rowToLink(r: LinkRow): Link {
  return {
    id: r.id,
    tenant: r.tenant,
    type: r.type as LinkType,
    fromId: r.from_id,
    toId: r.to_id,
    weight: r.weight,
    origin: r.origin as Link['origin'],
    evidence: opt(r.evidence),
    createdAt: r.created_at,
  };
}

// --- fact evidence ---

export interface EvidenceRow {
  tenant: string;
  fact_id: string;
  episode_id: string;
  polarity: string;
  weight: number;
  at: number;
}

export function rowToEvidence(r: EvidenceRow): FactEvidence {
  return {
    tenant: r.tenant,
    factId: r.fact_id,
    episodeId: r.episode_id,
    polarity: r.polarity as FactEvidence['polarity'],
    weight: r.weight,
    at: r.at,
  };
}

// --- procedures ---

export interface ProcedureRow extends ScopeRow {
  pk: number;
  id: string;
  name: string;
  trigger_text: string;
  steps: string;
  preconditions: string;
  success_count: number;
  failure_count: number;
  notes: string;
  last_used_at: Opt<number>;
  source_episode_ids: string;
  created_at: number;
  updated_at: number;
}

export const PROCEDURE_COLUMNS = [
  ...SCOPE_PARAMS, 'id', 'name', 'trigger_text', 'steps', 'preconditions', 'success_count', 'failure_count', 'notes',
  'last_used_at', 'source_episode_ids', 'created_at', 'updated_at',
] as const;

export function procedureParams(p: Procedure): Param[] {
  return [
    ...scopeParams(p), p.id, p.name, p.trigger, JSON.stringify(p.steps), JSON.stringify(p.preconditions), p.successCount,
    p.failureCount, JSON.stringify(p.notes), toNull(p.lastUsedAt), JSON.stringify(p.sourceEpisodeIds), p.createdAt, p.updatedAt,
  ];
}

export function rowToProcedure(r: ProcedureRow): Procedure {
  return {
    id: r.id,
    ...scopeOf(r),
    name: r.name,
    trigger: r.trigger_text,
    steps: strings(r.steps),
    preconditions: strings(r.preconditions),
    successCount: r.success_count,
    failureCount: r.failure_count,
    notes: strings(r.notes),
    lastUsedAt: opt(r.last_used_at),
    sourceEpisodeIds: strings(r.source_episode_ids),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

// --- examples ---

export interface ExampleRow extends ScopeRow {
  pk: number;
  id: string;
  polarity: string;
  query: string;
  response: string;
  reason: Opt<string>;
  origin: string;
  content_hash: string;
  created_at: number;
}

export const EXAMPLE_COLUMNS = [
  ...SCOPE_PARAMS, 'id', 'polarity', 'query', 'response', 'reason', 'origin', 'content_hash', 'created_at',
] as const;

export function exampleParams(e: Example): Param[] {
  return [...scopeParams(e), e.id, e.polarity, e.query, e.response, toNull(e.reason), e.origin, e.contentHash, e.createdAt];
}

export function rowToExample(r: ExampleRow): Example {
  return {
    id: r.id,
    ...scopeOf(r),
    polarity: r.polarity as ExamplePolarity,
    query: r.query,
    response: r.response,
    reason: opt(r.reason),
    origin: r.origin as Example['origin'],
    contentHash: r.content_hash,
    createdAt: r.created_at,
  };
}

// --- working memory ---

export interface WorkingMemoryRow {
  tenant: string;
  session_id: string;
  version: number;
  state: string;
  updated_at: number;
  expires_at: Opt<number>;
}

export function rowToWorkingMemory(r: WorkingMemoryRow): WorkingMemoryRecord {
  return {
    tenant: r.tenant,
    sessionId: r.session_id,
    version: r.version,
    state: JSON.parse(r.state) as JsonObject,
    updatedAt: r.updated_at,
    expiresAt: opt(r.expires_at),
  };
}

// --- api keys ---

export interface ApiKeyRow {
  pk: number;
  id: string;
  tenant: Opt<string>;
  role: string;
  name: string;
  prefix: string;
  hash: string;
  created_at: number;
  revoked_at: Opt<number>;
}

export const API_KEY_COLUMNS = ['id', 'tenant', 'role', 'name', 'prefix', 'hash', 'created_at', 'revoked_at'] as const;

export function apiKeyParams(k: ApiKeyRecord): Param[] {
  return [k.id, toNull(k.tenant), k.role, k.name, k.prefix, k.hash, k.createdAt, toNull(k.revokedAt)];
}

export function rowToApiKey(r: ApiKeyRow): ApiKeyRecord {
  return {
    id: r.id,
    tenant: opt(r.tenant),
    role: r.role as ApiKeyRecord['role'],
    name: r.name,
    prefix: r.prefix,
    hash: r.hash,
    createdAt: r.created_at,
    revokedAt: opt(r.revoked_at),
  };
}
