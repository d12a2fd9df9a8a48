/**
 * pgvector detection and the HNSW column. The vector mode is a property of the schema, fixed when it is
 * created: `pgvector` when the extension is installed (or can be created) then, else `bytea` (vectors as
 * float32 bytes, scored in process). With pgvector, `docs.embedding` is typed to the first model's
 * dimension at its first init and gets an HNSW (cosine) index; that model's searches use it, while a
 * process initialised with another model searches that model's vectors in process (exact) instead.
 */
import { EngramError } from '../../../core/errors.js';
import type { ClientLike } from './pool.js';
import { qualify, quoteIdent, type SqlNames } from './sql.js';

export type VectorMode = 'pgvector' | 'bytea';
export type VectorPreference = 'auto' | VectorMode;

/** pgvector's HNSW indexes `vector` columns of at most this many dimensions. */
export const HNSW_MAX_DIMENSIONS = 2000;
/**
 * Below this many bytes a vector is stored inline (STORAGE PLAIN). pgvector's default EXTENDED storage
 * TOASTs vectors past ~2 kB (512-d already), which made every distance computation fetch and decompress.
 */
const PLAIN_STORAGE_MAX_BYTES = 6000;

async function extensionSchema(c: ClientLike): Promise<string | undefined> {
  const r = await c.query(
    `SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'vector'`,
  );
  return (r.rows[0] as { schema: string } | undefined)?.schema;
}

/**
 * The schema pgvector lives in, creating the extension if allowed; undefined when it is not available
 * (`reason` says why). Runs in a savepoint-free transaction of its own so a failure leaves no trace.
 */
export async function findOrCreateVectorExtension(c: ClientLike): Promise<{ schema?: string; reason?: string }> {
  const existing = await extensionSchema(c);
  if (existing) return { schema: existing };
  try {
    await c.query('CREATE EXTENSION IF NOT EXISTS vector');
  } catch (e) {
    // Another process may have created it meanwhile; otherwise it is not installed or not permitted.
    const again = await extensionSchema(c);
    if (again) return { schema: again };
    return { reason: e instanceof Error ? e.message : String(e) };
  }
  const created = await extensionSchema(c);
  return created ? { schema: created } : { reason: 'CREATE EXTENSION vector did not install it' };
}

export async function readMeta(c: ClientLike, schema: string, key: string): Promise<string | undefined> {
  const r = await c.query(`SELECT value FROM ${quoteIdent(schema)}.meta WHERE key = $1`, [key]);
  return (r.rows[0] as { value: string } | undefined)?.value;
}

async function writeMeta(c: ClientLike, schema: string, key: string, value: string): Promise<void> {
  await c.query(
    `INSERT INTO ${quoteIdent(schema)}.meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    [key, value],
  );
}

export interface AnnSetup {
  /** The model whose vectors `docs.embedding` holds (and the HNSW index serves). */
  model: string;
  dimension: number;
  /** An HNSW index exists (dimension within pgvector's limit). */
  indexed: boolean;
}

/**
 * On a pgvector schema, makes `docs.embedding` serve `model` if no model claimed it yet: types the column,
 * stores it inline, fills it from vectors already cached and builds the HNSW index. Returns what the
 * column serves (possibly another model). Caller holds the migration lock.
 */
export async function setupAnnColumn(c: ClientLike, names: SqlNames, model: string, dimension: number): Promise<AnnSetup> {
  const claimed = await readMeta(c, names.schema, 'ann_model');
  if (claimed !== undefined) {
    const dim = Number(await readMeta(c, names.schema, 'ann_dimension'));
    return { model: claimed, dimension: dim, indexed: dim <= HNSW_MAX_DIMENSIONS };
  }
  const q = (text: string, values?: unknown[]) => c.query(qualify(text, names), values);
  await c.query('BEGIN');
  try {
    await q(`ALTER TABLE engram.docs ALTER COLUMN embedding TYPE pgv.vector(${Math.floor(dimension)})`);
    await q(`ALTER TABLE engram.docs ALTER COLUMN embedding SET STORAGE ${dimension * 4 + 8 <= PLAIN_STORAGE_MAX_BYTES ? 'PLAIN' : 'MAIN'}`);
    await q(
      `UPDATE engram.docs d SET embedding = e.vec FROM engram.embeddings e WHERE e.model = $1 AND e.content_hash = d.content_hash`,
      [model],
    );
    const indexed = dimension <= HNSW_MAX_DIMENSIONS;
    if (indexed) {
      await q(`SET LOCAL maintenance_work_mem = '256MB'`);
      await q(`CREATE INDEX docs_embedding_hnsw ON engram.docs USING hnsw (embedding pgv.vector_cosine_ops) WITH (m = 16, ef_construction = 64)`);
    }
    await writeMeta(c, names.schema, 'ann_model', model);
    await writeMeta(c, names.schema, 'ann_dimension', String(dimension));
    await c.query('COMMIT');
    return { model, dimension, indexed };
  } catch (e) {
    await c.query('ROLLBACK');
    throw new EngramError('ADAPTER', `cannot set up the pgvector column: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}
