/** Typed, weighted links between memories: upsert with reinforcement, lookups, and a bounded graph walk. */
import type { Link } from '../../../core/types.js';
import type { LinkQuery, TraverseQuery } from '../../../ports/storage.js';
import { LINK_COLUMNS, linkParams, rowToLink, type LinkRow } from '../sql/rows-learn.js';
import { assertLinks } from '../sql/validate-learn.js';
import type { PgContext } from './context.js';
import type { Tx } from './db.js';
import { allOf, anyOf, inList, sql, type Sql } from './sql.js';

/**
 * One edge per (tenant, type, from, to). Re-asserting it keeps id and creation time, takes the larger
 * weight, marks it 'reinforced' and keeps the newest evidence text given (the old one when none is).
 */
const UPSERT_LINK = `INSERT INTO engram.links AS l (${LINK_COLUMNS.join(', ')}) VALUES (${LINK_COLUMNS.map(() => '?').join(', ')})
  ON CONFLICT (tenant, type, from_id, to_id) DO UPDATE SET
    weight = GREATEST(l.weight, excluded.weight), origin = 'reinforced', evidence = COALESCE(excluded.evidence, l.evidence)
  RETURNING *`;

/** Upserts in one transaction and returns the stored links in input order (a repeat in the batch reinforces). */
export async function putLinks(ctx: PgContext, links: readonly Link[]): Promise<Link[]> {
  assertLinks(links);
  if (links.length === 0) return [];
  return ctx.db.tx('putLinks', async (tx) => {
    const out: Link[] = [];
    for (const l of links) out.push(rowToLink((await tx.one<LinkRow>(sql(UPSERT_LINK, ...linkParams(l))))!));
    return out;
  });
}

/** The link's end a walk leaves from, per direction. */
function ends(direction: LinkQuery['direction'], alias: string, node: (column: string) => Sql): Sql {
  const parts: Sql[] = [];
  if (direction !== 'in') parts.push(node(`${alias}.from_id`));
  if (direction !== 'out') parts.push(node(`${alias}.to_id`));
  return anyOf(parts);
}

/** Links adjacent to `ids` in `direction`, narrowed to `types`, oldest first. */
export async function getLinks(ctx: PgContext, q: LinkQuery): Promise<Link[]> {
  if (q.ids.length === 0) return [];
  const where = allOf([sql('l.tenant = ?', q.tenant), ends(q.direction, 'l', (c) => sql(`${c} = ANY(?::text[])`, q.ids)), ...inList('l.type', q.types)]);
  const rows = await ctx.db.rows<LinkRow>({ text: `SELECT * FROM engram.links l WHERE ${where.text} ORDER BY l.created_at, l.id COLLATE "C"`, params: where.params });
  return rows.map(rowToLink);
}

/**
 * Breadth-first walk as one recursive query, as in the SQLite adapter. `reach` collects (node, depth)
 * pairs up to maxDepth − 1; UNION drops repeated pairs and depth is bounded, so cycles terminate, and each
 * node's BFS distance is its smallest depth. A link's hop depth is 1 + the distance of the end the walk
 * leaves from; each link is returned once, at its smallest depth, shallowest first (then heavier, older).
 * PostgreSQL allows one recursive reference, so both directions share one step: the far end is whichever
 * end the current node is not.
 */
export async function traverse(ctx: PgContext, q: TraverseQuery): Promise<{ link: Link; depth: number }[]> {
  const maxDepth = Math.floor(q.maxDepth);
  const limit = Math.floor(q.limit);
  if (q.ids.length === 0 || !(maxDepth >= 1) || !(limit >= 1)) return [];
  const edge = (node: string): Sql =>
    allOf([sql('l.tenant = ?', q.tenant), ends(q.direction, 'l', (c) => sql(`${c} = ${node}`)), ...inList('l.type', q.types)]);
  const step = edge('r.node');
  const hop = edge('n.node');
  const far = q.direction === 'out' ? 'l.to_id' : q.direction === 'in' ? 'l.from_id' : 'CASE WHEN l.from_id = r.node THEN l.to_id ELSE l.from_id END';
  const rows = await ctx.db.rows<LinkRow & { hop: number }>({
    text: `WITH RECURSIVE
      reach(node, depth) AS (
        SELECT u.node, 0 FROM unnest(?::text[]) AS u(node)
        UNION
        SELECT ${far}, r.depth + 1 FROM reach r JOIN engram.links l ON ${step.text} WHERE r.depth < ?
      ),
      nearest(node, depth) AS (SELECT node, MIN(depth) FROM reach GROUP BY node),
      hops(pk, hop) AS (SELECT l.pk, n.depth + 1 FROM nearest n JOIN engram.links l ON ${hop.text}),
      best(pk, hop) AS (SELECT pk, MIN(hop) FROM hops GROUP BY pk)
      SELECT l.*, b.hop FROM best b JOIN engram.links l ON l.pk = b.pk
      ORDER BY b.hop, l.weight DESC, l.created_at, l.id COLLATE "C" LIMIT ?`,
    params: [[...q.ids], ...step.params, maxDepth - 1, ...hop.params, limit],
  });
  return rows.map((r) => ({ link: rowToLink(r), depth: r.hop }));
}

/** Deletes links named by their own id or touching any of `ids` at either end. Returns how many. */
export async function deleteLinks(ctx: PgContext, tenant: string, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  return ctx.db.tx('deleteLinks', (tx) => deleteLinksTouching(tx, tenant, ids));
}

/** For callers already inside a write transaction (forget, sweep). */
export function deleteLinksTouching(tx: Tx, tenant: string, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return Promise.resolve(0);
  return tx.exec(
    sql('DELETE FROM engram.links WHERE tenant = ? AND (id = ANY(?::text[]) OR from_id = ANY(?::text[]) OR to_id = ANY(?::text[]))', tenant, ids, ids, ids),
  );
}
