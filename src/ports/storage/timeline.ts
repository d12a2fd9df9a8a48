/** The timeline sub-port: append-only events. */
import type { FilterNode } from '../../core/filter.js';
import type { EventType, MemoryEvent } from '../../core/types.js';
import type { ScopeFilter } from './common.js';

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

/** The append-only timeline. */
export interface TimelineStore {
  /** Appends atomically: all rows and their docs are durable when this resolves, or nothing is written. */
  appendEvents(events: readonly NewEvent[]): Promise<AppendResult[]>;
  getEvents(tenant: string, ids: readonly string[]): Promise<MemoryEvent[]>;
  queryEvents(q: EventQuery): Promise<MemoryEvent[]>;
  /** Removes an event's content, leaving a tombstone and an audit record. False if no such event. */
  redactEvent(tenant: string, id: string, reason: string, at: number): Promise<boolean>;
}
