/**
 * The replaceable learn records: episodes (replaced by id while they grow; projected as a doc only once
 * closed), procedures (replaced as they are used and revised; always projected) and feedback examples (a toggle
 * flips polarity in place; found again by pair hash and exact scope). Each put upserts the row and makes its
 * doc projection match, in one write transaction (validated by the caller).
 */
import { causeVectorKey, episodeToDoc, exampleToDoc, procedureToDoc } from '../../../../core/docs-learn.js';
import type { Episode, Example, Procedure } from '../../../../core/types.js';
import type { EpisodeQuery, ExampleQuery, ProcedureQuery, ScopeFilter } from '../../../../ports/storage.js';
import type { Dialect } from '../dialect.js';
import { allOf, scopeSql, sql } from '../fragment.js';
import { deleteDocs, exec, lockTenants, one, replaceDoc, rows, type Step } from '../program.js';
import { upsertSql } from '../rows.js';
import {
  EPISODE_COLUMNS,
  episodeParams,
  EXAMPLE_COLUMNS,
  exampleParams,
  PROCEDURE_COLUMNS,
  procedureParams,
  rowToEpisode,
  rowToExample,
  rowToProcedure,
  type EpisodeRow,
  type ExampleRow,
  type ProcedureRow,
} from '../rows-learn.js';
import { dropUnreferencedEmbeddings } from './cleanup.js';
import { listSql, recordsByIds } from './records.js';

const UPSERT_EPISODE = upsertSql('episodes', EPISODE_COLUMNS, ['tenant', 'id']);
const UPSERT_PROCEDURE = upsertSql('procedures', PROCEDURE_COLUMNS, ['tenant', 'id']);
const UPSERT_EXAMPLE = upsertSql('examples', EXAMPLE_COLUMNS, ['tenant', 'id']);

// --- episodes ---
const PRIOR_CAUSE = 'SELECT root_cause FROM engram.episodes WHERE tenant = ? AND id = ?';
/** The upsert that also returns the root cause the episode had before it (none for a new episode). */
const UPSERT_EPISODE_PRIOR = `WITH before_write AS (${PRIOR_CAUSE})
    ${UPSERT_EPISODE}
    RETURNING (SELECT root_cause FROM before_write) AS root_cause`;

/** Writes the episode, returning the root cause it had before (one statement where the dialect allows). */
function* upsertEpisode(d: Dialect, episode: Episode): Step<string | null | undefined> {
  if (d.priorInReturning) return (yield* one<{ root_cause: string | null }>(sql(UPSERT_EPISODE_PRIOR, episode.tenant, episode.id, ...episodeParams(episode))))?.root_cause;
  const before = yield* one<{ root_cause: string | null }>(sql(PRIOR_CAUSE, episode.tenant, episode.id));
  yield* exec(sql(UPSERT_EPISODE, ...episodeParams(episode)));
  return before?.root_cause;
}

export function* putEpisode(d: Dialect, episode: Episode): Step<void> {
  yield* lockTenants([episode.tenant]);
  const before = yield* upsertEpisode(d, episode);
  yield* replaceDoc(episode.tenant, 'episode', episode.id, episodeToDoc(episode));
  if (before && before !== (episode.rootCause ?? null)) yield* dropCauseVector(before);
}

/**
 * A cause corrected away (or cleared) leaves no vector behind: the learner stored one under `causeVectorKey(cause)`
 * when the episode was described, and nothing reads it once no episode, of any tenant, states that cause (the
 * embedding cache is shared by content). Forget drops the current cause's vector the same way (retention.ts).
 */
function* dropCauseVector(cause: string): Step<void> {
  yield* exec(
    sql(
      'DELETE FROM engram.embeddings WHERE content_hash = ? AND NOT EXISTS (SELECT 1 FROM engram.episodes e WHERE e.root_cause = ?)',
      causeVectorKey(cause),
      cause,
    ),
  );
}

export const getEpisodes = (d: Dialect, tenant: string, ids: readonly string[]): Step<Episode[]> => recordsByIds(d, 'episodes', tenant, ids, rowToEpisode);

/** Ordered by end time (ties by start time, then id), oldest first unless `order` is 'desc'. */
export function* listEpisodes(d: Dialect, q: EpisodeQuery): Step<Episode[]> {
  const where = allOf([
    sql('e.tenant = ?', q.tenant),
    ...scopeSql(q.scope, 'e'),
    ...(q.streamKey !== undefined ? [sql('e.stream_key = ?', q.streamKey)] : []),
    ...(q.closed !== undefined ? [sql('e.closed = ?', q.closed ? 1 : 0)] : []),
    ...d.inList('e.outcome', q.outcomes),
    ...(q.since !== undefined ? [sql('e.end_ts >= ?', q.since)] : []),
  ]);
  const dir = q.order === 'desc' ? 'DESC' : 'ASC';
  const found = yield* rows<EpisodeRow>(listSql('episodes', 'e', where, `e.end_ts ${dir}, e.start_ts ${dir}, e.id${d.byteOrder} ${dir}`, q.limit));
  return found.map(rowToEpisode);
}

// --- procedures ---
export function* putProcedure(p: Procedure): Step<void> {
  yield* lockTenants([p.tenant]);
  yield* exec(sql(UPSERT_PROCEDURE, ...procedureParams(p)));
  yield* replaceDoc(p.tenant, 'procedure', p.id, procedureToDoc(p));
}

export const getProcedures = (d: Dialect, tenant: string, ids: readonly string[]): Step<Procedure[]> =>
  recordsByIds(d, 'procedures', tenant, ids, rowToProcedure);

/** Oldest first (by creation, then id). */
export function* listProcedures(d: Dialect, q: ProcedureQuery): Step<Procedure[]> {
  const where = allOf([sql('p.tenant = ?', q.tenant), ...scopeSql(q.scope, 'p')]);
  const found = yield* rows<ProcedureRow>(listSql('procedures', 'p', where, `p.created_at, p.id${d.byteOrder}`, q.limit));
  return found.map(rowToProcedure);
}

// --- feedback examples ---
/**
 * Upserts by id. Another example with the same pair hash in exactly the same scope is a CONFLICT (a unique
 * index enforces it), so `findExample` always names at most one: update that one instead.
 */
export function* putExample(e: Example): Step<void> {
  yield* lockTenants([e.tenant]);
  yield* exec(sql(UPSERT_EXAMPLE, ...exampleParams(e)));
  yield* replaceDoc(e.tenant, 'example', e.id, exampleToDoc(e));
}

export const getExamples = (d: Dialect, tenant: string, ids: readonly string[]): Step<Example[]> => recordsByIds(d, 'examples', tenant, ids, rowToExample);

/** "Exactly this scope": every scope field, given or not, must equal the example's (absent matches absent). */
export function* findExample(d: Dialect, tenant: string, scope: ScopeFilter, contentHash: string): Step<Example | undefined> {
  const where = allOf([sql('x.tenant = ? AND x.content_hash = ?', tenant, contentHash), ...d.exactScope(scope, 'x')]);
  const r = yield* one<ExampleRow>({ text: `SELECT * FROM engram.examples x WHERE ${where.text} LIMIT 1`, params: where.params });
  return r && rowToExample(r);
}

/** Oldest first (by creation, then id). */
export function* listExamples(d: Dialect, q: ExampleQuery): Step<Example[]> {
  const where = allOf([
    sql('x.tenant = ?', q.tenant),
    ...scopeSql(q.scope, 'x'),
    ...(q.polarity !== undefined ? [sql('x.polarity = ?', q.polarity)] : []),
  ]);
  const found = yield* rows<ExampleRow>(listSql('examples', 'x', where, `x.created_at, x.id${d.byteOrder}`, q.limit));
  return found.map(rowToExample);
}

/** Removes the example, its doc and (if now unreferenced) its vector. False if the tenant has no such example. */
export function* deleteExample(d: Dialect, tenant: string, id: string): Step<boolean> {
  yield* lockTenants([tenant]);
  const changed = yield* exec(sql('DELETE FROM engram.examples WHERE tenant = ? AND id = ?', tenant, id));
  if (changed === 0) return false;
  const removed = yield* deleteDocs(tenant, allOf([sql("d.kind = 'example'"), ...d.inList('d.ref_id', [id])]));
  yield* dropUnreferencedEmbeddings(d, removed.contentHashes);
  return true;
}
