/** The timeline: append (with dedupe and per-tenant seq), read, query and redact events. */
import { eventToDoc } from '../../../core/docs.js';
import { batchContexts, PREVIOUS_CONTENT, sessionKey } from './lexical-context.js';
import { EngramError } from '../../../core/errors.js';
import type { MemoryEvent } from '../../../core/types.js';
import type { AppendResult, BackupEvent, EventQuery, NewEvent, RestoreReport } from '../../../ports/storage.js';
import { storedEventState, validateBackupEvents } from '../sql/stores/backup.js';
import { assertEventBatch } from '../sql/validate-input.js';
import { timelineSql } from '../sql/timeline-query.js';
import { POSTGRES_DIALECT } from './dialect.js';
import type { PgContext } from './context.js';
import type { Tx } from './db.js';
import { insertDocs } from './doc-store.js';
import { jsonOrNull, num, rowToEvent, toNull, type EventRow } from '../sql/rows.js';
import { sql } from './sql.js';

export const SELECT_EVENTS = `SELECT e.*, c.name, c.content, c.tool, c.args, c.result, c.tags, c.metadata, c.content_hash, c.pii,
  r.redacted_at, r.reason
  FROM engram.events e
  LEFT JOIN engram.event_contents c ON c.event_pk = e.pk
  LEFT JOIN engram.event_redactions r ON r.event_pk = e.pk`;

const key = (...parts: (string | undefined)[]) => parts.join('\u0000');

interface Original {
  id: string;
  seq: number;
  expiresAt: number | null;
}

interface StoredState {
  /** Stored events of the batch's tenants with the same id: a resend (same hash) or a CONFLICT. */
  byId: Map<string, { seq: number; hash: string | null }>;
  /** Stored events with the same tenant, source and content hash (redacted ones have no hash left), oldest first. */
  bySource: Map<string, Original[]>;
  /** The content of the last stored event of each session of the batch (the lexical context of its first event). */
  sessions: Map<string, string | null>;
}

type StoredRow = {
  what: 'id' | 'source' | 'context';
  tenant: string;
  id: string | null;
  seq: string | number | null;
  content_hash: string | null;
  source: string | null;
  expires_at: number | null;
  session_id: string | null;
  content: string | null;
};

/**
 * What an append must know of the stored timeline, read in one statement under the tenants' locks: events with
 * the batch's ids, events with its (tenant, source, content hash), and each session's last content (every
 * stored seq of a tenant is at most its locked `last_seq`, so the batch's events all follow it). Without
 * `lastSeq` (a restore, whose seqs are its own), the ids only.
 */
async function storedState(tx: Tx, events: readonly NewEvent[], lastSeq?: ReadonlyMap<string, number>): Promise<StoredState> {
  // Without `lastSeq` (a restore), only the ids.
  const sourced = lastSeq ? events.filter((e) => e.source !== undefined) : [];
  const sessions = lastSeq ? [...new Map(events.filter((e) => e.sessionId !== undefined).map((e) => [sessionKey(e.tenant, e.sessionId!), e])).values()] : [];
  const rows = await tx.rows<StoredRow>(
    sql(
      `SELECT 'id' AS what, e.tenant, e.id, e.seq, c.content_hash, NULL::text AS source, NULL::float8 AS expires_at,
         NULL::text AS session_id, NULL::text AS content
       FROM engram.events e LEFT JOIN engram.event_contents c ON c.event_pk = e.pk
       WHERE (e.tenant, e.id) IN (SELECT * FROM unnest(?::text[], ?::text[]))
       UNION ALL
       SELECT 'source', e.tenant, e.id, e.seq, c.content_hash, e.source, e.expires_at, NULL, NULL
       FROM engram.event_contents c JOIN engram.events e ON e.pk = c.event_pk
       WHERE (c.tenant, c.content_hash) IN (SELECT * FROM unnest(?::text[], ?::text[]))
         AND (e.tenant, e.source) IN (SELECT * FROM unnest(?::text[], ?::text[]))
       UNION ALL
       SELECT 'context', k.tenant, NULL, NULL, NULL, NULL, NULL, k.session_id, ${PREVIOUS_CONTENT('k.tenant', 'k.session_id', 'k.seq')}
       FROM unnest(?::text[], ?::text[], ?::bigint[]) AS k(tenant, session_id, seq)`,
      events.map((e) => e.tenant),
      events.map((e) => e.id),
      sourced.map((e) => e.tenant),
      sourced.map((e) => e.contentHash),
      sourced.map((e) => e.tenant),
      sourced.map((e) => e.source!),
      sessions.map((e) => e.tenant),
      sessions.map((e) => e.sessionId!),
      sessions.map((e) => (lastSeq?.get(e.tenant) ?? 0) + 1),
    ),
  );
  const out: StoredState = { byId: new Map(), bySource: new Map(), sessions: new Map() };
  for (const r of rows) {
    if (r.what === 'id') out.byId.set(key(r.tenant, r.id!), { seq: num(r.seq!), hash: r.content_hash });
    else if (r.what === 'context') out.sessions.set(sessionKey(r.tenant, r.session_id!), r.content);
    else {
      const k = key(r.tenant, r.source!, r.content_hash!);
      const list = out.bySource.get(k) ?? [];
      list.push({ id: r.id!, seq: num(r.seq!), expiresAt: r.expires_at });
      out.bySource.set(k, list);
    }
  }
  for (const list of out.bySource.values()) list.sort((a, b) => a.seq - b.seq);
  return out;
}

/**
 * Appends a batch in one transaction: events, their content rows and their docs, or nothing at all. The
 * tenants' state rows are locked first (sorted), which serialises each tenant's appenders, so the seqs
 * read from them stay unique across connections and processes.
 * An event whose id, or whose (tenant, source, content hash), already exists — earlier in this batch too,
 * and still alive when the new one was recorded — is not written and reports `duplicateOf`.
 */
export async function appendEvents(ctx: PgContext, events: readonly NewEvent[]): Promise<AppendResult[]> {
  assertEventBatch(events);
  if (events.length === 0) return [];
  return ctx.db.tx('appendEvents', async (tx) => {
    const lastSeq = await tx.lockTenants(events.map((e) => e.tenant));
    const { byId, bySource, sessions } = await storedState(tx, events, lastSeq);
    const results: AppendResult[] = [];
    const fresh: NewEvent[] = [];
    const seqs: number[] = [];
    for (const [i, e] of events.entries()) {
      const stored = byId.get(key(e.tenant, e.id));
      if (stored) {
        if (stored.hash !== e.contentHash) {
          throw new EngramError('CONFLICT', `events.${i}.id ${e.id} is already stored with other content`, {
            issues: [{ path: `events.${i}.id`, message: 'id exists with different content' }],
          });
        }
        results.push({ id: e.id, seq: stored.seq, duplicateOf: e.id });
        continue;
      }
      if (e.source !== undefined) {
        const originals = bySource.get(key(e.tenant, e.source, e.contentHash)) ?? [];
        const dup = originals.find((o) => o.expiresAt === null || o.expiresAt > e.recordedAt);
        if (dup) {
          results.push({ id: e.id, seq: dup.seq, duplicateOf: dup.id });
          continue;
        }
      }
      const seq = lastSeq.get(e.tenant)! + 1;
      lastSeq.set(e.tenant, seq);
      tx.setLastSeq(e.tenant, seq);
      if (e.source !== undefined) {
        const k = key(e.tenant, e.source, e.contentHash);
        bySource.set(k, [...(bySource.get(k) ?? []), { id: e.id, seq, expiresAt: e.expiresAt ?? null }]);
      }
      fresh.push(e);
      seqs.push(seq);
      results.push({ id: e.id, seq });
    }
    if (fresh.length > 0) await insertEvents(ctx, tx, fresh, seqs, sessions);
    return results;
  });
}

async function insertEvents(ctx: PgContext, tx: Tx, events: readonly NewEvent[], seqs: readonly number[], sessions?: ReadonlyMap<string, string | null>): Promise<void> {
  const col = <T>(f: (e: NewEvent) => T): T[] => events.map(f);
  const contexts = await batchContexts(tx, events, seqs, sessions);
  // The events, their contents and their docs in one statement.
  const records = sql(
      `WITH ins AS (
         INSERT INTO engram.events (tenant, id, seq, ts, recorded_at, type, actor, user_id, agent_id, session_id, task_id,
           state_label, importance, source, expires_at)
         SELECT * FROM unnest(?::text[], ?::text[], ?::bigint[], ?::float8[], ?::float8[], ?::text[], ?::text[], ?::text[],
           ?::text[], ?::text[], ?::text[], ?::text[], ?::float8[], ?::text[], ?::float8[])
         RETURNING pk, tenant, id
       ),
       contents AS (
       INSERT INTO engram.event_contents (event_pk, tenant, name, content, tool, args, result, tags, metadata, content_hash, pii)
       SELECT ins.pk, u.tenant, u.name, u.content, u.tool, u.args, u.result, u.tags, u.metadata, u.content_hash, u.pii
       FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[],
         ?::text[]) AS u(tenant, id, name, content, tool, args, result, tags, metadata, content_hash, pii)
       JOIN ins ON ins.tenant = u.tenant AND ins.id = u.id)`,
      col((e) => e.tenant), col((e) => e.id), [...seqs], col((e) => e.ts), col((e) => e.recordedAt), col((e) => e.type),
      col((e) => e.actor), col((e) => toNull(e.userId)), col((e) => toNull(e.agentId)), col((e) => toNull(e.sessionId)),
      col((e) => toNull(e.taskId)), col((e) => toNull(e.stateLabel)), col((e) => e.importance), col((e) => toNull(e.source)),
      col((e) => toNull(e.expiresAt)),
      col((e) => e.tenant), col((e) => e.id), col((e) => toNull(e.name)), col((e) => e.content), col((e) => toNull(e.tool)),
      col((e) => jsonOrNull(e.args)), col((e) => jsonOrNull(e.result)), col((e) => JSON.stringify(e.tags)),
      col((e) => JSON.stringify(e.metadata)), col((e) => e.contentHash), col((e) => JSON.stringify(e.pii)),
  );
  await insertDocs(ctx, tx, events.map(eventToDoc), contexts, records);
}

/**
 * Restores backup events in one transaction, in seq order: each with its own seq, its content row and doc (the
 * lexical context derived as on append) or, when redacted, its tombstone; the tenant's last seq moves past the
 * largest one. An id already stored is left alone; a seq held by another id is a CONFLICT (unique index).
 */
export async function restoreEvents(ctx: PgContext, events: readonly BackupEvent[]): Promise<RestoreReport> {
  const sorted = validateBackupEvents(events);
  return ctx.db.tx('restoreEvents', async (tx) => {
    await tx.lockTenants(sorted.map((e) => e.tenant));
    const { byId } = await storedState(tx, sorted);
    const report: RestoreReport = { written: 0, existing: 0, kept: 0 };
    const fresh: BackupEvent[] = [];
    for (const e of sorted) {
      const found = byId.get(key(e.tenant, e.id));
      const state = storedEventState(found && { seq: found.seq, content_hash: found.hash }, e);
      if (state) {
        report[state]++;
        continue;
      }
      tx.setLastSeq(e.tenant, e.seq);
      report.written++;
      if (!e.redaction) {
        fresh.push(e);
        continue;
      }
      const row = await tx.one<{ pk: string | number }>(
        sql(
          `INSERT INTO engram.events (tenant, id, seq, ts, recorded_at, type, actor, user_id, agent_id, session_id, task_id,
             state_label, importance, source, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING pk`,
          e.tenant, e.id, e.seq, e.ts, e.recordedAt, e.type, e.actor, toNull(e.userId), toNull(e.agentId), toNull(e.sessionId),
          toNull(e.taskId), toNull(e.stateLabel), e.importance, toNull(e.source), toNull(e.expiresAt),
        ),
      );
      await tx.exec(
        sql('INSERT INTO engram.event_redactions (event_pk, tenant, redacted_at, reason) VALUES (?, ?, ?, ?)', row!.pk, e.tenant, e.redaction.at, e.redaction.reason),
      );
    }
    if (fresh.length > 0) await insertEvents(ctx, tx, fresh, fresh.map((e) => e.seq));
    return report;
  });
}

/** Events by id in the order asked (unknown or other tenants' ids are skipped); expired ones included. */
export async function getEvents(ctx: PgContext, tenant: string, ids: readonly string[]): Promise<MemoryEvent[]> {
  if (ids.length === 0) return [];
  const rows = await ctx.db.rows<EventRow>(sql(`${SELECT_EVENTS} WHERE e.tenant = ? AND e.id = ANY(?::text[])`, tenant, ids));
  const byId = new Map(rows.map((r) => [r.id, rowToEvent(r)]));
  return ids.map((id) => byId.get(id)).filter((e): e is MemoryEvent => e !== undefined);
}

/** Timeline queries (sql/timeline-query.ts). */
export async function queryEvents(ctx: PgContext, q: EventQuery): Promise<MemoryEvent[]> {
  const { statement, newestFirst } = timelineSql(POSTGRES_DIALECT, q, SELECT_EVENTS, 'engram.docs');
  const events = (await ctx.db.rows<EventRow>(statement)).map(rowToEvent);
  return newestFirst ? events.reverse() : events;
}

