/**
 * What a cached entry may answer. An entry is a snapshot taken at some `now`; the primary's answers depend on
 * the caller's `now` only through expiry, which only ever removes records as `now` grows. So a snapshot
 * answers a later (or equal) `now` exactly when nothing it returned has expired by then, and an absence
 * answers any later `now`. Anything else is a miss and goes to the primary.
 */
import type { Fact, MemoryEvent, WorkingMemoryRecord } from '../../core/types.js';
import type { EventQuery } from '../../ports/storage.js';

const alive = (r: { expiresAt?: number | undefined }, now: number): boolean => r.expiresAt === undefined || r.expiresAt > now;

/** A cached answer, or undefined when the entry cannot answer this call. */
export type Served<T> = { value: T } | undefined;

/** Recent-events windows are the queries worth caching: bounded by `lastN`, or by a `since` time. */
export function isWindowQuery(q: EventQuery): boolean {
  return q.lastN !== undefined || q.since !== undefined;
}

/** The window query without `now` (and the tenant, which is in the key already): what the entry key hashes. */
export function windowKeyOf(q: EventQuery): Omit<EventQuery, 'now' | 'tenant'> {
  const { now: _now, tenant: _tenant, ...rest } = q;
  return rest;
}

export interface WindowEntry {
  now: number;
  events: MemoryEvent[];
}

/**
 * Any expiry inside the snapshot makes it a miss: with `lastN` or `limit` an older event would take the
 * expired one's place at the primary, so dropping it would not give the primary's answer. When nothing
 * expired, the snapshot still holds the newest (or oldest) eligible events, since eligibility only shrinks.
 */
export function serveWindow(entry: WindowEntry, now: number): Served<MemoryEvent[]> {
  if (now < entry.now) return undefined;
  return entry.events.every((e) => alive(e, now)) ? { value: entry.events } : undefined;
}

export interface LiveFactEntry {
  now: number;
  fact?: Fact;
}

/**
 * A live version (never superseded while the tokens hold) answers any `now` before its expiry. An absence
 * answers only a `now` at or after the one it was observed at: at an earlier `now` a since-expired version
 * would still count as live.
 */
export function serveLiveFact(entry: LiveFactEntry, now: number): Served<Fact | undefined> {
  if (entry.fact) return alive(entry.fact, now) ? { value: entry.fact } : undefined;
  return now >= entry.now ? { value: undefined } : undefined;
}

export interface WorkingMemoryEntry {
  now: number;
  rec?: WorkingMemoryRecord;
}

/** The same rule as for live facts: a record answers until it expires, an absence from when it was seen. */
export function serveWorkingMemory(entry: WorkingMemoryEntry, now: number): Served<WorkingMemoryRecord | undefined> {
  if (entry.rec) return alive(entry.rec, now) ? { value: entry.rec } : undefined;
  return now >= entry.now ? { value: undefined } : undefined;
}

/** Working-memory entries are stored as `<version>|<json>` (version 0 = absent) so fills can be ordered. */
export function decodeVersioned<T>(raw: string): T | undefined {
  const bar = raw.indexOf('|');
  return bar < 0 ? undefined : parseJson<T>(raw.slice(bar + 1));
}

export function parseJson<T>(raw: string): T | undefined {
  try {
    return JSON.parse(raw) as T;
  } catch {
    return undefined;
  }
}
