/**
 * Records of the learn, feedback and working-memory areas (episodes, links, procedures, examples, the
 * scratchpad): the types generated from the API document (src/client/schema.ts).
 */
import type { components } from '../../../src/client/schema';

type Schemas = components['schemas'];

export const OUTCOMES = ['SUCCESS', 'FAILURE', 'PARTIAL', 'UNKNOWN'] as const;
export type Outcome = (typeof OUTCOMES)[number];
export const LINK_TYPES = ['CAUSED_BY', 'LED_TO', 'RETRY_OF', 'LEARNED_FROM', 'CONTINUATION', 'CONTRADICTED'] as const;
export type LinkType = (typeof LINK_TYPES)[number];


export type Episode = Schemas['Episode'];

export type Link = Schemas['Link'];

export type CausalChain = Schemas['CausalChain'];

export type Procedure = Schemas['Procedure'];

export type Example = Schemas['Example'];

export type WorkingMemory = Schemas['WorkingMemory'];

export interface WireScopeQuery {
  user_id?: string;
  agent_id?: string;
  session_id?: string;
  task_id?: string;
}
export type Retrieval = Schemas['Retrieval'];
export type RetrievalList = Schemas['RetrievalList'];
export type RetrievalSummary = Schemas['RetrievalSummary'];
export type AuditList = Schemas['AuditList'];
export type AuditRecord = AuditList['audit'][number];
export type OutcomeReport = Schemas['OutcomeReport'];
