/** Episodes: replaced by id while they grow; projected as a doc only once closed (`episodeToDoc`). */
import { episodeToDoc } from '../../../core/docs-learn.js';
import type { Episode } from '../../../core/types.js';
import type { EpisodeQuery } from '../../../ports/storage.js';
import { EPISODE_COLUMNS, episodeParams, rowToEpisode, type EpisodeRow } from '../sql/rows-learn.js';
import { assertEpisode } from '../sql/validate-learn.js';
import type { PgContext } from './context.js';
import { replaceDocOf } from './doc-store.js';
import { allOf, inList, scopeSql, sql } from './sql.js';
import { upsertSql } from './upsert.js';

const UPSERT_EPISODE = upsertSql('episodes', EPISODE_COLUMNS, ['tenant', 'id']);

export async function putEpisode(ctx: PgContext, episode: Episode): Promise<void> {
  assertEpisode(episode);
  await ctx.db.tx('putEpisode', async (tx) => {
    await tx.lockTenants([episode.tenant]);
    await tx.exec(sql(UPSERT_EPISODE, ...episodeParams(episode)));
    await replaceDocOf(ctx, tx, episode.tenant, 'episode', episode.id, episodeToDoc(episode));
  });
}

/** Episodes by id in the order asked; unknown ids and other tenants' ids are skipped. */
export async function getEpisodes(ctx: PgContext, tenant: string, ids: readonly string[]): Promise<Episode[]> {
  if (ids.length === 0) return [];
  const rows = await ctx.db.rows<EpisodeRow>(sql('SELECT * FROM engram.episodes WHERE tenant = ? AND id = ANY(?::text[])', tenant, ids));
  const byId = new Map(rows.map((r) => [r.id, rowToEpisode(r)]));
  return ids.map((id) => byId.get(id)).filter((e): e is Episode => e !== undefined);
}

/** Ordered by end time (ties by start time, then id), oldest first unless `order` is 'desc'. */
export async function listEpisodes(ctx: PgContext, q: EpisodeQuery): Promise<Episode[]> {
  const where = allOf([
    sql('e.tenant = ?', q.tenant),
    ...scopeSql(q.scope, 'e'),
    ...(q.streamKey !== undefined ? [sql('e.stream_key = ?', q.streamKey)] : []),
    ...(q.closed !== undefined ? [sql('e.closed = ?', q.closed ? 1 : 0)] : []),
    ...inList('e.outcome', q.outcomes),
    ...(q.since !== undefined ? [sql('e.end_ts >= ?', q.since)] : []),
  ]);
  const dir = q.order === 'desc' ? 'DESC' : 'ASC';
  const limit = q.limit === undefined ? undefined : Math.max(0, Math.floor(q.limit));
  const rows = await ctx.db.rows<EpisodeRow>({
    text: `SELECT * FROM engram.episodes e WHERE ${where.text}
      ORDER BY e.end_ts ${dir}, e.start_ts ${dir}, e.id COLLATE "C" ${dir}${limit === undefined ? '' : ' LIMIT ?'}`,
    params: [...where.params, ...(limit === undefined ? [] : [limit])],
  });
  return rows.map(rowToEpisode);
}
