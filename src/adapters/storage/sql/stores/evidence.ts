/** Evidence for and against fact versions, one judgement per (fact version, episode). */
import { EngramError } from '../../../../core/errors.js';
import type { FactEvidence } from '../../../../core/types.js';
import type { Dialect } from '../dialect.js';
import { anyOf, sql } from '../fragment.js';
import { exec, one, rows, type Step } from '../program.js';
import { rowToEvidence, type EvidenceRow } from '../rows-learn.js';

/** Re-judging an episode against a fact replaces the earlier judgement instead of counting twice. */
const UPSERT_EVIDENCE = `INSERT INTO engram.fact_evidence (tenant, fact_id, episode_id, polarity, weight, at) VALUES (?, ?, ?, ?, ?, ?)
  ON CONFLICT (tenant, fact_id, episode_id) DO UPDATE SET polarity = excluded.polarity, weight = excluded.weight, at = excluded.at`;

/**
 * All rows or none (validated by the caller). Each must name a fact version of its own tenant (NOT_FOUND
 * otherwise), so evidence can neither dangle nor be attached to another tenant's fact. A repeat within the
 * batch: the last one wins.
 */
export function* addFactEvidence(evidence: readonly FactEvidence[]): Step<void> {
  for (const [i, r] of evidence.entries()) {
    const exists = yield* one(sql('SELECT 1 FROM engram.facts WHERE tenant = ? AND id = ?', r.tenant, r.factId));
    if (!exists) {
      throw new EngramError('NOT_FOUND', `evidence.${i}.factId: no fact ${r.factId}`, {
        issues: [{ path: `evidence.${i}.factId`, message: 'no such fact in this tenant' }],
      });
    }
  }
  for (const r of evidence) yield* exec(sql(UPSERT_EVIDENCE, r.tenant, r.factId, r.episodeId, r.polarity, r.weight, r.at));
}

/** Oldest first. */
export function* getFactEvidence(d: Dialect, tenant: string, factId: string): Step<FactEvidence[]> {
  const found = yield* rows<EvidenceRow>(
    sql(`SELECT * FROM engram.fact_evidence WHERE tenant = ? AND fact_id = ? ORDER BY at, episode_id${d.byteOrder}`, tenant, factId),
  );
  return found.map(rowToEvidence);
}

/** Evidence for any of `factIds` or from any of `episodeIds`; inside the caller's write transaction. */
export function* deleteEvidenceNaming(d: Dialect, tenant: string, factIds: readonly string[], episodeIds: readonly string[]): Step<number> {
  if (factIds.length + episodeIds.length === 0) return 0;
  const naming = anyOf([...d.inList('fact_id', factIds), ...d.inList('episode_id', episodeIds)]);
  return yield* exec({ text: `DELETE FROM engram.fact_evidence WHERE tenant = ? AND (${naming.text})`, params: [tenant, ...naming.params] });
}
