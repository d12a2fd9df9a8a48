/** The timeline: append (with dedupe and per-tenant seq), read, query and redact events. */
import { eventToDoc, lexicalContext } from '../../../core/docs.js';
import type { MemoryEvent } from '../../../core/types.js';
import type { AppendResult, BackupEvent, EventQuery, NewEvent, RestoreReport } from '../../../ports/storage.js';
import { storedEventState, validateBackupEvents } from '../sql/stores/backup.js';
import type { StoreContext } from './context.js';
import { insertDoc } from './doc-store.js';
import { PREVIOUS_CONTENT } from './lexical-cache.js';
import { jsonOrNull, rowToEvent, toNull, type EventRow } from '../sql/rows.js';
import { assertEventBatch } from '../sql/validate-input.js';
import { timelineSql } from '../sql/timeline-query.js';
import { SQLITE_DIALECT } from './dialect.js';

const INSERT_EVENT = `INSERT INTO events (tenant, id, seq, ts, recorded_at, type, actor, user_id, agent_id, session_id,
  task_id, state_label, importance, source, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const INSERT_CONTENT = `INSERT INTO event_contents (event_pk, tenant, name, content, tool, args, result, tags, metadata,
  content_hash, pii) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
/** Same tenant, source and text, still alive when the new one was recorded; redacted ones have no hash left. */
const FIND_DUPLICATE = `SELECT e.id, e.seq FROM event_contents c JOIN events e ON e.pk = c.event_pk
  WHERE c.tenant = ? AND c.content_hash = ? AND e.tenant = ? AND e.source = ?
    AND (e.expires_at IS NULL OR e.expires_at > ?)
  ORDER BY e.seq LIMIT 1`;

const SELECT_SEQ_BY_ID = `SELECT e.seq FROM events e JOIN event_contents c ON c.event_pk = e.pk
  WHERE e.tenant = ? AND e.id = ? AND c.content_hash = ?`;

const SELECT_EVENTS = `SELECT e.*, c.name, c.content, c.tool, c.args, c.result, c.tags, c.metadata, c.content_hash, c.pii,
  r.redacted_at, r.reason
  FROM events e
  LEFT JOIN event_contents c ON c.event_pk = e.pk
  LEFT JOIN event_redactions r ON r.event_pk = e.pk`;

/**
 * Appends a batch in one transaction: each event, its content row and its doc; or nothing at all.
 * An event whose id, or whose (tenant, source, content hash), already exists — earlier in this batch too —
 * is not written and reports `duplicateOf` with the original's id and seq.
 */
export function appendEvents(ctx: StoreContext, events: readonly NewEvent[]): AppendResult[] {
  assertEventBatch(events);
  if (events.length === 0) return [];
  const s = ctx.stmts;
  return ctx.write(() => {
    const nextSeq = new Map<string, number>();
    const results: AppendResult[] = [];
    for (const e of events) {
      // Re-sending a stored event unchanged (e.g. importing an export again) is idempotent; the same id with
      // other content falls through to the insert and fails the batch as a CONFLICT.
      const existing = s.get(SELECT_SEQ_BY_ID).get(e.tenant, e.id, e.contentHash) as { seq: number } | undefined;
      if (existing) {
        results.push({ id: e.id, seq: existing.seq, duplicateOf: e.id });
        continue;
      }
      if (e.source !== undefined) {
        const dup = s.get(FIND_DUPLICATE).get(e.tenant, e.contentHash, e.tenant, e.source, e.recordedAt) as
          | { id: string; seq: number }
          | undefined;
        if (dup) {
          results.push({ id: e.id, seq: dup.seq, duplicateOf: dup.id });
          continue;
        }
      }
      let seq = nextSeq.get(e.tenant);
      if (seq === undefined) {
        seq = ((s.get('SELECT last_seq FROM tenant_sequences WHERE tenant = ?').pluck().get(e.tenant) as number | undefined) ?? 0) + 1;
      }
      nextSeq.set(e.tenant, seq + 1);
      const pk = s.get(INSERT_EVENT).run(
        e.tenant, e.id, seq, e.ts, e.recordedAt, e.type, e.actor, toNull(e.userId), toNull(e.agentId),
        toNull(e.sessionId), toNull(e.taskId), toNull(e.stateLabel), e.importance, toNull(e.source), toNull(e.expiresAt),
      ).lastInsertRowid;
      s.get(INSERT_CONTENT).run(
        pk, e.tenant, toNull(e.name), e.content, toNull(e.tool), jsonOrNull(e.args), jsonOrNull(e.result),
        JSON.stringify(e.tags), JSON.stringify(e.metadata), e.contentHash, JSON.stringify(e.pii),
      );
      const session = e.sessionId;
      insertDoc(ctx, eventToDoc(e), session === undefined ? undefined : () => previousContext(ctx, e.tenant, session, seq));
      results.push({ id: e.id, seq });
    }
    const saveSeq = s.get(
      `INSERT INTO tenant_sequences (tenant, last_seq) VALUES (?, ?)
       ON CONFLICT (tenant) DO UPDATE SET last_seq = excluded.last_seq`,
    );
    for (const [tenant, next] of nextSeq) saveSeq.run(tenant, next - 1);
    return results;
  });
}

const SELECT_STORED = `SELECT e.seq, c.content_hash FROM events e LEFT JOIN event_contents c ON c.event_pk = e.pk WHERE e.tenant = ? AND e.id = ?`;

/**
 * Restores backup events in one transaction, in seq order: each with its own seq, its content row and doc (the
 * lexical context derived as on append) or, when redacted, its tombstone; the tenant's sequence moves past
 * the largest seq. An id already stored is left alone; a seq held by another id is a CONFLICT (unique index).
 */
export function restoreEvents(ctx: StoreContext, events: readonly BackupEvent[]): RestoreReport {
  const sorted = validateBackupEvents(events);
  const s = ctx.stmts;
  return ctx.write(() => {
    const report: RestoreReport = { written: 0, existing: 0, kept: 0 };
    const lastSeq = new Map<string, number>();
    for (const e of sorted) {
      const state = storedEventState(s.get(SELECT_STORED).get(e.tenant, e.id) as { seq: number; content_hash: string | null } | undefined, e);
      if (state) {
        report[state]++;
        continue;
      }
      const pk = s.get(INSERT_EVENT).run(
        e.tenant, e.id, e.seq, e.ts, e.recordedAt, e.type, e.actor, toNull(e.userId), toNull(e.agentId),
        toNull(e.sessionId), toNull(e.taskId), toNull(e.stateLabel), e.importance, toNull(e.source), toNull(e.expiresAt),
      ).lastInsertRowid;
      if (e.redaction) {
        s.get('INSERT INTO event_redactions (event_pk, tenant, redacted_at, reason) VALUES (?, ?, ?, ?)').run(pk, e.tenant, e.redaction.at, e.redaction.reason);
      } else {
        s.get(INSERT_CONTENT).run(
          pk, e.tenant, toNull(e.name), e.content, toNull(e.tool), jsonOrNull(e.args), jsonOrNull(e.result),
          JSON.stringify(e.tags), JSON.stringify(e.metadata), e.contentHash, JSON.stringify(e.pii),
        );
        const session = e.sessionId;
        insertDoc(ctx, eventToDoc(e), session === undefined ? undefined : () => previousContext(ctx, e.tenant, session, e.seq));
      }
      lastSeq.set(e.tenant, Math.max(lastSeq.get(e.tenant) ?? 0, e.seq));
      report.written++;
    }
    const saveSeq = s.get(
      `INSERT INTO tenant_sequences (tenant, last_seq) VALUES (?, ?)
       ON CONFLICT (tenant) DO UPDATE SET last_seq = MAX(last_seq, excluded.last_seq)`,
    );
    for (const [tenant, seq] of lastSeq) saveSeq.run(tenant, seq);
    return report;
  });
}

function previousContext(ctx: StoreContext, tenant: string, sessionId: string, seq: number): string {
  return lexicalContext(ctx.stmts.get(PREVIOUS_CONTENT).pluck().get(tenant, sessionId, seq) as string | undefined);
}

/** Where a removed event sat in the timeline: its successor's lexical context may have come from it. */
export interface TimelineSlot {
  session_id: string | null;
  seq: number;
}

/**
 * After events were redacted or deleted: re-derives the lexical context of the event that now follows each
 * removed one in its session (core/docs.ts), so no removed words stay findable through a neighbour.
 */
export function refreshFollowers(ctx: StoreContext, tenant: string, removed: readonly TimelineSlot[]): void {
  const next = ctx.stmts.get(
    `SELECT d.doc_id, d.text, e.seq FROM events e JOIN docs d ON d.tenant = e.tenant AND d.kind = 'event' AND d.ref_id = e.id
     WHERE e.tenant = ? AND e.session_id = ? AND e.seq > ? ORDER BY e.seq LIMIT 1`,
  );
  for (const r of removed) {
    if (r.session_id === null) continue;
    const session = r.session_id;
    const follower = next.get(tenant, session, r.seq) as { doc_id: number; text: string; seq: number } | undefined;
    if (!follower) continue;
    // The change feed (migration 005) tells other processes and saved index files; triggers cannot see this.
    ctx.stmts.get('INSERT INTO doc_changes (tenant, doc_id) VALUES (?, ?)').run(tenant, follower.doc_id);
    ctx.lexical.docContextChanged(tenant, follower.doc_id, follower.text, () => previousContext(ctx, tenant, session, follower.seq));
  }
}

/** Events by id in the order asked (unknown or other tenants' ids are skipped); expired ones included. */
export function getEvents(ctx: StoreContext, tenant: string, ids: readonly string[]): MemoryEvent[] {
  if (ids.length === 0) return [];
  const rows = ctx.stmts
    .get(`${SELECT_EVENTS} WHERE e.tenant = ? AND e.id IN (SELECT value FROM json_each(?))`)
    .all(tenant, JSON.stringify(ids)) as EventRow[];
  const byId = new Map(rows.map((r) => [r.id, rowToEvent(r)]));
  return ids.map((id) => byId.get(id)).filter((e): e is MemoryEvent => e !== undefined);
}

/** Timeline queries (sql/timeline-query.ts). */
export function queryEvents(ctx: StoreContext, q: EventQuery): MemoryEvent[] {
  const { statement, newestFirst } = timelineSql(SQLITE_DIALECT, q, SELECT_EVENTS, 'docs');
  const events = (ctx.stmts.get(statement.text).all(...statement.params) as EventRow[]).map(rowToEvent);
  return newestFirst ? events.reverse() : events;
}

