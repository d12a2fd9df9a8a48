/** Episodes: replaced by id while they grow; projected as a doc only once closed (`episodeToDoc`). */
import { episodeToDoc } from '../../../core/docs-learn.js';
import type { Episode } from '../../../core/types.js';
import type { EpisodeQuery } from '../../../ports/storage.js';
import type { StoreContext } from './context.js';
import { replaceDocOf } from './doc-store.js';
import { insertSql } from '../sql/rows.js';
import { EPISODE_COLUMNS, episodeParams, rowToEpisode, type EpisodeRow } from '../sql/rows-learn.js';
import { allOf, inJsonList, scopeSql, sql } from './sql.js';
import { assertEpisode } from '../sql/validate-learn.js';

const UPSERT_EPISODE = `${insertSql('episodes', EPISODE_COLUMNS)}
  ON CONFLICT (tenant, id) DO UPDATE SET ${EPISODE_COLUMNS.filter((c) => c !== 'tenant' && c !== 'id')
    .map((c) => `${c} = excluded.${c}`)
    .join(', ')}`;

export function putEpisode(ctx: StoreContext, episode: Episode): void {
  assertEpisode(episode);
  ctx.write(() => {
    ctx.stmts.get(UPSERT_EPISODE).run(...episodeParams(episode));
    replaceDocOf(ctx, episode.tenant, 'episode', episode.id, episodeToDoc(episode));
  });
}

/** Episodes by id in the order asked; unknown ids and other tenants' ids are skipped. */
export function getEpisodes(ctx: StoreContext, tenant: string, ids: readonly string[]): Episode[] {
  if (ids.length === 0) return [];
  const rows = ctx.stmts
    .get('SELECT * FROM episodes WHERE tenant = ? AND id IN (SELECT value FROM json_each(?))')
    .all(tenant, JSON.stringify(ids)) as EpisodeRow[];
  const byId = new Map(rows.map((r) => [r.id, rowToEpisode(r)]));
  return ids.map((id) => byId.get(id)).filter((e): e is Episode => e !== undefined);
}

/** Ordered by end time (ties by start time, then id), oldest first unless `order` is 'desc'. */
export function listEpisodes(ctx: StoreContext, q: EpisodeQuery): Episode[] {
  const where = allOf([
    sql('e.tenant = ?', q.tenant),
    ...scopeSql(q.scope, 'e'),
    ...(q.streamKey !== undefined ? [sql('e.stream_key = ?', q.streamKey)] : []),
    ...(q.closed !== undefined ? [sql('e.closed = ?', q.closed ? 1 : 0)] : []),
    ...inJsonList('e.outcome', q.outcomes),
    ...(q.since !== undefined ? [sql('e.end_ts >= ?', q.since)] : []),
  ]);
  const dir = q.order === 'desc' ? 'DESC' : 'ASC';
  const limit = q.limit === undefined ? -1 : Math.max(0, Math.floor(q.limit));
  const rows = ctx.stmts
    .get(`SELECT * FROM episodes e WHERE ${where.text} ORDER BY e.end_ts ${dir}, e.start_ts ${dir}, e.id ${dir} LIMIT ?`)
    .all(...where.params, limit) as EpisodeRow[];
  return rows.map(rowToEpisode);
}
