/** The retrieval log (what a query handed back) and the audit trail (ids and actions only, never content). */
import { newId } from '../../../core/ids.js';
import type { AuditRecord, RetrievalRecord } from '../../../ports/storage.js';
import type { PgContext } from './context.js';
import type { Tx } from './db.js';
import { sql } from './sql.js';

export async function putRetrieval(ctx: PgContext, rec: RetrievalRecord): Promise<void> {
  const config = JSON.stringify(rec.config ?? null);
  await ctx.db.tx('putRetrieval', (tx) =>
    tx.exec(
      sql(
        'INSERT INTO engram.retrievals (tenant, id, query, created_at, item_ids, config) VALUES (?, ?, ?, ?, ?::text[], ?)',
        rec.tenant, rec.id, rec.query, rec.createdAt, rec.itemIds, config,
      ),
    ),
  );
}

export async function getRetrieval(ctx: PgContext, tenant: string, id: string): Promise<RetrievalRecord | undefined> {
  const r = await ctx.db.one<{ tenant: string; id: string; query: string; created_at: number; item_ids: string[]; config: string }>(
    sql('SELECT tenant, id, query, created_at, item_ids, config FROM engram.retrievals WHERE tenant = ? AND id = ?', tenant, id),
  );
  if (!r) return undefined;
  return { id: r.id, tenant: r.tenant, query: r.query, createdAt: r.created_at, itemIds: r.item_ids, config: JSON.parse(r.config) as unknown };
}

/** Must run inside the caller's write transaction, so the record commits with what it describes. */
export async function writeAudit(tx: Tx, rec: Omit<AuditRecord, 'id'>): Promise<AuditRecord> {
  const full: AuditRecord = { id: newId('audit', rec.at), ...rec };
  await tx.exec(
    sql(
      'INSERT INTO engram.audit_log (tenant, id, at, action, target_ids, details) VALUES (?, ?, ?, ?, ?, ?)',
      full.tenant, full.id, full.at, full.action, JSON.stringify(full.targetIds), JSON.stringify(full.details),
    ),
  );
  return full;
}

/** Newest first. */
export async function listAudit(ctx: PgContext, tenant: string, limit: number): Promise<AuditRecord[]> {
  const rows = await ctx.db.rows<{ tenant: string; id: string; at: number; action: string; target_ids: string; details: string }>(
    sql('SELECT tenant, id, at, action, target_ids, details FROM engram.audit_log WHERE tenant = ? ORDER BY at DESC, pk DESC LIMIT ?', tenant, Math.max(0, Math.floor(limit))),
  );
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
export function deleteRetrievalsMentioning(tx: Tx, tenant: string, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return Promise.resolve(0);
  return tx.exec(sql('DELETE FROM engram.retrievals WHERE tenant = ? AND item_ids && ?::text[]', tenant, ids));
}

export function deleteAllRetrievals(tx: Tx, tenant: string): Promise<number> {
  return tx.exec(sql('DELETE FROM engram.retrievals WHERE tenant = ?', tenant));
}
