/**
 * Row shapes as the engines return them and their mapping to the records of `src/core/types.ts`, once for
 * every engine: the differences (bigint as string, 0/1 or boolean, JSON as text or parsed, text[] or JSON
 * text) go through the codecs of `codec.ts`. NULL maps to `undefined` (optional fields absent).
 */
import type { NewDoc } from '../../../core/docs.js';
import type { Doc, DocKind, EventType, Actor, Fact, FactKind, JsonObject, MemoryEvent, PiiReport, Provenance } from '../../../core/types.js';
import { bool, num, opt, optJson, parsed, toNull, type BigIntish, type Boolish } from './codec.js';
import type { Dialect } from './dialect.js';

export { jsonOrNull, num, toNull } from './codec.js';

type Opt<T> = T | null;

export interface EventRow {
  pk: BigIntish;
  tenant: string;
  id: string;
  seq: BigIntish;
  ts: number;
  recorded_at: number;
  type: string;
  actor: string;
  user_id: Opt<string>;
  agent_id: Opt<string>;
  session_id: Opt<string>;
  task_id: Opt<string>;
  state_label: Opt<string>;
  importance: number;
  source: Opt<string>;
  expires_at: Opt<number>;
  // from event_contents (NULL when redacted)
  name: Opt<string>;
  content: Opt<string>;
  tool: Opt<string>;
  args: Opt<string>;
  result: Opt<string>;
  tags: Opt<string>;
  metadata: Opt<string>;
  content_hash: Opt<string>;
  pii: Opt<string>;
  // from event_redactions
  redacted_at: Opt<number>;
  reason: Opt<string>;
}

export interface FactRow {
  pk: BigIntish;
  tenant: string;
  id: string;
  key: string;
  version: number;
  supersedes: Opt<string>;
  kind: string;
  text: string;
  subject: Opt<string>;
  predicate: Opt<string>;
  value: Opt<string>;
  source: Opt<string>;
  section: Opt<string>;
  user_id: Opt<string>;
  agent_id: Opt<string>;
  session_id: Opt<string>;
  task_id: Opt<string>;
  tags: string;
  pii: Boolish;
  pii_report: string;
  metadata: string;
  confidence: number;
  support_count: number;
  contradict_count: number;
  importance: number;
  valid_from: Opt<number>;
  valid_to: Opt<number>;
  recorded_at: number;
  expired_at: Opt<number>;
  expires_at: Opt<number>;
  content_hash: string;
  provenance: string;
}

export interface DocRow {
  doc_id: BigIntish;
  tenant: string;
  kind: string;
  ref_id: string;
  user_id: Opt<string>;
  agent_id: Opt<string>;
  session_id: Opt<string>;
  task_id: Opt<string>;
  text: string;
  ts: number;
  importance: number;
  type: Opt<string>;
  actor: Opt<string>;
  source: Opt<string>;
  section: Opt<string>;
  state_label: Opt<string>;
  /** JSON text (SQLite) or text[] (PostgreSQL). */
  tags: string | string[];
  pii: Boolish;
  /** JSON text (SQLite) or jsonb (PostgreSQL). */
  metadata: string | JsonObject;
  content_hash: string;
  expires_at: Opt<number>;
  confidence: number;
}

/** The columns `getDocs` reads (everything but the engine's index columns). */
export const DOC_READ_COLUMNS =
  'doc_id, tenant, kind, ref_id, user_id, agent_id, session_id, task_id, text, ts, importance, type, actor, source, section, state_label, tags, pii, metadata, content_hash, expires_at, confidence';


const NO_PII: PiiReport = { scrubbed: false, counts: {} };

/**
 * A redacted event keeps its timeline fields; its content is '' and its metadata says when and why it was
 * redacted (`{ redacted: { at, reason } }`), with no tags, hash or PII report.
 */
export function rowToEvent(r: EventRow): MemoryEvent {
  const base = {
    id: r.id,
    seq: num(r.seq),
    tenant: r.tenant,
    userId: opt(r.user_id),
    agentId: opt(r.agent_id),
    sessionId: opt(r.session_id),
    taskId: opt(r.task_id),
    ts: r.ts,
    recordedAt: r.recorded_at,
    type: r.type as EventType,
    actor: r.actor as Actor,
    stateLabel: opt(r.state_label),
    importance: r.importance,
    source: opt(r.source),
    expiresAt: opt(r.expires_at),
  };
  if (r.content === null) {
    return {
      ...base,
      content: '',
      tags: [],
      metadata: { redacted: { at: r.redacted_at ?? 0, reason: r.reason ?? '' } },
      contentHash: '',
      pii: NO_PII,
    };
  }
  return {
    ...base,
    name: opt(r.name),
    content: r.content,
    tool: opt(r.tool),
    args: optJson(r.args),
    result: optJson(r.result),
    tags: JSON.parse(r.tags ?? '[]') as string[],
    metadata: JSON.parse(r.metadata ?? '{}') as JsonObject,
    contentHash: r.content_hash ?? '',
    pii: JSON.parse(r.pii ?? 'null') as PiiReport,
  };
}

export function rowToFact(r: FactRow): Fact {
  return {
    id: r.id,
    key: r.key,
    version: r.version,
    supersedes: opt(r.supersedes),
    tenant: r.tenant,
    userId: opt(r.user_id),
    agentId: opt(r.agent_id),
    sessionId: opt(r.session_id),
    taskId: opt(r.task_id),
    kind: r.kind as FactKind,
    text: r.text,
    subject: opt(r.subject),
    predicate: opt(r.predicate),
    value: opt(r.value),
    source: opt(r.source),
    section: opt(r.section),
    tags: JSON.parse(r.tags) as string[],
    pii: bool(r.pii),
    piiReport: JSON.parse(r.pii_report) as PiiReport,
    metadata: JSON.parse(r.metadata) as JsonObject,
    confidence: r.confidence,
    supportCount: r.support_count,
    contradictCount: r.contradict_count,
    importance: r.importance,
    validFrom: opt(r.valid_from),
    validTo: opt(r.valid_to),
    recordedAt: r.recorded_at,
    expiredAt: opt(r.expired_at),
    expiresAt: opt(r.expires_at),
    contentHash: r.content_hash,
    provenance: JSON.parse(r.provenance) as Provenance,
  };
}

/** Parameters for `INSERT INTO facts`, in the column order of `FACT_COLUMNS`. */
export const FACT_COLUMNS = [
  'tenant', 'id', 'key', 'version', 'supersedes', 'kind', 'text', 'subject', 'predicate', 'value', 'source', 'section',
  'user_id', 'agent_id', 'session_id', 'task_id', 'tags', 'pii', 'pii_report', 'metadata', 'confidence', 'support_count',
  'contradict_count', 'importance', 'valid_from', 'valid_to', 'recorded_at', 'expired_at', 'expires_at', 'content_hash',
  'provenance',
] as const;

export function factParams(f: Fact, d: Pick<Dialect, 'bool'>): (string | number | boolean | null)[] {
  return [
    f.tenant, f.id, f.key, f.version, toNull(f.supersedes), f.kind, f.text, toNull(f.subject), toNull(f.predicate),
    toNull(f.value), toNull(f.source), toNull(f.section), toNull(f.userId), toNull(f.agentId), toNull(f.sessionId),
    toNull(f.taskId), JSON.stringify(f.tags), d.bool(f.pii), JSON.stringify(f.piiReport), JSON.stringify(f.metadata),
    f.confidence, f.supportCount, f.contradictCount, f.importance, toNull(f.validFrom), toNull(f.validTo), f.recordedAt,
    toNull(f.expiredAt), toNull(f.expiresAt), f.contentHash, JSON.stringify(f.provenance),
  ];
}

export function rowToDoc(r: DocRow): Doc {
  return {
    docId: num(r.doc_id),
    tenant: r.tenant,
    userId: opt(r.user_id),
    agentId: opt(r.agent_id),
    sessionId: opt(r.session_id),
    taskId: opt(r.task_id),
    kind: r.kind as DocKind,
    refId: r.ref_id,
    text: r.text,
    ts: r.ts,
    importance: r.importance,
    type: opt(r.type),
    actor: opt(r.actor),
    source: opt(r.source),
    section: opt(r.section),
    stateLabel: opt(r.state_label),
    tags: parsed<string[]>(r.tags),
    pii: bool(r.pii),
    metadata: parsed<JsonObject>(r.metadata),
    contentHash: r.content_hash,
    expiresAt: opt(r.expires_at),
    confidence: r.confidence,
  };
}

export const DOC_COLUMNS = [
  'tenant', 'kind', 'ref_id', 'user_id', 'agent_id', 'session_id', 'task_id', 'text', 'ts', 'importance', 'type', 'actor',
  'source', 'section', 'state_label', 'tags', 'pii', 'metadata', 'content_hash', 'expires_at', 'confidence',
] as const;

export function docParams(d: NewDoc): (string | number | null)[] {
  return [
    d.tenant, d.kind, d.refId, toNull(d.userId), toNull(d.agentId), toNull(d.sessionId), toNull(d.taskId), d.text, d.ts,
    d.importance, toNull(d.type), toNull(d.actor), toNull(d.source), toNull(d.section), toNull(d.stateLabel),
    JSON.stringify(d.tags), d.pii ? 1 : 0, JSON.stringify(d.metadata), d.contentHash, toNull(d.expiresAt), d.confidence,
  ];
}

/** `INSERT INTO engram.<table> (columns) VALUES (?, …)`. */
export function insertSql(table: string, columns: readonly string[]): string {
  return `INSERT INTO engram.${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
}

/** `INSERT … ON CONFLICT (key) DO UPDATE SET every other column`: a record replaced whole by its key (both engines). */
export function upsertSql(table: string, columns: readonly string[], key: readonly string[]): string {
  const set = columns.filter((c) => !key.includes(c)).map((c) => `${c} = excluded.${c}`);
  return `${insertSql(table, columns)}
    ON CONFLICT (${key.join(', ')}) DO UPDATE SET ${set.join(', ')}`;
}

/** Column-wise arrays of docs for one `INSERT … SELECT FROM unnest(…)` (PostgreSQL's batch insert). */
export function docColumns(docs: readonly NewDoc[], search: readonly string[]) {
  return {
    tenant: docs.map((d) => d.tenant),
    kind: docs.map((d) => d.kind),
    refId: docs.map((d) => d.refId),
    userId: docs.map((d) => toNull(d.userId)),
    agentId: docs.map((d) => toNull(d.agentId)),
    sessionId: docs.map((d) => toNull(d.sessionId)),
    taskId: docs.map((d) => toNull(d.taskId)),
    text: docs.map((d) => d.text),
    ts: docs.map((d) => d.ts),
    importance: docs.map((d) => d.importance),
    type: docs.map((d) => toNull(d.type)),
    actor: docs.map((d) => toNull(d.actor)),
    source: docs.map((d) => toNull(d.source)),
    section: docs.map((d) => toNull(d.section)),
    stateLabel: docs.map((d) => toNull(d.stateLabel)),
    tags: docs.map((d) => JSON.stringify(d.tags)),
    pii: docs.map((d) => d.pii),
    metadata: docs.map((d) => JSON.stringify(d.metadata)),
    contentHash: docs.map((d) => d.contentHash),
    expiresAt: docs.map((d) => toNull(d.expiresAt)),
    confidence: docs.map((d) => d.confidence),
    search,
  };
}
