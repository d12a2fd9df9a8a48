/**
 * Per-tenant in-memory vector indexes over the docs that have an embedding for the current model.
 *
 * Loaded lazily on a tenant's first vector search, then kept in step by this process's writes (doc added
 * with an already-cached vector, doc removed, embeddings put); another process's commit makes them reload
 * (see PerTenant). A write transaction that fails also drops them (its hooks may have run).
 */
import { createVectorIndex } from '../../vector/index.js';
import type { VectorIndex } from '../../../ports/vector-index.js';
import type { DocHit, DocQuery } from '../../../ports/storage.js';
import type { Db } from './connection.js';
import { DocAttributes, Interner, type DocAttrInput } from '../sql/doc-attributes.js';
import { PerTenant } from './per-tenant.js';
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

export class VectorCache {
  private readonly tenants: PerTenant<TenantVectors>;
  private readonly interner = new Interner();

  constructor(
    db: Db,
    private readonly stmts: StatementCache,
    private readonly model: string,
    private readonly dimension: number,
  ) {
    this.tenants = new PerTenant(db, (tenant) => this.load(tenant));
  }

  /** Drops every loaded index; the next search reloads from the file. */
  invalidate(): void {
    this.tenants.invalidate();
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

  /** Loads the tenant's index and completes its HNSW graph (see Storage.warm). */
  warm(tenant: string): void {
    this.tenants.get(tenant).index.flush?.();
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

  docsRemoved(tenant: string, docIds: readonly number[]): void {
    const tv = this.tenants.loaded(tenant);
    if (!tv) return;
    for (const id of docIds) {
      tv.index.remove(id);
      tv.attrs.delete(id);
    }
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

  private add(tv: TenantVectors, docId: number, vector: Float32Array, attrs: DocAttrInput): void {
    if (vector.length !== this.dimension) return;
    tv.index.add(docId, unit(vector));
    tv.attrs.set(docId, attrs);
  }

  private load(tenant: string): TenantVectors {
    const tv: TenantVectors = { index: createVectorIndex(this.dimension), attrs: new DocAttributes(this.interner) };
    const rows = this.stmts
      .get(
        `SELECT d.doc_id, ${ATTR_COLUMNS}, e.vector FROM docs d
         JOIN embeddings e ON e.model = ? AND e.content_hash = d.content_hash
         WHERE d.tenant = ?`,
      )
      .iterate(this.model, tenant) as IterableIterator<LoadRow>;
    for (const r of rows) this.add(tv, r.doc_id, blobToVector(r.vector), attrsOf(r));
    return tv;
  }
}
