/**
 * The read path's hydration of search candidates (Storage.hydrateDocs) in one round trip: the docs with their
 * texts' vectors in one statement, and the events behind the first event docs in another sent at the same time
 * on a second pooled connection. Each answers what `getDocs`, `getEmbeddings` and `getEvents` would.
 */
import type { MemoryEvent } from '../../../core/types.js';
import type { HydratedDocs } from '../../../ports/storage.js';
import { DOC_READ_COLUMNS, num, rowToDoc, rowToEvent, type DocRow, type EventRow } from '../sql/rows.js';
import type { PgContext } from './context.js';
import { SELECT_EVENTS } from './event-store.js';
import { sql } from './sql.js';
import { decodeVector, vectorRead } from './vector-codec.js';

const DOC_COLUMNS_OF_D = DOC_READ_COLUMNS.split(',')
  .map((c) => `d.${c.trim()}`)
  .join(', ');

export async function hydrateDocs(ctx: PgContext, tenant: string, docIds: readonly number[], opts: { events?: number } = {}): Promise<HydratedDocs> {
  const ids = docIds.filter((id) => Number.isSafeInteger(id));
  const nEvents = Math.max(0, Math.floor(opts.events ?? 0));
  if (ids.length === 0) return { docs: [], vectors: new Map(), events: new Map() };
  const docRows = ctx.db.rows<DocRow & { vec: Uint8Array | null }>(
    sql(
      `SELECT ${DOC_COLUMNS_OF_D}, ${vectorRead(ctx.mode, 'em.vec')} AS vec FROM engram.docs d
       LEFT JOIN engram.embeddings em ON em.model = ? AND em.content_hash = d.content_hash
       WHERE d.tenant = ? AND d.doc_id = ANY(?::bigint[])`,
      ctx.model,
      tenant,
      ids,
    ),
  );
  // The first event docs in the order asked, as the caller would pick them from the docs it got.
  const eventRows =
    nEvents > 0
      ? ctx.db.rows<EventRow>(
          sql(
            `${SELECT_EVENTS} WHERE e.tenant = ? AND e.id IN (
               SELECT d.ref_id FROM unnest(?::bigint[]) WITH ORDINALITY AS u(doc_id, ord)
               JOIN engram.docs d ON d.tenant = ? AND d.doc_id = u.doc_id
               WHERE d.kind = 'event' ORDER BY u.ord LIMIT ?)`,
            tenant,
            ids,
            tenant,
            nEvents,
          ),
        )
      : Promise.resolve([]);
  eventRows.catch(() => undefined); // surfaces below, after the docs
  const rows = await docRows;
  const byId = new Map<number, DocRow>(rows.map((r) => [num(r.doc_id), r]));
  const docs = [];
  const vectors = new Map<string, Float32Array>();
  for (const id of docIds) {
    const r = byId.get(id) as (DocRow & { vec: Uint8Array | null }) | undefined;
    if (!r) continue;
    const doc = rowToDoc(r);
    docs.push(doc);
    if (r.vec && !vectors.has(doc.contentHash)) vectors.set(doc.contentHash, decodeVector(ctx.mode, r.vec));
  }
  const events = new Map<string, MemoryEvent>((await eventRows).map((r) => [r.id, rowToEvent(r)]));
  return { docs, vectors, events };
}
