/** The retention sub-port: physical deletion. */
import type { ScopeFilter } from './common.js';

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

/** Physical deletion: forget on request, sweep on expiry. */
export interface RetentionStore {
  /** Physically deletes records, their docs, index entries and now-unreferenced embeddings; writes an audit record. */
  forget(sel: ForgetSelector, at: number): Promise<ForgetReport>;
  /** Physically deletes everything whose `expiresAt` is at or before `now`. Returns the number of records. */
  sweepExpired(now: number): Promise<number>;
}
