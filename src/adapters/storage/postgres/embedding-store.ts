/**
 * The embedding cache: one vector per (model, content hash), shared by every doc whose text has that hash
 * (across tenants, as in the SQLite adapter: the port's embedding calls carry no tenant). On pgvector,
 * putting vectors of the column's model also fills `docs.embedding` of the docs with those hashes.
 */
import { assertVector } from '../sql/vector-codec.js';
import type { PendingEmbedding } from '../../../ports/storage.js';
import type { PgContext } from './context.js';
import type { AddedDoc, Tx } from './db.js';
import { num } from '../sql/rows.js';
import { ATTR_COLUMNS, attrsOf, type AttrRow } from '../sql/tenant-index.js';
import { sql } from './sql.js';
import { decodeVector, vectorParam, vectorRead } from './vector-codec.js';

const MISSING_VECTOR = 'NOT EXISTS (SELECT 1 FROM engram.embeddings e WHERE e.model = ? AND e.content_hash = d.content_hash)';

/**
 * Distinct hashes of docs with no vector for the current model, oldest doc first, with that doc's text.
 * Reads in pages of doc rows until `limit` distinct hashes are found (docs sharing text share a hash).
 */
export async function pendingEmbeddings(ctx: PgContext, limit: number): Promise<PendingEmbedding[]> {
  if (limit <= 0) return [];
  const out = new Map<string, PendingEmbedding>();
  let after = 0;
  const page = Math.max(64, limit * 2);
  for (;;) {
    const rows = await ctx.db.rows<{ doc_id: string | number; content_hash: string; text: string }>(
      sql(`SELECT d.doc_id, d.content_hash, d.text FROM engram.docs d WHERE d.doc_id > ? AND ${MISSING_VECTOR} ORDER BY d.doc_id LIMIT ?`, after, ctx.model, page),
    );
    for (const r of rows) {
      if (!out.has(r.content_hash)) out.set(r.content_hash, { contentHash: r.content_hash, text: r.text });
      if (out.size >= limit) return [...out.values()];
    }
    if (rows.length < page) return [...out.values()];
    after = num(rows.at(-1)!.doc_id);
  }
}

export async function embeddingBacklog(ctx: PgContext, upTo?: number): Promise<number> {
  if (upTo !== undefined && upTo <= 0) return 0;
  const row =
    upTo === undefined
      ? await ctx.db.one<{ n: string | number }>(sql(`SELECT COUNT(DISTINCT d.content_hash) AS n FROM engram.docs d WHERE ${MISSING_VECTOR}`, ctx.model))
      : await ctx.db.one<{ n: string | number }>(
          sql(`SELECT COUNT(*) AS n FROM (SELECT DISTINCT d.content_hash FROM engram.docs d WHERE ${MISSING_VECTOR} LIMIT ?) s`, ctx.model, upTo),
        );
  return num(row?.n ?? 0);
}

/**
 * Upserts vectors (all checked first: one bad vector writes nothing). Tenants whose docs use these hashes
 * get their vector epoch bumped, so in-process indexes (here and in other processes) pick the vectors up.
 */
export async function putEmbeddings(ctx: PgContext, rows: readonly { contentHash: string; vector: Float32Array }[]): Promise<void> {
  rows.forEach((r, i) => assertVector(r.vector, ctx.dimension, `embeddings.${i}.vector`));
  if (rows.length === 0) return;
  const latest = new Map(rows.map((r) => [r.contentHash, r.vector]));
  const hashes = [...latest.keys()];
  const params = [...latest.values()].map((v) => vectorParam(ctx.mode, v));
  await ctx.db.tx('putEmbeddings', async (tx) => {
    await tx.exec({
      text: `INSERT INTO engram.embeddings (model, content_hash, dimension, vec)
        SELECT ?, u.h, ?, u.v${ctx.mode === 'pgvector' ? '::pgv.vector' : ''}
        FROM unnest(?::text[], ?::${ctx.mode === 'pgvector' ? 'text' : 'bytea'}[]) AS u(h, v)
        ON CONFLICT (model, content_hash) DO UPDATE SET dimension = excluded.dimension, vec = excluded.vec`,
      params: [ctx.model, ctx.dimension, hashes, params],
    });
    if (ctx.ann?.model === ctx.model) {
      await tx.exec(
        sql(
          `UPDATE engram.docs d SET embedding = e.vec FROM engram.embeddings e
           WHERE e.model = ? AND e.content_hash = d.content_hash AND d.content_hash = ANY(?::text[])`,
          ctx.model,
          hashes,
        ),
      );
    }
    await noteVectorsAdded(tx, latest);
  });
}

/** Lists the docs whose texts just got vectors, so every process's in-process index hears of them (doc_changes). */
async function noteVectorsAdded(tx: Tx, vectors: Map<string, Float32Array>): Promise<void> {
  const rows = await tx.rows<{ tenant: string; doc_id: string | number; content_hash: string } & AttrRow>(
    sql(`SELECT d.tenant, d.doc_id, d.content_hash, ${ATTR_COLUMNS} FROM engram.docs d WHERE d.content_hash = ANY(?::text[])`, [...vectors.keys()]),
  );
  const byTenant = new Map<string, AddedDoc[]>();
  for (const r of rows) {
    const list = byTenant.get(r.tenant) ?? [];
    byTenant.set(r.tenant, list);
    list.push({ docId: num(r.doc_id), contentHash: r.content_hash, ...attrsOf(r), vector: vectors.get(r.content_hash) });
  }
  for (const [tenant, docs] of byTenant) tx.vectorsAdded(tenant, docs);
}

export async function getEmbeddings(ctx: PgContext, hashes: readonly string[]): Promise<Map<string, Float32Array>> {
  const out = new Map<string, Float32Array>();
  if (hashes.length === 0) return out;
  const rows = await ctx.db.rows<{ content_hash: string; vec: Uint8Array }>({
    text: `SELECT content_hash, ${vectorRead(ctx.mode, 'vec')} AS vec FROM engram.embeddings WHERE model = ? AND content_hash = ANY(?::text[])`,
    params: [ctx.model, [...hashes]],
  });
  for (const r of rows) out.set(r.content_hash, decodeVector(ctx.mode, r.vec));
  return out;
}


/** The dimension vectors of this model were stored with, if any (to refuse a mismatched init). */
export async function storedDimension(ctx: Pick<PgContext, 'db'>, model: string): Promise<number | undefined> {
  const row = await ctx.db.one<{ dimension: number }>(sql('SELECT dimension FROM engram.embeddings WHERE model = ? LIMIT 1', model));
  return row?.dimension;
}
