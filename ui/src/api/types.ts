/**
 * The REST API's records as the inspector reads them, in the API's wire casing: snake_case keys, ISO-8601
 * times (the client normalizes any other casing, see wire.ts). Only the fields the views use are spelled out.
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
  user_id?: string;
  agent_id?: string;
  session_id?: string;
  task_id?: string;
}

export interface MemoryEvent extends Scope {
  id: string;
  seq: number;
  ts: string;
  recorded_at: string;
  type: EventType;
  actor: string;
  name?: string;
  content: string;
  tool?: string;
  args?: unknown;
  result?: unknown;
  state_label?: string;
  tags: string[];
  importance: number;
  source?: string;
  metadata: Record<string, unknown>;
  content_hash: string;
  expires_at?: string;
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
  support_count: number;
  contradict_count: number;
  importance: number;
  valid_from?: string;
  valid_to?: string | null;
  recorded_at: string;
  expired_at?: string | null;
  expires_at?: string;
  provenance: { origin: string; event_ids?: string[]; episode_ids?: string[]; note?: string };
}

export interface RememberResult {
  fact: Fact;
  status: 'created' | 'versioned' | 'duplicate';
  superseded_id?: string;
}

export interface ScoreBreakdown {
  final: number;
  [signal: string]: number | null;
}

export interface SearchHit {
  doc: { kind: DocKind; ref_id: string; text: string; ts: string; type?: string; tags: string[]; user_id?: string; session_id?: string };
  score: number;
  scores: ScoreBreakdown;
}

export interface ContextItem {
  id: string;
  kind: DocKind;
  section: string;
  text: string;
  truncated: boolean;
  provenance: { source: string | null; section: string | null; ts: string; type: string | null; actor: string | null; task_id: string | null; session_id: string | null; tags: string[] };
  scores: ScoreBreakdown;
}

export interface ContextResult {
  retrieval_id: string;
  query: string;
  route: string;
  items: ContextItem[];
  conflicts: { reason: string; action: string; item_ids: string[]; dropped_ids: string[]; note: string }[];
  sections: { name: string; item_ids: string[] }[];
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

/** The scope filters shared by the filter forms. */
export interface ScopeQuery {
  user_id?: string;
  agent_id?: string;
  session_id?: string;
  task_id?: string;
}
