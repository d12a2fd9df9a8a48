/** Facts: one row per version, at most one live version per key, docs only for live versions. */
import { POSTGRES_DIALECT } from './dialect.js';
import { factToDoc } from '../../../core/docs.js';
import { EngramError } from '../../../core/errors.js';
import type { Fact } from '../../../core/types.js';
import type { FactVersionQuery, ScopeFilter } from '../../../ports/storage.js';
import { assertFact, assertFactStats } from '../sql/validate-input.js';
import type { PgContext } from './context.js';
import type { Tx } from './db.js';
import { deleteDocsOf, insertDocs } from './doc-store.js';
import { FACT_COLUMNS, factParams, rowToFact, type FactRow } from '../sql/rows.js';
import { allOf, exactScopeSql, notExpiredSql, scopeSql, sql } from './sql.js';

const INSERT_FACT = `INSERT INTO engram.facts (${FACT_COLUMNS.join(', ')}) VALUES (${FACT_COLUMNS.map(() => '?').join(', ')})`;
const LIVE = 'f.expired_at IS NULL';

/**
 * Inserts a version, with the checks of the SQLite adapter, in this order:
 * 1. a live version of the key with the same content hash → nothing written, that version returned;
 * 2. `supersedes` names a live version of the same key (NOT_FOUND / VALIDATION / CONFLICT otherwise),
 *    `version` must be its version + 1; it is closed (`expiredAt` = new `recordedAt`, `validTo` = new
 *    `validFrom ?? recordedAt` when unset) and its doc leaves the projection;
 * 3. without `supersedes`, a live unexpired version of the key is a CONFLICT; a live version whose TTL
 *    passed is closed and linked (the stored fact gets `supersedes` and the next version number).
 * The tenant's state row is locked first, so concurrent revisions of one key apply one after the other.
 */
export async function putFact(ctx: PgContext, input: Fact): Promise<{ fact: Fact; duplicate: boolean }> {
  assertFact(input);
  return ctx.db.tx('putFact', async (tx) => {
    await tx.lockTenants([input.tenant]);
    const live = await tx.one<FactRow>(sql(`SELECT * FROM engram.facts f WHERE f.tenant = ? AND f.key = ? AND ${LIVE}`, input.tenant, input.key));
    const liveExpired = live !== undefined && live.expires_at !== null && live.expires_at <= input.recordedAt;
    if (live && !liveExpired && live.content_hash === input.contentHash) return { fact: rowToFact(live), duplicate: true };

    let fact = input;
    if (input.supersedes !== undefined) {
      await closeVersion(tx, await superseded(tx, input), input);
    } else if (live && !liveExpired) {
      throw new EngramError('CONFLICT', `fact key ${input.key} already has a live version ${live.id}; set supersedes to revise it`, {
        issues: [{ path: 'fact.supersedes', message: `live version ${live.id} exists` }],
        details: { liveId: live.id },
      });
    } else if (live) {
      fact = { ...input, supersedes: live.id, version: live.version + 1 };
      await closeVersion(tx, live, fact);
    }
    await tx.exec(sql(INSERT_FACT, ...factParams(fact, POSTGRES_DIALECT)));
    await insertDocs(ctx, tx, [factToDoc(fact)]);
    return { fact, duplicate: false };
  });
}

async function superseded(tx: Tx, f: Fact): Promise<FactRow> {
  const old = await tx.one<FactRow>(sql('SELECT * FROM engram.facts WHERE tenant = ? AND id = ?', f.tenant, f.supersedes!));
  const fail = (code: 'NOT_FOUND' | 'VALIDATION' | 'CONFLICT', message: string, path = 'fact.supersedes'): never => {
    throw new EngramError(code, message, { issues: [{ path, message }] });
  };
  if (!old) return fail('NOT_FOUND', `fact ${f.supersedes} (supersedes) does not exist`);
  if (old.key !== f.key) return fail('VALIDATION', `fact ${f.supersedes} belongs to key ${old.key}, not ${f.key}`);
  if (old.expired_at !== null) return fail('CONFLICT', `fact ${old.id} was already superseded`);
  if (f.version !== old.version + 1) return fail('VALIDATION', `version must be ${old.version + 1} (superseding version ${old.version})`, 'fact.version');
  return old;
}

async function closeVersion(tx: Tx, old: FactRow, next: Fact): Promise<void> {
  await tx.exec(
    sql(
      'UPDATE engram.facts SET expired_at = ?, valid_to = COALESCE(valid_to, ?) WHERE tenant = ? AND pk = ?',
      next.recordedAt,
      next.validFrom ?? next.recordedAt,
      old.tenant,
      old.pk,
    ),
  );
  await deleteDocsOf(tx, old.tenant, 'fact', [old.id]);
}

export async function getFact(ctx: PgContext, tenant: string, id: string): Promise<Fact | undefined> {
  const r = await ctx.db.one<FactRow>(sql('SELECT * FROM engram.facts WHERE tenant = ? AND id = ?', tenant, id));
  return r && rowToFact(r);
}

export async function getLiveFact(ctx: PgContext, tenant: string, key: string, now: number): Promise<Fact | undefined> {
  const r = await ctx.db.one<FactRow>(
    sql(`SELECT * FROM engram.facts f WHERE f.tenant = ? AND f.key = ? AND ${LIVE} AND (f.expires_at IS NULL OR f.expires_at > ?)`, tenant, key, now),
  );
  return r && rowToFact(r);
}

export async function getFactVersions(ctx: PgContext, q: FactVersionQuery): Promise<Fact[]> {
  const rows = await ctx.db.rows<FactRow>(sql('SELECT * FROM engram.facts WHERE tenant = ? AND key = ? ORDER BY version, pk', q.tenant, q.key));
  return rows.map(rowToFact);
}

/** "The same scope" is exact: every scope field, given or not, must equal the fact's. */
export async function findFactByHash(
  ctx: PgContext,
  tenant: string,
  scope: ScopeFilter,
  source: string | undefined,
  contentHash: string,
  now: number,
): Promise<Fact | undefined> {
  const where = allOf([
    sql('f.tenant = ? AND f.content_hash = ? AND f.source IS NOT DISTINCT FROM ?::text', tenant, contentHash, source ?? null),
    ...exactScopeSql(scope, 'f'),
    sql(LIVE),
    notExpiredSql('f', now),
  ]);
  const r = await ctx.db.one<FactRow>({ text: `SELECT * FROM engram.facts f WHERE ${where.text} ORDER BY f.pk LIMIT 1`, params: where.params });
  return r && rowToFact(r);
}

/** Evidence counters change in place (the text never does); a live version's doc follows its confidence. */
export async function updateFactStats(
  ctx: PgContext,
  tenant: string,
  id: string,
  stats: Pick<Fact, 'confidence' | 'supportCount' | 'contradictCount'>,
): Promise<void> {
  assertFactStats(stats);
  await ctx.db.tx('updateFactStats', async (tx) => {
    const changed = await tx.exec(
      sql(
        'UPDATE engram.facts SET confidence = ?, support_count = ?, contradict_count = ? WHERE tenant = ? AND id = ?',
        stats.confidence,
        stats.supportCount,
        stats.contradictCount,
        tenant,
        id,
      ),
    );
    if (changed === 0) throw new EngramError('NOT_FOUND', `no fact ${id}`);
    await tx.exec(sql(`UPDATE engram.docs SET confidence = ? WHERE tenant = ? AND kind = 'fact' AND ref_id = ?`, stats.confidence, tenant, id));
  });
}

/** Oldest first. Without `includeExpired`, only live versions whose TTL has not passed. */
export async function listFacts(
  ctx: PgContext,
  q: { tenant: string; scope?: ScopeFilter; includeExpired?: boolean; limit?: number; now: number },
): Promise<Fact[]> {
  const where = allOf([
    sql('f.tenant = ?', q.tenant),
    ...scopeSql(q.scope, 'f'),
    ...(q.includeExpired ? [] : [sql(LIVE), notExpiredSql('f', q.now)]),
  ]);
  const limit = q.limit === undefined ? undefined : Math.max(0, Math.floor(q.limit));
  const rows = await ctx.db.rows<FactRow>({
    text: `SELECT * FROM engram.facts f WHERE ${where.text} ORDER BY f.recorded_at, f.pk${limit === undefined ? '' : ' LIMIT ?'}`,
    params: [...where.params, ...(limit === undefined ? [] : [limit])],
  });
  return rows.map(rowToFact);
}
