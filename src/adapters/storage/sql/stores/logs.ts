/** The retrieval log (what a query handed back) and the audit trail (ids and actions only, never content). */
import { newId } from '../../../../core/ids.js';
import type { AuditRecord, RetrievalRecord } from '../../../../ports/storage.js';
import { parsed } from '../codec.js';
import type { Dialect } from '../dialect.js';
import { sql } from '../fragment.js';
import { exec, one, rows, type Step } from '../program.js';

export interface RetrievalRow {
  tenant: string;
  id: string;
  query: string;
  created_at: number;
  item_ids: string | string[];
  config: string;
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
      `INSERT INTO engram.retrievals (tenant, id, query, created_at, item_ids, config) VALUES (?, ?, ?, ?, ?${d.listCast}, ?)`,
      rec.tenant, rec.id, rec.query, rec.createdAt, d.list(rec.itemIds), JSON.stringify(rec.config ?? null),
    ),
  );
}

export function* getRetrieval(tenant: string, id: string): Step<RetrievalRecord | undefined> {
  const r = yield* one<RetrievalRow>(
    sql('SELECT tenant, id, query, created_at, item_ids, config FROM engram.retrievals WHERE tenant = ? AND id = ?', tenant, id),
  );
  return r && rowToRetrieval(r);
}

export function rowToRetrieval(r: RetrievalRow): RetrievalRecord {
  return { id: r.id, tenant: r.tenant, query: r.query, createdAt: r.created_at, itemIds: parsed<string[]>(r.item_ids), config: JSON.parse(r.config) as unknown };
}

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

/** Newest first. */
export function* listAudit(tenant: string, limit: number): Step<AuditRecord[]> {
  const found = yield* rows<AuditRow>(
    sql('SELECT tenant, id, at, action, target_ids, details FROM engram.audit_log WHERE tenant = ? ORDER BY at DESC, pk DESC LIMIT ?', tenant, Math.max(0, Math.floor(limit))),
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
