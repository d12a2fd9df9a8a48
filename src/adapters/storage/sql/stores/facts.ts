/** Facts: one row per version, at most one live version per key, docs only for live versions. */
import { factToDoc } from '../../../../core/docs.js';
import { EngramError } from '../../../../core/errors.js';
import type { Fact } from '../../../../core/types.js';
import type { FactListQuery, FactVersionQuery, ScopeFilter } from '../../../../ports/storage.js';
import type { Dialect } from '../dialect.js';
import { allOf, anyOf, not, notExpiredSql, scopeSql, sql, type Sql } from '../fragment.js';
import { deleteDocs, exec, insertDocs, lockTenants, one, rows, type Step } from '../program.js';
import { FACT_COLUMNS, factParams, insertSql, rowToFact, type FactRow } from '../rows.js';
import { listSql } from './records.js';

const INSERT_FACT = insertSql('facts', FACT_COLUMNS);
const LIVE = 'f.expired_at IS NULL';

/**
 * Inserts a version (validated by the caller). Order of checks:
 * 1. a live version of the key with the same content hash → nothing written, that version returned;
 * 2. `supersedes` names a live version of the same key (NOT_FOUND / VALIDATION / CONFLICT otherwise),
 *    `version` must be its version + 1; it is closed (`expiredAt` = new `recordedAt`, `validTo` = new
 *    `validFrom ?? recordedAt` when unset) and its doc leaves the projection;
 * 3. without `supersedes`, a live unexpired version of the key is a CONFLICT (say which one you revise);
 *    a live version whose TTL passed is closed and linked: the stored fact gets `supersedes` and
 *    `version` = its version + 1 (the returned fact shows what was stored).
 * The tenant's writers are serialised first, so concurrent revisions of one key apply one after the other.
 */
export function* putFact(d: Dialect, input: Fact): Step<{ fact: Fact; duplicate: boolean }> {
  yield* lockTenants([input.tenant]);
  const live = yield* one<FactRow>(sql(`SELECT * FROM engram.facts f WHERE f.tenant = ? AND f.key = ? AND ${LIVE}`, input.tenant, input.key));
  const liveExpired = live !== undefined && live.expires_at !== null && live.expires_at <= input.recordedAt;
  if (live && !liveExpired && live.content_hash === input.contentHash) return { fact: rowToFact(live), duplicate: true };

  let fact = input;
  if (input.supersedes !== undefined) {
    yield* closeVersion(d, yield* superseded(input), input);
  } else if (live && !liveExpired) {
    throw new EngramError('CONFLICT', `fact key ${input.key} already has a live version ${live.id}; set supersedes to revise it`, {
      issues: [{ path: 'fact.supersedes', message: `live version ${live.id} exists` }],
      details: { liveId: live.id },
    });
  } else if (live) {
    fact = { ...input, supersedes: live.id, version: live.version + 1 };
    yield* closeVersion(d, live, fact);
  }
  yield* exec(sql(INSERT_FACT, ...factParams(fact, d)));
  yield* insertDocs([factToDoc(fact)]);
  return { fact, duplicate: false };
}

function* superseded(f: Fact): Step<FactRow> {
  const old = yield* one<FactRow>(sql('SELECT * FROM engram.facts WHERE tenant = ? AND id = ?', f.tenant, f.supersedes!));
  const fail = (code: 'NOT_FOUND' | 'VALIDATION' | 'CONFLICT', message: string, path = 'fact.supersedes'): never => {
    throw new EngramError(code, message, { issues: [{ path, message }] });
  };
  if (!old) return fail('NOT_FOUND', `fact ${f.supersedes} (supersedes) does not exist`);
  if (old.key !== f.key) return fail('VALIDATION', `fact ${f.supersedes} belongs to key ${old.key}, not ${f.key}`);
  if (old.expired_at !== null) return fail('CONFLICT', `fact ${old.id} was already superseded`);
  if (f.version !== old.version + 1) return fail('VALIDATION', `version must be ${old.version + 1} (superseding version ${old.version})`, 'fact.version');
  return old;
}

/** Closes `old` as superseded by `next` (expiredAt, validTo when unset) and takes its doc out of the projection. */
export function* closeVersion(d: Dialect, old: FactRow, next: Fact): Step<void> {
  yield* exec(
    sql(
      'UPDATE engram.facts SET expired_at = ?, valid_to = COALESCE(valid_to, ?) WHERE tenant = ? AND pk = ?',
      next.recordedAt,
      next.validFrom ?? next.recordedAt,
      old.tenant,
      old.pk,
    ),
  );
  yield* deleteDocs(old.tenant, allOf([sql("d.kind = 'fact'"), ...d.inList('d.ref_id', [old.id])]));
}

export function* getFact(tenant: string, id: string): Step<Fact | undefined> {
  const r = yield* one<FactRow>(sql('SELECT * FROM engram.facts WHERE tenant = ? AND id = ?', tenant, id));
  return r && rowToFact(r);
}

/** Versions by id, in the order asked, skipping ids that are not this tenant's (one statement). */
export function* getFacts(d: Dialect, tenant: string, ids: readonly string[]): Step<Fact[]> {
  if (ids.length === 0) return [];
  const where = allOf([sql('f.tenant = ?', tenant), ...d.inList('f.id', [...new Set(ids)])]);
  const found = yield* rows<FactRow>({ text: `SELECT * FROM engram.facts f WHERE ${where.text}`, params: where.params });
  const byId = new Map(found.map((r) => [r.id, rowToFact(r)]));
  return ids.map((id) => byId.get(id)).filter((f): f is Fact => f !== undefined);
}

export function* getLiveFact(tenant: string, key: string, now: number): Step<Fact | undefined> {
  const r = yield* one<FactRow>(
    sql(`SELECT * FROM engram.facts f WHERE f.tenant = ? AND f.key = ? AND ${LIVE} AND (f.expires_at IS NULL OR f.expires_at > ?)`, tenant, key, now),
  );
  return r && rowToFact(r);
}

export function* getFactVersions(q: FactVersionQuery): Step<Fact[]> {
  const found = yield* rows<FactRow>(sql('SELECT * FROM engram.facts WHERE tenant = ? AND key = ? ORDER BY version, pk', q.tenant, q.key));
  return found.map(rowToFact);
}

/**
 * "The same scope" is exact here: every scope field, given or not, must equal the fact's (an absent field
 * matches only an absent one), since dedupe must not merge a user's fact into a shared one.
 */
export function* findFactByHash(d: Dialect, tenant: string, scope: ScopeFilter, source: string | undefined, contentHash: string, now: number): Step<Fact | undefined> {
  const where = allOf([
    sql('f.tenant = ? AND f.content_hash = ?', tenant, contentHash),
    d.sameText('f.source', source ?? null),
    ...d.exactScope(scope, 'f'),
    sql(LIVE),
    notExpiredSql('f', now),
  ]);
  const r = yield* one<FactRow>({ text: `SELECT * FROM engram.facts f WHERE ${where.text} ORDER BY f.pk LIMIT 1`, params: where.params });
  return r && rowToFact(r);
}

/** Evidence counters change in place (the text never does); a live version's doc follows its confidence. Validated by the caller. */
export function* updateFactStats(tenant: string, id: string, stats: Pick<Fact, 'confidence' | 'supportCount' | 'contradictCount'>): Step<void> {
  const changed = yield* exec(
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
  yield* exec(sql(`UPDATE engram.docs SET confidence = ? WHERE tenant = ? AND kind = 'fact' AND ref_id = ?`, stats.confidence, tenant, id));
}

/** The time rule of FactListQuery for one alias (the lineage's latest qualifying version is picked on top). */
function factTimeSql(q: FactListQuery, a: string): Sql[] {
  if (q.asOf === undefined && q.knownAt === undefined) {
    return [sql(`${a}.expired_at IS NULL`), notExpiredSql(a, q.now), sql(`(${a}.valid_to IS NULL OR ${a}.valid_to > ?)`, q.now)];
  }
  const known = q.knownAt ?? q.now;
  const valid = q.asOf ?? known;
  // A version still live at `knownAt` had no end of validity from its closing yet: that end is ignored.
  const endsLater = q.knownAt !== undefined ? sql(` OR ${a}.expired_at > ?`, q.knownAt) : sql('');
  return [
    sql(`${a}.recorded_at <= ?`, known),
    sql(`(${a}.valid_from IS NULL OR ${a}.valid_from <= ?)`, valid),
    sql(`(${a}.valid_to IS NULL OR ${a}.valid_to > ?${endsLater.text})`, valid, ...endsLater.params),
    notExpiredSql(a, q.now),
  ];
}

/** FactListQuery: by (recordedAt, id), after the cursor; at most one version per lineage unless includeExpired. */
export function* listFacts(q: FactListQuery): Step<Fact[]> {
  const timed = q.asOf !== undefined || q.knownAt !== undefined;
  const where = allOf([
    sql('f.tenant = ?', q.tenant),
    ...scopeSql(q.scope, 'f'),
    ...(q.kinds?.length ? [anyOf(q.kinds.map((k) => sql('f.kind = ?', k)))] : []),
    ...(q.includeExpired ? [] : factTimeSql(q, 'f')),
    ...(timed && !q.includeExpired
      ? [not(sql(`EXISTS (SELECT 1 FROM engram.facts g WHERE g.tenant = f.tenant AND g.key = f.key AND g.version > f.version AND ${allOf(factTimeSql(q, 'g')).text})`, ...allOf(factTimeSql(q, 'g')).params))]
      : []),
    ...(q.after ? [sql('(f.recorded_at > ? OR (f.recorded_at = ? AND f.id > ?))', q.after.recordedAt, q.after.recordedAt, q.after.id)] : []),
  ]);
  const found = yield* rows<FactRow>(listSql('facts', 'f', where, 'f.recorded_at, f.id', q.limit));
  return found.map(rowToFact);
}
