/** Learned procedures: replaced by id as they are used and revised; always projected (`procedureToDoc`). */
import { procedureToDoc } from '../../../core/docs-learn.js';
import type { Procedure } from '../../../core/types.js';
import type { ProcedureQuery } from '../../../ports/storage.js';
import type { StoreContext } from './context.js';
import { replaceDocOf } from './doc-store.js';
import { insertSql } from '../sql/rows.js';
import { PROCEDURE_COLUMNS, procedureParams, rowToProcedure, type ProcedureRow } from '../sql/rows-learn.js';
import { allOf, scopeSql, sql } from './sql.js';
import { assertProcedure } from '../sql/validate-learn.js';

const UPSERT_PROCEDURE = `${insertSql('procedures', PROCEDURE_COLUMNS)}
  ON CONFLICT (tenant, id) DO UPDATE SET ${PROCEDURE_COLUMNS.filter((c) => c !== 'tenant' && c !== 'id')
    .map((c) => `${c} = excluded.${c}`)
    .join(', ')}`;

export function putProcedure(ctx: StoreContext, p: Procedure): void {
  assertProcedure(p);
  ctx.write(() => {
    ctx.stmts.get(UPSERT_PROCEDURE).run(...procedureParams(p));
    replaceDocOf(ctx, p.tenant, 'procedure', p.id, procedureToDoc(p));
  });
}

/** In the order asked; unknown and other tenants' ids are skipped. */
export function getProcedures(ctx: StoreContext, tenant: string, ids: readonly string[]): Procedure[] {
  if (ids.length === 0) return [];
  const rows = ctx.stmts
    .get('SELECT * FROM procedures WHERE tenant = ? AND id IN (SELECT value FROM json_each(?))')
    .all(tenant, JSON.stringify(ids)) as ProcedureRow[];
  const byId = new Map(rows.map((r) => [r.id, rowToProcedure(r)]));
  return ids.map((id) => byId.get(id)).filter((p): p is Procedure => p !== undefined);
}

/** Oldest first (by creation, then id). */
export function listProcedures(ctx: StoreContext, q: ProcedureQuery): Procedure[] {
  const where = allOf([sql('p.tenant = ?', q.tenant), ...scopeSql(q.scope, 'p')]);
  const limit = q.limit === undefined ? -1 : Math.max(0, Math.floor(q.limit));
  const rows = ctx.stmts
    .get(`SELECT * FROM procedures p WHERE ${where.text} ORDER BY p.created_at, p.id LIMIT ?`)
    .all(...where.params, limit) as ProcedureRow[];
  return rows.map(rowToProcedure);
}
