/**
 * The embedding cache: one vector per (model, content hash), shared by every doc whose text has that hash
 * (across tenants: the port's embedding calls carry no tenant, and the hash is of the text itself).
 */
import type { PendingEmbedding } from '../../../ports/storage.js';
import type { StoreContext } from './context.js';
import { assertVector, blobToVector, vectorToBlob } from '../sql/vector-codec.js';

const MISSING_VECTOR = 'NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.model = ? AND e.content_hash = d.content_hash)';

/** Distinct hashes of docs with no vector for the current model, oldest doc first, with that doc's text. */
export function pendingEmbeddings(ctx: StoreContext, limit: number): PendingEmbedding[] {
  if (limit <= 0) return [];
  return snapshot(ctx, () => pendingIn(ctx, limit));
}

/**
 * Runs reads in one transaction, so the cursor is advanced from a single snapshot (a doc another process
 * inserts meanwhile is either seen as missing or has an id above the cursor).
 */
function snapshot<T>(ctx: StoreContext, fn: () => T): T {
  return ctx.db.inTransaction ? fn() : ctx.db.transaction(fn).deferred();
}

function pendingIn(ctx: StoreContext, limit: number): PendingEmbedding[] {
  const from = ctx.cursor.embeddedThrough;
  const rows = ctx.stmts
    .get(`SELECT d.doc_id, d.content_hash, d.text FROM docs d WHERE d.doc_id > ? AND ${MISSING_VECTOR} ORDER BY d.doc_id`)
    .iterate(from, ctx.model) as IterableIterator<{ doc_id: number; content_hash: string; text: string }>;
  const out = new Map<string, PendingEmbedding>();
  let first: number | undefined;
  for (const r of rows) {
    first ??= r.doc_id;
    if (!out.has(r.content_hash)) out.set(r.content_hash, { contentHash: r.content_hash, text: r.text });
    if (out.size >= limit) break; // leaving the loop resets the statement
  }
  advanceCursor(ctx, first);
  return [...out.values()];
}

export function embeddingBacklog(ctx: StoreContext, upTo?: number): number {
  return snapshot(ctx, () => {
    if (upTo === undefined) {
      const row = ctx.stmts
        .get(`SELECT COUNT(DISTINCT d.content_hash) AS n, MIN(d.doc_id) AS first FROM docs d WHERE d.doc_id > ? AND ${MISSING_VECTOR}`)
        .get(ctx.cursor.embeddedThrough, ctx.model) as { n: number; first: number | null };
      advanceCursor(ctx, row.first ?? undefined);
      return row.n;
    }
    if (upTo <= 0) return 0;
    // Distinct hashes in doc order, stopping at `upTo`: the scan ends as soon as that many are found.
    const n = ctx.stmts
      .get(`SELECT COUNT(*) FROM (SELECT DISTINCT d.content_hash FROM docs d WHERE d.doc_id > ? AND ${MISSING_VECTOR} LIMIT ?)`)
      .pluck()
      .get(ctx.cursor.embeddedThrough, ctx.model, upTo) as number;
    const first = ctx.stmts
      .get(`SELECT d.doc_id FROM docs d WHERE d.doc_id > ? AND ${MISSING_VECTOR} ORDER BY d.doc_id LIMIT 1`)
      .pluck()
      .get(ctx.cursor.embeddedThrough, ctx.model) as number | undefined;
    advanceCursor(ctx, first);
    return n;
  });
}

/**
 * Moves the cursor up to just below the first doc found missing a vector; with none missing, up to the
 * newest doc at the time of the query (docs added later get higher ids, so they stay ahead of it).
 */
function advanceCursor(ctx: StoreContext, firstMissing: number | undefined): void {
  const through =
    firstMissing !== undefined ? firstMissing - 1 : ((ctx.stmts.get('SELECT MAX(doc_id) FROM docs').pluck().get() as number | null) ?? 0);
  if (through > ctx.cursor.embeddedThrough) ctx.cursor.embeddedThrough = through;
}

/** Upserts vectors (all checked first: one bad vector writes nothing) and makes their docs vector-searchable. */
export function putEmbeddings(ctx: StoreContext, rows: readonly { contentHash: string; vector: Float32Array }[]): void {
  rows.forEach((r, i) => assertVector(r.vector, ctx.dimension, `embeddings.${i}.vector`));
  if (rows.length === 0) return;
  const upsert = ctx.stmts.get(
    `INSERT INTO embeddings (model, content_hash, dimension, vector) VALUES (?, ?, ?, ?)
     ON CONFLICT (model, content_hash) DO UPDATE SET dimension = excluded.dimension, vector = excluded.vector`,
  );
  // Derived data: a batch lost to a power failure is simply pending again (see writeRelaxed), and skipping
  // its fsync keeps background indexing from queueing behind foreground appends on the disk.
  ctx.writeRelaxed(() => {
    for (const r of rows) upsert.run(ctx.model, r.contentHash, ctx.dimension, vectorToBlob(r.vector));
    ctx.vectors.embeddingsAdded(rows);
  });
}

export function getEmbeddings(ctx: StoreContext, hashes: readonly string[]): Map<string, Float32Array> {
  const out = new Map<string, Float32Array>();
  if (hashes.length === 0) return out;
  const rows = ctx.stmts
    .get('SELECT content_hash, vector FROM embeddings WHERE model = ? AND content_hash IN (SELECT value FROM json_each(?))')
    .all(ctx.model, JSON.stringify(hashes)) as { content_hash: string; vector: Buffer }[];
  for (const r of rows) out.set(r.content_hash, blobToVector(r.vector));
  return out;
}


/** The dimension vectors of this model were stored with, if any (to refuse a mismatched init). */
export function storedDimension(ctx: Pick<StoreContext, 'stmts'>, model: string): number | undefined {
  return ctx.stmts.get('SELECT dimension FROM embeddings WHERE model = ? LIMIT 1').pluck().get(model) as number | undefined;
}
