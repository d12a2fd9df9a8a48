/** Evidence for and against fact versions, one judgement per (fact version, episode). */
import { EngramError } from '../../../core/errors.js';
import type { FactEvidence } from '../../../core/types.js';
import { rowToEvidence, type EvidenceRow } from '../sql/rows-learn.js';
import { assertEvidence } from '../sql/validate-learn.js';
import type { PgContext } from './context.js';
import { sql } from './sql.js';

/**
 * All rows or none. Each must name a fact version of its own tenant (NOT_FOUND otherwise). Re-judging an
 * episode against a fact replaces the earlier judgement (a repeat within the batch: the last one wins).
 */
export async function addFactEvidence(ctx: PgContext, rows: readonly FactEvidence[]): Promise<void> {
  assertEvidence(rows);
  if (rows.length === 0) return;
  await ctx.db.tx('addFactEvidence', async (tx) => {
    const found = await tx.rows<{ tenant: string; id: string }>(
      sql(
        'SELECT tenant, id FROM engram.facts WHERE (tenant, id) IN (SELECT * FROM unnest(?::text[], ?::text[]))',
        rows.map((r) => r.tenant),
        rows.map((r) => r.factId),
      ),
    );
    const known = new Set(found.map((f) => `${f.tenant}\u0000${f.id}`));
    rows.forEach((r, i) => {
      if (!known.has(`${r.tenant}\u0000${r.factId}`)) {
        throw new EngramError('NOT_FOUND', `evidence.${i}.factId: no fact ${r.factId}`, {
          issues: [{ path: `evidence.${i}.factId`, message: 'no such fact in this tenant' }],
        });
      }
    });
    const last = [...new Map(rows.map((r) => [`${r.tenant}\u0000${r.factId}\u0000${r.episodeId}`, r])).values()];
    await tx.exec(
      sql(
        `INSERT INTO engram.fact_evidence (tenant, fact_id, episode_id, polarity, weight, at)
         SELECT * FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::float8[], ?::float8[])
         ON CONFLICT (tenant, fact_id, episode_id) DO UPDATE SET polarity = excluded.polarity, weight = excluded.weight, at = excluded.at`,
        last.map((r) => r.tenant),
        last.map((r) => r.factId),
        last.map((r) => r.episodeId),
        last.map((r) => r.polarity),
        last.map((r) => r.weight),
        last.map((r) => r.at),
      ),
    );
  });
}

/** Oldest first. */
export async function getFactEvidence(ctx: PgContext, tenant: string, factId: string): Promise<FactEvidence[]> {
  const rows = await ctx.db.rows<EvidenceRow>(
    sql('SELECT * FROM engram.fact_evidence WHERE tenant = ? AND fact_id = ? ORDER BY at, episode_id COLLATE "C"', tenant, factId),
  );
  return rows.map(rowToEvidence);
}
