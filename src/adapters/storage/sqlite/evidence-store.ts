/** Evidence for and against fact versions, one judgement per (fact version, episode). */
import { EngramError } from '../../../core/errors.js';
import type { FactEvidence } from '../../../core/types.js';
import type { StoreContext } from './context.js';
import { rowToEvidence, type EvidenceRow } from '../sql/rows-learn.js';
import { assertEvidence } from '../sql/validate-learn.js';

/** Re-judging an episode against a fact replaces the earlier judgement instead of counting twice. */
const UPSERT_EVIDENCE = `INSERT INTO fact_evidence (tenant, fact_id, episode_id, polarity, weight, at) VALUES (?, ?, ?, ?, ?, ?)
  ON CONFLICT (tenant, fact_id, episode_id) DO UPDATE SET polarity = excluded.polarity, weight = excluded.weight, at = excluded.at`;

/**
 * All rows or none. Each must name a fact version of its own tenant (NOT_FOUND otherwise), so evidence can
 * neither dangle nor be attached to another tenant's fact.
 */
export function addFactEvidence(ctx: StoreContext, rows: readonly FactEvidence[]): void {
  assertEvidence(rows);
  if (rows.length === 0) return;
  ctx.write(() => {
    rows.forEach((r, i) => {
      const exists = ctx.stmts.get('SELECT 1 FROM facts WHERE tenant = ? AND id = ?').get(r.tenant, r.factId);
      if (!exists) {
        throw new EngramError('NOT_FOUND', `evidence.${i}.factId: no fact ${r.factId}`, {
          issues: [{ path: `evidence.${i}.factId`, message: 'no such fact in this tenant' }],
        });
      }
      ctx.stmts.get(UPSERT_EVIDENCE).run(r.tenant, r.factId, r.episodeId, r.polarity, r.weight, r.at);
    });
  });
}

/** Oldest first. */
export function getFactEvidence(ctx: StoreContext, tenant: string, factId: string): FactEvidence[] {
  const rows = ctx.stmts
    .get('SELECT * FROM fact_evidence WHERE tenant = ? AND fact_id = ? ORDER BY at, episode_id')
    .all(tenant, factId) as EvidenceRow[];
  return rows.map(rowToEvidence);
}

/** Evidence for any of `factIds` or from any of `episodeIds`; for callers inside a write transaction. */
export function deleteEvidenceNaming(ctx: StoreContext, tenant: string, factIds: readonly string[], episodeIds: readonly string[]): number {
  if (factIds.length + episodeIds.length === 0) return 0;
  return ctx.stmts
    .get(
      `DELETE FROM fact_evidence WHERE tenant = ? AND (fact_id IN (SELECT value FROM json_each(?))
         OR episode_id IN (SELECT value FROM json_each(?)))`,
    )
    .run(tenant, JSON.stringify(factIds), JSON.stringify(episodeIds)).changes;
}
