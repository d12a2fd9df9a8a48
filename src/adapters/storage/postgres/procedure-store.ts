/** Learned procedures: replaced by id as they are used and revised; always projected (`procedureToDoc`). */
import { procedureToDoc } from '../../../core/docs-learn.js';
import type { Procedure } from '../../../core/types.js';
import type { ProcedureQuery } from '../../../ports/storage.js';
import { PROCEDURE_COLUMNS, procedureParams, rowToProcedure, type ProcedureRow } from '../sql/rows-learn.js';
import { assertProcedure } from '../sql/validate-learn.js';
import type { PgContext } from './context.js';
import { replaceDocOf } from './doc-store.js';
import { allOf, scopeSql, sql } from './sql.js';
import { upsertSql } from './upsert.js';

const UPSERT_PROCEDURE = upsertSql('procedures', PROCEDURE_COLUMNS, ['tenant', 'id']);

export async function putProcedure(ctx: PgContext, p: Procedure): Promise<void> {
  assertProcedure(p);
  await ctx.db.tx('putProcedure', async (tx) => {
    await tx.lockTenants([p.tenant]);
    await tx.exec(sql(UPSERT_PROCEDURE, ...procedureParams(p)));
    await replaceDocOf(ctx, tx, p.tenant, 'procedure', p.id, procedureToDoc(p));
  });
}

/** In the order asked; unknown and other tenants' ids are skipped. */
export async function getProcedures(ctx: PgContext, tenant: string, ids: readonly string[]): Promise<Procedure[]> {
  if (ids.length === 0) return [];
  const rows = await ctx.db.rows<ProcedureRow>(sql('SELECT * FROM engram.procedures WHERE tenant = ? AND id = ANY(?::text[])', tenant, ids));
  const byId = new Map(rows.map((r) => [r.id, rowToProcedure(r)]));
  return ids.map((id) => byId.get(id)).filter((p): p is Procedure => p !== undefined);
}

/** Oldest first (by creation, then id). */
export async function listProcedures(ctx: PgContext, q: ProcedureQuery): Promise<Procedure[]> {
  const where = allOf([sql('p.tenant = ?', q.tenant), ...scopeSql(q.scope, 'p')]);
  const limit = q.limit === undefined ? undefined : Math.max(0, Math.floor(q.limit));
  const rows = await ctx.db.rows<ProcedureRow>({
    text: `SELECT * FROM engram.procedures p WHERE ${where.text} ORDER BY p.created_at, p.id COLLATE "C"${limit === undefined ? '' : ' LIMIT ?'}`,
    params: [...where.params, ...(limit === undefined ? [] : [limit])],
  });
  return rows.map(rowToProcedure);
}
