/**
 * Records of the learn, feedback and working-memory areas (episodes, links, procedures, examples, the
 * scratchpad), in the API's snake_case wire casing with ISO-8601 times.
 */
export const OUTCOMES = ['SUCCESS', 'FAILURE', 'PARTIAL', 'UNKNOWN'] as const;
export type Outcome = (typeof OUTCOMES)[number];
export const LINK_TYPES = ['CAUSED_BY', 'LED_TO', 'RETRY_OF', 'LEARNED_FROM', 'CONTINUATION', 'CONTRADICTED'] as const;
export type LinkType = (typeof LINK_TYPES)[number];

interface WireScope {
  tenant: string;
  user_id?: string;
  agent_id?: string;
  session_id?: string;
  task_id?: string;
}

export interface Episode extends WireScope {
  id: string;
  start_ts: string;
  end_ts: string;
  event_ids: string[];
  state_label?: string;
  summary: string;
  outcome: Outcome;
  outcome_details?: string;
  decisions: string[];
  assumptions: string[];
  corrections: string[];
  root_cause?: string;
  importance: number;
  closed: boolean;
}

export interface Link {
  id: string;
  type: LinkType;
  from_id: string;
  to_id: string;
  weight: number;
  origin: string;
  evidence?: string;
  created_at: string;
}

export interface CausalChain {
  episode_ids: string[];
  steps: { episode_id: string; label: string; outcome: Outcome; via: LinkType | null }[];
  narrative: string;
}

export interface Procedure extends WireScope {
  id: string;
  name: string;
  trigger: string;
  steps: string[];
  preconditions: string[];
  success_count: number;
  failure_count: number;
  notes: string[];
  last_used_at?: string;
  source_episode_ids: string[];
  updated_at: string;
}

export interface Example extends WireScope {
  id: string;
  polarity: 'positive' | 'negative';
  query: string;
  response: string;
  reason?: string;
  origin: string;
  created_at: string;
}

export interface WorkingMemory {
  session_id: string;
  version: number;
  plan?: string;
  items: { id: string; kind: string; content: string; source?: string; priority: number; added_at: string }[];
  entities: { key: string; value: string; updated_at: string }[];
  summary?: string;
  turns: { role: string; content: string; at: string }[];
  text: string;
  tokens: number;
  max_tokens: number;
  evicted_count: number;
}

export interface WireScopeQuery {
  user_id?: string;
  agent_id?: string;
  session_id?: string;
  task_id?: string;
}
