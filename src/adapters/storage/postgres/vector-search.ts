/**
 * Vector search on pgvector. A query whose candidate set (tenant, scope, kinds, expiry, filter) is small
 * is answered exactly; a larger one goes through the HNSW index with iterative scan (pgvector ≥ 0.8:
 * without it a selective filter post-filters the index's ef_search candidates and returns too few rows)
 * and is re-sorted, since relaxed order may return neighbours slightly out of order. Should the index
 * still return fewer than k rows, the exact query answers instead.
 */
import type { DocHit, DocQuery } from '../../../ports/storage.js';
import type { PgContext } from './context.js';
import type { Tx } from './db.js';
import { docConditions } from './doc-store.js';
import { num } from '../sql/rows.js';
import type { Sql } from './sql.js';
import { toVectorLiteral } from './vector-codec.js';

const MAX_EF_SEARCH = 1000;

type Hit = { docId: string | number; score: number };
const hits = (rows: Hit[]): DocHit[] => rows.map((r) => ({ docId: num(r.docId), score: r.score }));

function exact(tx: Tx, where: Sql, vector: string, k: number): Promise<Hit[]> {
  return tx.rows<Hit>({
    text: `SELECT d.doc_id AS "docId", 1 - (d.embedding OPERATOR(pgv.<=>) ?::pgv.vector) AS score
      FROM engram.docs d WHERE ${where.text} AND d.embedding IS NOT NULL
      ORDER BY score DESC, d.doc_id LIMIT ?`,
    params: [vector, ...where.params, k],
  });
}

function approximate(tx: Tx, where: Sql, vector: string, k: number): Promise<Hit[]> {
  return tx.rows<Hit>({
    text: `WITH nearest AS MATERIALIZED (
        SELECT d.doc_id, d.embedding OPERATOR(pgv.<=>) ?::pgv.vector AS distance
        FROM engram.docs d WHERE ${where.text} AND d.embedding IS NOT NULL
        ORDER BY d.embedding OPERATOR(pgv.<=>) ?::pgv.vector LIMIT ?
      )
      SELECT doc_id AS "docId", 1 - distance AS score FROM nearest ORDER BY distance, doc_id`,
    params: [vector, ...where.params, vector, k],
  });
}

export async function annSearch(ctx: PgContext, q: DocQuery & { vector: Float32Array }): Promise<DocHit[]> {
  const k = Math.floor(q.k);
  if (k <= 0) return [];
  const where = docConditions(q);
  const vector = toVectorLiteral(q.vector);
  const { exactLimit, efSearch } = ctx.annOptions;
  const ef = Math.min(MAX_EF_SEARCH, Math.max(efSearch, 2 * k));
  return ctx.db.tx(
    'vectorSearch',
    async (tx) => {
      const probe = await tx.one<{ n: string | number }>({
        text: `SELECT set_config('hnsw.ef_search', ?, true) AS ef, set_config('hnsw.iterative_scan', 'relaxed_order', true) AS scan,
          (SELECT count(*) FROM (SELECT 1 FROM engram.docs d WHERE ${where.text} AND d.embedding IS NOT NULL LIMIT ?) AS c) AS n`,
        params: [String(ef), ...where.params, exactLimit + 1],
      });
      const candidates = num(probe?.n ?? 0);
      if (candidates === 0) return [];
      if (candidates <= exactLimit || !ctx.ann?.indexed) return hits(await exact(tx, where, vector, k));
      const found = await approximate(tx, where, vector, k);
      return hits(found.length >= k ? found : await exact(tx, where, vector, k));
    },
    { readOnly: true },
  );
}
