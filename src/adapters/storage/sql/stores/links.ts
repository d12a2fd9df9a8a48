/** Typed, weighted links between memories: upsert with reinforcement, lookups, and a bounded graph walk. */
import type { Link } from '../../../../core/types.js';
import type { LinkQuery, TraverseQuery } from '../../../../ports/storage.js';
import type { Dialect } from '../dialect.js';
import { allOf, anyOf, sql, type Sql } from '../fragment.js';
import { one, rows, type Step } from '../program.js';
import { LINK_COLUMNS, linkParams, rowToLink, type LinkRow } from '../rows-learn.js';

/**
 * One edge per (tenant, type, from, to). Re-asserting it keeps id and creation time, takes the larger weight,
 * marks it 'reinforced' and keeps the newest evidence text given (the old one when none is).
 */
const upsertLink = (d: Dialect): string => `INSERT INTO engram.links AS l (${LINK_COLUMNS.join(', ')}) VALUES (${LINK_COLUMNS.map(() => '?').join(', ')})
  ON CONFLICT (tenant, type, from_id, to_id) DO UPDATE SET
    weight = ${d.greatest}(l.weight, excluded.weight), origin = 'reinforced', evidence = COALESCE(excluded.evidence, l.evidence)
  RETURNING *`;

/** Upserts in one transaction (validated by the caller) and returns the stored links in input order (a repeat in the batch reinforces). */
export function* putLinks(d: Dialect, links: readonly Link[]): Step<Link[]> {
  const out: Link[] = [];
  for (const l of links) out.push(rowToLink((yield* one<LinkRow>(sql(upsertLink(d), ...linkParams(l))))!));
  return out;
}

/** The link's end a walk leaves from, per direction. */
function ends(direction: LinkQuery['direction'], alias: string, node: (column: string) => Sql): Sql {
  const parts: Sql[] = [];
  if (direction !== 'in') parts.push(node(`${alias}.from_id`));
  if (direction !== 'out') parts.push(node(`${alias}.to_id`));
  return anyOf(parts);
}

/** Links adjacent to `ids` in `direction`, narrowed to `types`, oldest first. */
export function* getLinks(d: Dialect, q: LinkQuery): Step<Link[]> {
  if (q.ids.length === 0) return [];
  const where = allOf([sql('l.tenant = ?', q.tenant), ends(q.direction, 'l', (c) => d.inList(c, q.ids)[0]!), ...d.inList('l.type', q.types)]);
  const found = yield* rows<LinkRow>({ text: `SELECT * FROM engram.links l WHERE ${where.text} ORDER BY l.created_at, l.id${d.byteOrder}`, params: where.params });
  return found.map(rowToLink);
}

/**
 * Breadth-first walk as one recursive query. `reach` collects (node, depth) pairs up to maxDepth − 1; UNION
 * drops repeated pairs and depth is bounded, so cycles terminate, and each node's BFS distance is its smallest
 * depth. A link's hop depth is 1 + the distance of the end the walk leaves from; each link is returned once, at
 * its smallest depth, shallowest first (then heavier, older), at most `limit`. PostgreSQL allows one recursive
 * reference, so both directions share one step: the far end is whichever end the current node is not.
 */
export function* traverse(d: Dialect, q: TraverseQuery): Step<{ link: Link; depth: number }[]> {
  const maxDepth = Math.floor(q.maxDepth);
  const limit = Math.floor(q.limit);
  if (q.ids.length === 0 || !(maxDepth >= 1) || !(limit >= 1)) return [];
  const edge = (node: string): Sql => allOf([sql('l.tenant = ?', q.tenant), ends(q.direction, 'l', (c) => sql(`${c} = ${node}`)), ...d.inList('l.type', q.types)]);
  const step = edge('r.node');
  const hop = edge('n.node');
  const seeds = d.listTable(q.ids, 'u', 'node');
  const far = q.direction === 'out' ? 'l.to_id' : q.direction === 'in' ? 'l.from_id' : 'CASE WHEN l.from_id = r.node THEN l.to_id ELSE l.from_id END';
  const found = yield* rows<LinkRow & { hop: number }>({
    text: `WITH RECURSIVE
      reach(node, depth) AS (
        SELECT u.node, 0 FROM ${seeds.text}
        UNION
        SELECT ${far}, r.depth + 1 FROM reach r JOIN engram.links l ON ${step.text} WHERE r.depth < ?
      ),
      nearest(node, depth) AS (SELECT node, MIN(depth) FROM reach GROUP BY node),
      hops(pk, hop) AS (SELECT l.pk, n.depth + 1 FROM nearest n JOIN engram.links l ON ${hop.text}),
      best(pk, hop) AS (SELECT pk, MIN(hop) FROM hops GROUP BY pk)
      SELECT l.*, b.hop FROM best b JOIN engram.links l ON l.pk = b.pk
      ORDER BY b.hop, l.weight DESC, l.created_at, l.id${d.byteOrder} LIMIT ?`,
    params: [...seeds.params, ...step.params, maxDepth - 1, ...hop.params, limit],
  });
  return found.map((r) => ({ link: rowToLink(r), depth: r.hop }));
}
