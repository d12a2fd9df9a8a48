/**
 * Per-tenant in-memory vector indexes over the docs that have an embedding for the current model.
 *
 * Opened lazily on a tenant's first vector search (from its saved file when usable, HNSW graph included, else
 * from the rows), then kept in step by this process's writes (doc added with an already-cached vector, doc
 * removed, embeddings put) and by the change feed for other processes' commits (see PerTenant). A write
 * transaction that fails drops them (its hooks may have run).
 */
import { createVectorIndex, UsearchVectorIndex, vectorIndexSavable, type VectorIndexOptions } from '../../vector/index.js';
import type { VectorIndex } from '../../../ports/vector-index.js';
import type { DocHit, DocQuery } from '../../../ports/storage.js';
import { DocAttributes, Interner, type DocAttrInput } from '../sql/doc-attributes.js';
import type { IndexParts, loadIndexParts } from '../sql/index-snapshot.js';
import type { DocFeed } from './per-tenant.js';
import { TenantCache, type IndexFiles } from './tenant-cache.js';
import type { StatementCache } from './statements.js';
import { blobToVector, unit } from '../sql/vector-codec.js';
import { ATTR_COLUMNS, attrsOf, vectorHits, type AttrRow } from '../sql/tenant-index.js';

interface TenantVectors {
  index: VectorIndex;
  attrs: DocAttributes;
}

interface LoadRow extends AttrRow {
  doc_id: number;
  vector: Buffer;
}

const VECTOR_ROWS = `SELECT d.doc_id, ${ATTR_COLUMNS}, e.vector FROM docs d
  JOIN embeddings e ON e.model = ? AND e.content_hash = d.content_hash
  WHERE d.tenant = ?`;

export class VectorCache extends TenantCache<TenantVectors> {
  private readonly interner = new Interner();

  constructor(
    feed: DocFeed,
    private readonly stmts: StatementCache,
    private readonly model: string,
    private readonly dimension: number,
    files: IndexFiles,
    /** Vector index options; the f32 row files go to the index directory unless they name another. */
    vectorOptions: VectorIndexOptions = {},
  ) {
    super('vectors', feed, files, { model, dimension });
    this.vectorOptions = { ...(files.dir ? { rowDir: files.dir } : {}), ...vectorOptions };
  }

  private readonly vectorOptions: VectorIndexOptions;

  savable(t: TenantVectors): boolean {
    return vectorIndexSavable(t.index);
  }

  protected parts(t: TenantVectors): IndexParts {
    return { attrs: t.attrs, vectors: t.index };
  }
  protected partsToLoad(t: TenantVectors): Parameters<typeof loadIndexParts>[2] {
    return { lexicon: false, attrs: t.attrs, vectors: t.index };
  }
  protected restored(t: TenantVectors): TenantVectors {
    return t;
  }

  /**
   * Exact (or ANN, per the index) nearest docs. `allowed`, when given, is the SQL-computed set of doc ids
   * passing the metadata filter; scope, kinds and expiry are checked in memory per candidate.
   */
  search(q: DocQuery & { vector: Float32Array }, allowed?: ReadonlySet<number>): DocHit[] {
    if (q.k <= 0) return [];
    const tv = this.tenants.get(q.tenant);
    return vectorHits(tv.index, tv.attrs, q, allowed);
  }

  /** Loads the tenant's index, completes its HNSW graph (see Storage.warm) and saves its file when not current. */
  warm(tenant: string): void {
    this.tenants.get(tenant).index.flush?.();
    this.tenants.save(tenant, false);
  }

  /** False while the HNSW graph is still being built in the background. */
  settled(t: TenantVectors): boolean {
    return !(t.index instanceof UsearchVectorIndex) || t.index.stats().pending === 0;
  }

  /** A doc was inserted; if its tenant is loaded and its text already has a vector, it becomes searchable. */
  docAdded(tenant: string, docId: number, contentHash: string, attrs: DocAttrInput): void {
    const tv = this.tenants.loaded(tenant);
    if (!tv) return;
    const row = this.stmts
      .get('SELECT vector FROM embeddings WHERE model = ? AND content_hash = ?')
      .get(this.model, contentHash) as { vector: Buffer } | undefined;
    if (!row) return;
    this.add(tv, docId, blobToVector(row.vector), attrs);
  }

  /** New vectors: every loaded tenant's docs with those hashes become searchable. */
  embeddingsAdded(rows: readonly { contentHash: string; vector: Float32Array }[]): void {
    if (this.tenants.empty) return;
    const stmt = this.stmts.get(`SELECT d.doc_id, d.tenant, ${ATTR_COLUMNS} FROM docs d WHERE d.content_hash = ?`);
    for (const { contentHash, vector } of rows) {
      for (const r of stmt.all(contentHash) as (AttrRow & { doc_id: number; tenant: string })[]) {
        const tv = this.tenants.loaded(r.tenant);
        if (tv) this.add(tv, r.doc_id, vector, attrsOf(r));
      }
    }
  }

  load(tenant: string): TenantVectors {
    const tv = this.empty();
    const rows = this.stmts.get(VECTOR_ROWS).iterate(this.model, tenant) as IterableIterator<LoadRow>;
    for (const r of rows) this.add(tv, r.doc_id, blobToVector(r.vector), attrsOf(r));
    return tv;
  }

  apply(tenant: string, tv: TenantVectors, docIds: readonly number[]): void {
    const rows = this.stmts
      .get(`${VECTOR_ROWS} AND d.doc_id IN (SELECT value FROM json_each(?))`)
      .all(this.model, tenant, JSON.stringify(docIds)) as LoadRow[];
    const present = new Set(rows.map((r) => r.doc_id));
    for (const id of docIds) {
      if (present.has(id)) continue;
      tv.index.remove(id);
      tv.attrs.delete(id);
    }
    for (const r of rows) this.add(tv, r.doc_id, blobToVector(r.vector), attrsOf(r));
  }

  protected empty(): TenantVectors {
    return { index: createVectorIndex(this.dimension, this.vectorOptions), attrs: new DocAttributes(this.interner) };
  }

  private add(tv: TenantVectors, docId: number, vector: Float32Array, attrs: DocAttrInput): void {
    if (vector.length !== this.dimension) return;
    tv.index.add(docId, unit(vector));
    tv.attrs.set(docId, attrs);
  }
}
