/** Facts: one row per version, at most one live version per key, docs only for live versions. */
import { SQLITE_DIALECT } from './dialect.js';
import { factToDoc } from '../../../core/docs.js';
import { EngramError } from '../../../core/errors.js';
import type { Fact } from '../../../core/types.js';
import type { FactVersionQuery, ScopeFilter } from '../../../ports/storage.js';
import type { StoreContext } from './context.js';
import { deleteDocsOf, insertDoc } from './doc-store.js';
import { FACT_COLUMNS, factParams, insertSql, rowToFact, type FactRow } from '../sql/rows.js';
import { allOf, notExpiredSql, SCOPE_COLUMNS, scopeSql, sql } from './sql.js';
import { assertFact, assertFactStats } from '../sql/validate-input.js';
import { SCOPE_KEYS } from '../../../core/types.js';

const INSERT_FACT = insertSql('facts', FACT_COLUMNS);
const LIVE = 'f.expired_at IS NULL';

/**
 * Inserts a version. Order of checks:
 * 1. a live version of the key with the same content hash → nothing written, that version returned;
 * 2. `supersedes` names a live version of the same key (NOT_FOUND / VALIDATION / CONFLICT otherwise),
 *    `version` must be its version + 1; it is closed (`expiredAt` = new `recordedAt`, `validTo` = new
 *    `validFrom ?? recordedAt` when unset) and its doc leaves the projection;
 * 3. without `supersedes`, a live unexpired version of the key is a CONFLICT (say which one you revise);
 *    a live version whose TTL passed is closed and linked: the stored fact gets `supersedes` and
 *    `version` = its version + 1 (the returned fact shows what was stored).
 */
export function putFact(ctx: StoreContext, input: Fact): { fact: Fact; duplicate: boolean } {
  assertFact(input);
  return ctx.write(() => {
    const live = ctx.stmts.get(`SELECT * FROM facts f WHERE f.tenant = ? AND f.key = ? AND ${LIVE}`).get(input.tenant, input.key) as
      | FactRow
      | undefined;
    const liveExpired = live !== undefined && live.expires_at !== null && live.expires_at <= input.recordedAt;
    if (live && !liveExpired && live.content_hash === input.contentHash) return { fact: rowToFact(live), duplicate: true };

    let fact = input;
    if (input.supersedes !== undefined) {
      closeVersion(ctx, superseded(ctx, input), input);
    } else if (live && !liveExpired) {
      throw new EngramError('CONFLICT', `fact key ${input.key} already has a live version ${live.id}; set supersedes to revise it`, {
        issues: [{ path: 'fact.supersedes', message: `live version ${live.id} exists` }],
        details: { liveId: live.id },
      });
    } else if (live) {
      fact = { ...input, supersedes: live.id, version: live.version + 1 };
      closeVersion(ctx, live, fact);
    }
    ctx.stmts.get(INSERT_FACT).run(...factParams(fact, SQLITE_DIALECT));
    insertDoc(ctx, factToDoc(fact));
    return { fact, duplicate: false };
  });
}

function superseded(ctx: StoreContext, f: Fact): FactRow {
  const old = ctx.stmts.get('SELECT * FROM facts WHERE tenant = ? AND id = ?').get(f.tenant, f.supersedes) as FactRow | undefined;
  const fail = (code: 'NOT_FOUND' | 'VALIDATION' | 'CONFLICT', message: string, path = 'fact.supersedes') => {
    throw new EngramError(code, message, { issues: [{ path, message }] });
  };
  if (!old) return fail('NOT_FOUND', `fact ${f.supersedes} (supersedes) does not exist`);
  if (old.key !== f.key) return fail('VALIDATION', `fact ${f.supersedes} belongs to key ${old.key}, not ${f.key}`);
  if (old.expired_at !== null) return fail('CONFLICT', `fact ${old.id} was already superseded`);
  if (f.version !== old.version + 1) return fail('VALIDATION', `version must be ${old.version + 1} (superseding version ${old.version})`, 'fact.version');
  return old;
}

function closeVersion(ctx: StoreContext, old: FactRow, next: Fact): void {
  ctx.stmts
    .get('UPDATE facts SET expired_at = ?, valid_to = COALESCE(valid_to, ?) WHERE tenant = ? AND pk = ?')
    .run(next.recordedAt, next.validFrom ?? next.recordedAt, old.tenant, old.pk);
  deleteDocsOf(ctx, old.tenant, 'fact', [old.id]);
}

export function getFact(ctx: StoreContext, tenant: string, id: string): Fact | undefined {
  const r = ctx.stmts.get('SELECT * FROM facts WHERE tenant = ? AND id = ?').get(tenant, id) as FactRow | undefined;
  return r && rowToFact(r);
}

export function getLiveFact(ctx: StoreContext, tenant: string, key: string, now: number): Fact | undefined {
  const r = ctx.stmts
    .get(`SELECT * FROM facts f WHERE f.tenant = ? AND f.key = ? AND ${LIVE} AND (f.expires_at IS NULL OR f.expires_at > ?)`)
    .get(tenant, key, now) as FactRow | undefined;
  return r && rowToFact(r);
}

export function getFactVersions(ctx: StoreContext, q: FactVersionQuery): Fact[] {
  const rows = ctx.stmts.get('SELECT * FROM facts WHERE tenant = ? AND key = ? ORDER BY version, pk').all(q.tenant, q.key) as FactRow[];
  return rows.map(rowToFact);
}

/**
 * "The same scope" is exact here: every scope field, given or not, must equal the fact's (an absent
 * field matches only an absent one), since dedupe must not merge a user's fact into a shared one.
 */
export function findFactByHash(
  ctx: StoreContext,
  tenant: string,
  scope: ScopeFilter,
  source: string | undefined,
  contentHash: string,
  now: number,
): Fact | undefined {
  const scopeCols = SCOPE_KEYS.map((k) => `f.${SCOPE_COLUMNS[k]} IS ?`).join(' AND ');
  const r = ctx.stmts
    .get(
      `SELECT * FROM facts f WHERE f.tenant = ? AND f.content_hash = ? AND f.source IS ? AND ${scopeCols}
       AND ${LIVE} AND (f.expires_at IS NULL OR f.expires_at > ?) ORDER BY f.pk LIMIT 1`,
    )
    .get(tenant, contentHash, source ?? null, ...SCOPE_KEYS.map((k) => scope[k] ?? null), now) as FactRow | undefined;
  return r && rowToFact(r);
}

/** Evidence counters change in place (the text never does); a live version's doc follows its confidence. */
export function updateFactStats(
  ctx: StoreContext,
  tenant: string,
  id: string,
  stats: Pick<Fact, 'confidence' | 'supportCount' | 'contradictCount'>,
): void {
  assertFactStats(stats);
  ctx.write(() => {
    const changed = ctx.stmts
      .get('UPDATE facts SET confidence = ?, support_count = ?, contradict_count = ? WHERE tenant = ? AND id = ?')
      .run(stats.confidence, stats.supportCount, stats.contradictCount, tenant, id).changes;
    if (changed === 0) throw new EngramError('NOT_FOUND', `no fact ${id}`);
    ctx.stmts.get(`UPDATE docs SET confidence = ? WHERE tenant = ? AND kind = 'fact' AND ref_id = ?`).run(stats.confidence, tenant, id);
  });
}

/** Oldest first. Without `includeExpired`, only live versions whose TTL has not passed. */
export function listFacts(
  ctx: StoreContext,
  q: { tenant: string; scope?: ScopeFilter; includeExpired?: boolean; limit?: number; now: number },
): Fact[] {
  const where = allOf([
    sql('f.tenant = ?', q.tenant),
    ...scopeSql(q.scope, 'f'),
    ...(q.includeExpired ? [] : [sql(LIVE), notExpiredSql('f', q.now)]),
  ]);
  const limit = q.limit === undefined ? -1 : Math.max(0, Math.floor(q.limit));
  const rows = ctx.stmts.get(`SELECT * FROM facts f WHERE ${where.text} ORDER BY f.recorded_at, f.pk LIMIT ?`).all(...where.params, limit) as FactRow[];
  return rows.map(rowToFact);
}
