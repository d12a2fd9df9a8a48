/**
 * The timeline query of `Storage.queryEvents`, written once for every dialect: in seq (append) order, or the
 * newest `lastN` by event time returned oldest first. Tags and filters are evaluated on the event's doc, so a redacted event
 * (no doc, no tags) matches neither; without them, redacted tombstones are returned.
 */
import { isEmpty } from '../../../core/filter.js';
import type { EventQuery } from '../../../ports/storage.js';
import type { Dialect } from './dialect.js';
import { compileFilter } from './filter-compiler.js';
import { allOf, notExpiredSql, scopeSql, sql, type Sql } from './fragment.js';

/**
 * The statement: `selectEvents` (events aliased `e`, ending before WHERE) with the doc joined when needed, from
 * `docsTable` ('docs' or 'engram.docs', as the engine's runner names tables). `newestFirst`: reverse the rows.
 */
export function timelineSql(d: Dialect, q: EventQuery, selectEvents: string, docsTable: string): { statement: Sql; newestFirst: boolean } {
  const needsDoc = (q.tags?.length ?? 0) > 0 || !isEmpty(q.filter);
  const where = allOf([
    sql('e.tenant = ?', q.tenant),
    ...scopeSql(q.scope, 'e'),
    ...d.inList('e.type', q.types),
    ...(q.since !== undefined ? [sql('e.ts >= ?', q.since)] : []),
    ...(q.until !== undefined ? [sql('e.ts < ?', q.until)] : []),
    ...(q.knownAt !== undefined ? [sql('e.recorded_at <= ?', q.knownAt)] : []),
    ...(q.afterSeq !== undefined ? [sql('e.seq > ?', q.afterSeq)] : []),
    notExpiredSql('e', q.now),
    ...(q.tags?.length ? [compileFilter(d.filter, { op: 'contains', field: { kind: 'column', name: 'tags' }, values: q.tags, mode: 'all' }, 'd')] : []),
    ...(isEmpty(q.filter) ? [] : [compileFilter(d.filter, q.filter!, 'd')]),
  ]);
  const join = needsDoc ? ` JOIN ${docsTable} d ON d.tenant = e.tenant AND d.kind = 'event' AND d.ref_id = e.id` : '';
  const newestFirst = q.lastN !== undefined;
  const limit = Math.min(q.lastN ?? Infinity, q.limit ?? Infinity);
  const limited = Number.isFinite(limit);
  return {
    statement: {
      text: `${selectEvents}${join} WHERE ${where.text} ORDER BY ${newestFirst ? 'e.ts DESC, e.seq DESC' : 'e.seq ASC'}${limited ? ' LIMIT ?' : ''}`,
      params: [...where.params, ...(limited ? [Math.max(0, Math.floor(limit))] : [])],
    },
    newestFirst,
  };
}
