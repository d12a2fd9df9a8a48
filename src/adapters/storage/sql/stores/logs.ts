/** The retrieval log (what a query handed back) and the audit trail (ids and actions only, never content). */
import { newId } from '../../../../core/ids.js';
import type { AuditCursor, AuditRecord, RetrievalListQuery, RetrievalRecord, RetrievedItem } from '../../../../ports/storage.js';
import { parsed } from '../codec.js';
import type { Dialect } from '../dialect.js';
import { allOf, sql } from '../fragment.js';
import { exec, one, rows, type Step } from '../program.js';

export interface RetrievalRow {
  tenant: string;
  id: string;
  query: string;
  created_at: number;
  item_ids: string | string[];
  config: string;
  items: string | null;
}

export interface AuditRow {
  tenant: string;
  id: string;
  at: number;
  action: string;
  target_ids: string;
  details: string;
}

/** On every getContext; the runner may commit it without an fsync (`relaxed`). */
export function* putRetrieval(d: Dialect, rec: RetrievalRecord): Step<void> {
  yield* exec(
    sql(
      `INSERT INTO engram.retrievals (tenant, id, query, created_at, item_ids, config, items) VALUES (?, ?, ?, ?, ?${d.listCast}, ?, ?)`,
      rec.tenant, rec.id, rec.query, rec.createdAt, d.list(rec.itemIds), JSON.stringify(rec.config ?? null), rec.items ? JSON.stringify(rec.items) : null,
    ),
  );
}

const RETRIEVAL_COLUMNS = 'tenant, id, query, created_at, item_ids, config, items';

export function retrievalOf(r: RetrievalRow): RetrievalRecord {
  const rec: RetrievalRecord = { id: r.id, tenant: r.tenant, query: r.query, createdAt: r.created_at, itemIds: parsed<string[]>(r.item_ids), config: JSON.parse(r.config) as unknown };
  if (r.items !== null && r.items !== undefined) rec.items = JSON.parse(r.items) as RetrievedItem[];
  return rec;
}

export function* getRetrieval(tenant: string, id: string): Step<RetrievalRecord | undefined> {
  const r = yield* one<RetrievalRow>(sql(`SELECT ${RETRIEVAL_COLUMNS} FROM engram.retrievals WHERE tenant = ? AND id = ?`, tenant, id));
  return r ? retrievalOf(r) : undefined;
}

/** Newest first by id (ids sort in creation order), through the (tenant, id) index. */
export function* listRetrievals(q: RetrievalListQuery): Step<RetrievalRecord[]> {
  const where = [
    sql('tenant = ?', q.tenant),
    ...(q.beforeId !== undefined ? [sql('id < ?', q.beforeId)] : []),
    ...(q.since !== undefined ? [sql('created_at >= ?', q.since)] : []),
    ...(q.until !== undefined ? [sql('created_at < ?', q.until)] : []),
  ];
  const cond = allOf(where);
  const found = yield* rows<RetrievalRow>(
    sql(`SELECT ${RETRIEVAL_COLUMNS} FROM engram.retrievals WHERE ${cond.text} ORDER BY id DESC LIMIT ?`, ...cond.params, Math.max(0, Math.floor(q.limit))),
  );
  return found.map(retrievalOf);
}

/** A stored row as a record (backup lists them too). */
export const rowToRetrieval = retrievalOf;

export function rowToAudit(r: AuditRow): AuditRecord {
  return {
    id: r.id,
    tenant: r.tenant,
    at: r.at,
    action: r.action as AuditRecord['action'],
    targetIds: JSON.parse(r.target_ids) as string[],
    details: JSON.parse(r.details) as Record<string, unknown>,
  };
}

/** Inside the caller's write transaction, so the record commits with what it describes. */
export function* writeAudit(rec: Omit<AuditRecord, 'id'>): Step<AuditRecord> {
  const full: AuditRecord = { id: newId('audit', rec.at), ...rec };
  yield* insertAudit(full);
  return full;
}

/** Inserts an audit record as it is (a restored one keeps its id). */
export function* insertAudit(full: AuditRecord): Step<void> {
  yield* exec(
    sql(
      'INSERT INTO engram.audit_log (tenant, id, at, action, target_ids, details) VALUES (?, ?, ?, ?, ?, ?)',
      full.tenant, full.id, full.at, full.action, JSON.stringify(full.targetIds), JSON.stringify(full.details),
    ),
  );
}

/** Newest first (time, then id: ids sort in write order); after `before` (keyset paging) when given. */
export function* listAudit(tenant: string, limit: number, before?: AuditCursor): Step<AuditRecord[]> {
  const n = Math.max(0, Math.floor(limit));
  const found = yield* rows<AuditRow>(
    before
      ? sql(
          'SELECT tenant, id, at, action, target_ids, details FROM engram.audit_log WHERE tenant = ? AND (at < ? OR (at = ? AND id < ?)) ORDER BY at DESC, id DESC LIMIT ?',
          tenant, before.at, before.at, before.id, n,
        )
      : sql('SELECT tenant, id, at, action, target_ids, details FROM engram.audit_log WHERE tenant = ? ORDER BY at DESC, id DESC LIMIT ?', tenant, n),
  );
  return found.map(rowToAudit);
}

/** Retrieval logs that handed out any of these ids (their query text may be about forgotten content). */
export function* deleteRetrievalsMentioning(d: Dialect, tenant: string, ids: readonly string[]): Step<number> {
  if (ids.length === 0) return 0;
  const overlaps = d.listOverlaps('retrievals.item_ids', ids);
  return yield* exec({ text: `DELETE FROM engram.retrievals WHERE tenant = ? AND ${overlaps.text}`, params: [tenant, ...overlaps.params] });
}

export function* deleteAllRetrievals(tenant: string): Step<number> {
  return yield* exec(sql('DELETE FROM engram.retrievals WHERE tenant = ?', tenant));
}
