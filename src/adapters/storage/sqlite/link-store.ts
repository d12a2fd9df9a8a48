/** Typed, weighted links between memories: upsert with reinforcement, lookups, and a bounded graph walk. */
import type { Link } from '../../../core/types.js';
import type { LinkQuery, TraverseQuery } from '../../../ports/storage.js';
import type { StoreContext } from './context.js';
import { insertSql } from '../sql/rows.js';
import { LINK_COLUMNS, linkParams, rowToLink, type LinkRow } from '../sql/rows-learn.js';
import { allOf, inJsonList, joinSql, sql, type Sql } from './sql.js';
import { assertLinks } from '../sql/validate-learn.js';

/**
 * One edge per (tenant, type, from, to). Re-asserting it keeps id and creation time, takes the larger weight,
 * marks it 'reinforced' and keeps the newest evidence text given (the old one when none is).
 */
const UPSERT_LINK = `${insertSql('links', LINK_COLUMNS)}
  ON CONFLICT (tenant, type, from_id, to_id) DO UPDATE SET
    weight = MAX(weight, excluded.weight), origin = 'reinforced', evidence = COALESCE(excluded.evidence, evidence)
  RETURNING *`;

/** Upserts in one transaction and returns the stored links in input order (a repeat in the batch reinforces). */
export function putLinks(ctx: StoreContext, links: readonly Link[]): Link[] {
  assertLinks(links);
  if (links.length === 0) return [];
  return ctx.write(() => links.map((l) => rowToLink(ctx.stmts.get(UPSERT_LINK).get(...linkParams(l)) as LinkRow)));
}

/** Links adjacent to `ids` in `direction`, narrowed to `types`, oldest first. */
export function getLinks(ctx: StoreContext, q: LinkQuery): Link[] {
  if (q.ids.length === 0) return [];
  const ids = JSON.stringify(q.ids);
  const ends: Sql[] = [];
  if (q.direction !== 'in') ends.push(sql('l.from_id IN (SELECT value FROM json_each(?))', ids));
  if (q.direction !== 'out') ends.push(sql('l.to_id IN (SELECT value FROM json_each(?))', ids));
  const where = allOf([sql('l.tenant = ?', q.tenant), joinSql(ends, ' OR '), ...inJsonList('l.type', q.types)]);
  const rows = ctx.stmts.get(`SELECT * FROM links l WHERE ${where.text} ORDER BY l.created_at, l.id`).all(...where.params) as LinkRow[];
  return rows.map(rowToLink);
}

/** The two ways a walk can cross a link: from its `from` end to its `to` end ('out'), or back ('in'). */
const STEPS = {
  out: { near: 'from_id', far: 'to_id' },
  in: { near: 'to_id', far: 'from_id' },
} as const;

/**
 * Breadth-first walk as one recursive query. `reach` collects (node, depth) pairs; UNION drops repeated
 * pairs and depth is bounded, so cycles terminate, and each node's BFS distance is its smallest depth. A
 * link's hop depth is 1 + the distance of the end the walk leaves from; each link is returned once, at its
 * smallest depth, shallowest first (then heavier, older), at most `limit`.
 */
export function traverse(ctx: StoreContext, q: TraverseQuery): { link: Link; depth: number }[] {
  const maxDepth = Math.floor(q.maxDepth);
  const limit = Math.floor(q.limit);
  if (q.ids.length === 0 || !(maxDepth >= 1) || !(limit >= 1)) return [];
  const steps = q.direction === 'both' ? [STEPS.out, STEPS.in] : [STEPS[q.direction]];
  const edge = (alias: string, near: string, node: string): Sql =>
    allOf([sql(`${alias}.tenant = ?`, q.tenant), sql(`${alias}.${near} = ${node}`), ...inJsonList(`${alias}.type`, q.types)]);

  const expand = steps.map((s) => {
    const on = edge('l', s.near, 'r.node');
    return sql(`SELECT l.${s.far}, r.depth + 1 FROM reach r CROSS JOIN links l ON ${on.text} WHERE r.depth < ?`, ...on.params, maxDepth - 1);
  });
  const hops = steps.map((s) => {
    const on = edge('l', s.near, 'n.node');
    return sql(`SELECT l.pk, n.depth + 1 FROM nearest n CROSS JOIN links l ON ${on.text}`, ...on.params);
  });
  const reach = joinSql([sql('SELECT value, 0 FROM json_each(?)', JSON.stringify(q.ids)), ...expand], ' UNION ');
  const adjacent = joinSql(hops, ' UNION ALL ');
  const text = `WITH RECURSIVE
    reach(node, depth) AS (${reach.text}),
    nearest(node, depth) AS (SELECT node, MIN(depth) FROM reach GROUP BY node),
    hops(pk, hop) AS (${adjacent.text})
    SELECT l.*, b.hop FROM (SELECT pk, MIN(hop) AS hop FROM hops GROUP BY pk) b CROSS JOIN links l ON l.pk = b.pk
    ORDER BY b.hop, l.weight DESC, l.created_at, l.id LIMIT ?`;
  const rows = ctx.stmts.get(text).all(...reach.params, ...adjacent.params, limit) as (LinkRow & { hop: number })[];
  return rows.map((r) => ({ link: rowToLink(r), depth: r.hop }));
}

/**
 * Deletes links named by their own id or touching any of `ids` at either end (a memory's links go when it
 * is dropped). Returns how many were deleted.
 */
export function deleteLinks(ctx: StoreContext, tenant: string, ids: readonly string[]): number {
  if (ids.length === 0) return 0;
  return ctx.write(() => deleteLinksTouching(ctx, tenant, ids));
}

/** For callers already inside a write transaction (forget, sweep). */
export function deleteLinksTouching(ctx: StoreContext, tenant: string, ids: readonly string[]): number {
  if (ids.length === 0) return 0;
  const list = JSON.stringify(ids);
  return ctx.stmts
    .get(
      `DELETE FROM links WHERE tenant = ? AND (id IN (SELECT value FROM json_each(?))
         OR from_id IN (SELECT value FROM json_each(?)) OR to_id IN (SELECT value FROM json_each(?)))`,
    )
    .run(tenant, list, list, list).changes;
}
