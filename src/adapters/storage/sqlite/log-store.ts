/** The retrieval log (what a query handed back) and the audit trail (ids and actions only, never content). */
import { newId } from '../../../core/ids.js';
import type { AuditRecord, RetrievalRecord } from '../../../ports/storage.js';
import type { StoreContext } from './context.js';

export function putRetrieval(ctx: StoreContext, rec: RetrievalRecord): void {
  const config = JSON.stringify(rec.config ?? null);
  // On every getContext: no fsync on the read path (see writeRelaxed).
  ctx.writeRelaxed(() => {
    ctx.stmts
      .get('INSERT INTO retrievals (tenant, id, query, created_at, item_ids, config) VALUES (?, ?, ?, ?, ?, ?)')
      .run(rec.tenant, rec.id, rec.query, rec.createdAt, JSON.stringify(rec.itemIds), config);
  });
}

export function getRetrieval(ctx: StoreContext, tenant: string, id: string): RetrievalRecord | undefined {
  const r = ctx.stmts.get('SELECT * FROM retrievals WHERE tenant = ? AND id = ?').get(tenant, id) as
    | { tenant: string; id: string; query: string; created_at: number; item_ids: string; config: string }
    | undefined;
  if (!r) return undefined;
  return {
    id: r.id,
    tenant: r.tenant,
    query: r.query,
    createdAt: r.created_at,
    itemIds: JSON.parse(r.item_ids) as string[],
    config: JSON.parse(r.config) as unknown,
  };
}

/** Must run inside the caller's write transaction, so the record commits with what it describes. */
export function writeAudit(ctx: StoreContext, rec: Omit<AuditRecord, 'id'>): AuditRecord {
  const full: AuditRecord = { id: newId('audit', rec.at), ...rec };
  ctx.stmts
    .get('INSERT INTO audit_log (tenant, id, at, action, target_ids, details) VALUES (?, ?, ?, ?, ?, ?)')
    .run(full.tenant, full.id, full.at, full.action, JSON.stringify(full.targetIds), JSON.stringify(full.details));
  return full;
}

/** Newest first. */
export function listAudit(ctx: StoreContext, tenant: string, limit: number): AuditRecord[] {
  const rows = ctx.stmts
    .get('SELECT * FROM audit_log WHERE tenant = ? ORDER BY at DESC, pk DESC LIMIT ?')
    .all(tenant, Math.max(0, Math.floor(limit))) as { tenant: string; id: string; at: number; action: string; target_ids: string; details: string }[];
  return rows.map((r) => ({
    id: r.id,
    tenant: r.tenant,
    at: r.at,
    action: r.action as AuditRecord['action'],
    targetIds: JSON.parse(r.target_ids) as string[],
    details: JSON.parse(r.details) as Record<string, unknown>,
  }));
}

/** Retrieval logs that handed out any of these ids (their query text may be about forgotten content). */
export function deleteRetrievalsMentioning(ctx: StoreContext, tenant: string, ids: readonly string[]): number {
  if (ids.length === 0) return 0;
  return ctx.stmts
    .get(
      `DELETE FROM retrievals WHERE tenant = ? AND EXISTS (
         SELECT 1 FROM json_each(retrievals.item_ids) AS item WHERE item.value IN (SELECT value FROM json_each(?)))`,
    )
    .run(tenant, JSON.stringify(ids)).changes;
}

export function deleteAllRetrievals(ctx: StoreContext, tenant: string): number {
  return ctx.stmts.get('DELETE FROM retrievals WHERE tenant = ?').run(tenant).changes;
}
