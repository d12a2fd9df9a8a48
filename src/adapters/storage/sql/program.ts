/**
 * Store logic written once for a synchronous engine (better-sqlite3) and an asynchronous one (pg, PGlite).
 * A store function is a generator that yields what it wants the engine to do (run a statement, lock a
 * tenant, project a doc) and receives the answer; each engine supplies a runner that answers synchronously
 * (SQLite: the whole transaction stays one synchronous call, as fast as before) or by awaiting (PostgreSQL).
 * Policy (what to read, what to check, what to write and in which order) is therefore in one place.
 *
 * Statements name tables `engram.<table>` (see dialect.ts).
 */
import type { NewDoc } from '../../../core/docs.js';
import type { Sql } from './fragment.js';

export interface RemovedDocs {
  docIds: number[];
  contentHashes: string[];
}

export type Op =
  | { op: 'rows'; sql: Sql }
  | { op: 'exec'; sql: Sql }
  /** Serialises the tenants' writers (PostgreSQL locks their state rows; SQLite's write transaction already holds the file lock). */
  | { op: 'lock'; tenants: readonly string[] }
  /** Inserts docs (and tells the engine's indexes); answers their ids in input order. */
  | { op: 'insertDocs'; docs: readonly NewDoc[] }
  /** Removes the tenant's docs matching `where` (over docs `d`), from the indexes too. */
  | { op: 'deleteDocs'; tenant: string; where: Sql }
  /** Makes the projection of a replaceable record equal `doc` (undefined removes it). */
  | { op: 'replaceDoc'; tenant: string; kind: string; refId: string; doc: NewDoc | undefined }
  /**
   * After events were redacted or deleted in this transaction: the engine re-derives the lexical context of the
   * event that now follows each removed one in its session, so no removed words stay findable through a neighbour.
   */
  | { op: 'refreshFollowers'; tenant: string; removed: readonly TimelineSlot[] };

/** Where an event sat in its session's timeline. */
export interface TimelineSlot {
  session_id: string | null;
  seq: number | string;
}

/** A store function's body: yields operations, returns T. */
export type Step<T> = Generator<Op, T, unknown>;

export function* rows<R>(s: Sql): Step<R[]> {
  return (yield { op: 'rows', sql: s }) as R[];
}

export function* one<R>(s: Sql): Step<R | undefined> {
  return (yield* rows<R>(s))[0];
}

/** Runs a statement, returning the number of rows it changed. */
export function* exec(s: Sql): Step<number> {
  return (yield { op: 'exec', sql: s }) as number;
}

export function* lockTenants(tenants: readonly string[]): Step<void> {
  yield { op: 'lock', tenants };
}

export function* insertDocs(docs: readonly NewDoc[]): Step<number[]> {
  if (docs.length === 0) return [];
  return (yield { op: 'insertDocs', docs }) as number[];
}

export function* deleteDocs(tenant: string, where: Sql): Step<RemovedDocs> {
  return (yield { op: 'deleteDocs', tenant, where }) as RemovedDocs;
}

export function* replaceDoc(tenant: string, kind: string, refId: string, doc: NewDoc | undefined): Step<void> {
  yield { op: 'replaceDoc', tenant, kind, refId, doc };
}

export function* refreshFollowers(tenant: string, removed: readonly TimelineSlot[]): Step<void> {
  if (removed.length > 0) yield { op: 'refreshFollowers', tenant, removed };
}

/** Drives a step synchronously: `answer` performs each operation at once. */
export function runSync<T>(step: Step<T>, answer: (op: Op) => unknown): T {
  let next = step.next();
  while (!next.done) next = step.next(answer(next.value));
  return next.value;
}

/** Drives a step asynchronously: each operation is awaited before the step resumes. */
export async function runAsync<T>(step: Step<T>, answer: (op: Op) => Promise<unknown>): Promise<T> {
  let next = step.next();
  while (!next.done) next = step.next(await answer(next.value));
  return next.value;
}

/**
 * How shared store functions reach an engine. `read` runs outside any write transaction; `write` runs the step
 * in one write transaction (retried whole by engines that retry, so the step is made afresh by `make`), and
 * `relaxed` marks records whose loss in a power failure costs nothing (the engine may skip the fsync).
 */
export interface SqlRunner {
  read<T>(make: () => Step<T>): Promise<T>;
  write<T>(what: string, make: () => Step<T>, opts?: { relaxed?: boolean }): Promise<T>;
}
