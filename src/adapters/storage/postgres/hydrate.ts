/**
 * The read path's hydration of search candidates (Storage.hydrateDocs) in one statement: the docs asked, each
 * with its text's vector, the fact behind a fact doc and the event behind each of the first event docs, so a
 * search pays one round trip where `getDocs`, `getEmbeddings`, `getFacts` and `getEvents` would pay four.
 * Facts and events travel as jsonb of the rows `getFact` and `getEvents` read, decoded by the same row codecs.
 * Each doc is found by its own primary-key probe (a lateral lookup per id asked, by `doc_id` alone, the tenant checked on
 * the row it returns)
 * and everything else by a subquery per doc (an index probe each), so the plan stays a few dozen probes whatever
 * the planner believes about the tenant's size: with `doc_id = ANY(…) AND tenant = …` a planner without
 * statistics (a table not analyzed since a bulk load) ANDs the primary key with the tenant's whole time index.
 */
import type { Fact, MemoryEvent } from '../../../core/types.js';
import type { HydratedDocs } from '../../../ports/storage.js';
import { DOC_READ_COLUMNS, num, rowToDoc, rowToEvent, rowToFact, type DocRow, type EventRow, type FactRow } from '../sql/rows.js';
import type { PgContext } from './context.js';
import { SELECT_EVENTS } from './event-store.js';
import { sql } from './sql.js';
import { decodeVector, vectorRead } from './vector-codec.js';

const columnsOf = (alias: string) =>
  DOC_READ_COLUMNS.split(',')
    .map((c) => `${alias}.${c.trim()}`)
    .join(', ');

type Row = DocRow & { vec: Uint8Array | null; fact_row: FactRow | null; event_row: EventRow | null };

export async function hydrateDocs(ctx: PgContext, tenant: string, docIds: readonly number[], opts: { events?: number } = {}): Promise<HydratedDocs> {
  const ids = docIds.filter((id) => Number.isSafeInteger(id));
  const nEvents = Math.max(0, Math.floor(opts.events ?? 0));
  if (ids.length === 0) return { docs: [], vectors: new Map(), events: new Map(), facts: new Map() };
  const rows = await ctx.db.rows<Row>(
    sql(
      `WITH hit AS (
         SELECT ${columnsOf('d')}, row_number() OVER (PARTITION BY d.kind ORDER BY u.ord) AS kind_rank
         FROM unnest(?::bigint[]) WITH ORDINALITY AS u(id, ord)
         CROSS JOIN LATERAL (SELECT * FROM engram.docs x WHERE x.doc_id = u.id LIMIT 1) d
         WHERE d.tenant = ?)
       SELECT ${columnsOf('h')},
         (SELECT ${vectorRead(ctx.mode, 'em.vec')} FROM engram.embeddings em WHERE em.model = ? AND em.content_hash = h.content_hash) AS vec,
         CASE WHEN h.kind = 'fact' THEN (SELECT to_jsonb(f) FROM engram.facts f WHERE f.tenant = h.tenant AND f.id = h.ref_id) END AS fact_row,
         CASE WHEN h.kind = 'event' AND h.kind_rank <= ? THEN
           (SELECT to_jsonb(x) FROM (${SELECT_EVENTS} WHERE e.tenant = h.tenant AND e.id = h.ref_id) x) END AS event_row
       FROM hit h`,
      [...new Set(ids)],
      tenant,
      ctx.model,
      nEvents,
    ),
  );
  const byId = new Map<number, Row>(rows.map((r) => [num(r.doc_id), r]));
  const docs = [];
  const vectors = new Map<string, Float32Array>();
  const events = new Map<string, MemoryEvent>();
  const facts = new Map<string, Fact>();
  for (const id of docIds) {
    const r = byId.get(id);
    if (!r) continue;
    const doc = rowToDoc(r);
    docs.push(doc);
    if (r.vec && !vectors.has(doc.contentHash)) vectors.set(doc.contentHash, decodeVector(ctx.mode, r.vec));
    if (r.fact_row) facts.set(r.fact_row.id, rowToFact(r.fact_row));
    if (r.event_row) events.set(r.event_row.id, rowToEvent(r.event_row));
  }
  return { docs, vectors, events, facts };
}
