/**
 * The REST API's records as the inspector reads them (the OpenAPI document's `Event`, `Fact`, `ContextResult`
 * …, times as ISO-8601 strings). Only the fields the views use are spelled out.
 */
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

export const DOC_KINDS = ['event', 'fact', 'episode', 'example', 'procedure'] as const;
export type DocKind = (typeof DOC_KINDS)[number];

export interface Scope {
  tenant: string;
  userId?: string;
  agentId?: string;
  sessionId?: string;
  taskId?: string;
}

export interface MemoryEvent extends Scope {
  id: string;
  seq: number;
  ts: string;
  recordedAt: string;
  type: EventType;
  actor: string;
  name?: string;
  content: string;
  tool?: string;
  args?: unknown;
  result?: unknown;
  stateLabel?: string;
  tags: string[];
  importance: number;
  source?: string;
  metadata: Record<string, unknown>;
  contentHash: string;
  expiresAt?: string;
  pii: { scrubbed: boolean; counts: Record<string, number> };
}

export interface Fact extends Scope {
  id: string;
  key: string;
  version: number;
  supersedes?: string;
  kind: string;
  text: string;
  subject?: string;
  predicate?: string;
  value?: string;
  source?: string;
  section?: string;
  tags: string[];
  metadata: Record<string, unknown>;
  confidence: number;
  supportCount: number;
  contradictCount: number;
  importance: number;
  validFrom?: string;
  validTo?: string;
  recordedAt: string;
  expiredAt?: string;
  expiresAt?: string;
  provenance: { origin: string; eventIds?: string[]; episodeIds?: string[]; note?: string };
}

export interface RememberResult {
  fact: Fact;
  status: 'created' | 'versioned' | 'duplicate';
  supersededId?: string;
}

export interface ScoreBreakdown {
  vector: number | null;
  lexical: number | null;
  relevance: number | null;
  recency: number | null;
  importance: number | null;
  confidence: number | null;
  rerank: number | null;
  final: number;
  [signal: string]: number | null;
}

export interface SearchHit {
  doc: { kind: DocKind; refId: string; text: string; ts: string; type?: string; tags: string[]; userId?: string; sessionId?: string };
  score: number;
  scores: ScoreBreakdown;
}

export interface ContextItem {
  id: string;
  kind: DocKind;
  section: string;
  text: string;
  truncated: boolean;
  provenance: { source: string | null; section: string | null; ts: string; type: string | null; actor: string | null; taskId: string | null; sessionId: string | null; tags: string[] };
  scores: ScoreBreakdown;
}

export interface ContextResult {
  retrievalId: string;
  query: string;
  route: string;
  items: ContextItem[];
  conflicts: { reason: string; action: string; itemIds: string[]; droppedIds: string[]; note: string }[];
  sections: { name: string; itemIds: string[] }[];
  tokens: { used: number; budget: number };
  dropped: number;
  text: string;
}

export interface ForgetReport {
  events: number;
  facts: number;
  docs: number;
  embeddings: number;
  [kind: string]: number;
}

/** The scope filters shared by the timeline and the facts list. */
export interface ScopeQuery {
  userId?: string;
  agentId?: string;
  sessionId?: string;
  taskId?: string;
}
