/**
 * Per-tenant in-memory vector indexes over the docs that have an embedding for the current model.
 *
 * Opened lazily on a tenant's first vector search (from its saved file when usable, HNSW graph included, else
 * from the rows), then kept in step by this process's writes (doc added with an already-cached vector, doc
 * removed, embeddings put) and by the change feed for other processes' commits (see PerTenant). A write
 * transaction that fails drops them (its hooks may have run).
 */
import { createVectorIndex, UsearchVectorIndex } from '../../vector/index.js';
import type { VectorIndex } from '../../../ports/vector-index.js';
import type { DocHit, DocQuery } from '../../../ports/storage.js';
import { DocAttributes, Interner, type DocAttrInput } from '../sql/doc-attributes.js';
import { tenantFileName } from '../sql/index-file.js';
import { loadIndexParts, saveIndexParts } from '../sql/index-snapshot.js';
import type { IndexFiles } from './lexical-cache.js';
import { PerTenant, type DocFeed, type TenantSource } from './per-tenant.js';
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

export class VectorCache implements TenantSource<TenantVectors> {
  readonly name = 'vectors';
  private readonly tenants: PerTenant<TenantVectors>;
  private readonly interner = new Interner();
  readonly restore?: TenantSource<TenantVectors>['restore'];
  readonly save?: TenantSource<TenantVectors>['save'];

  constructor(
    feed: DocFeed,
    private readonly stmts: StatementCache,
    private readonly model: string,
    private readonly dimension: number,
    files: IndexFiles,
  ) {
    const { dir } = files;
    if (dir) {
      const path = (tenant: string) => `${dir}/${tenantFileName(tenant)}.vectors.idx`;
      const describes = (tenant: string) => ({ engine: 'sqlite', index: 'vectors', model, dimension, tenant });
      this.restore = (tenant) => {
        const t = this.empty();
        const r = loadIndexParts(path(tenant), describes(tenant), { lexicon: false, attrs: t.attrs, vectors: t.index });
        return r.ok ? { ok: true, value: t, covers: r.covers } : r;
      };
      this.save = (tenant, t, covers) => saveIndexParts(path(tenant), describes(tenant), covers, { attrs: t.attrs, vectors: t.index });
    }
    this.tenants = new PerTenant(feed, this, files.onEvent);
  }

  /** Drops every loaded index; the next search opens it again. */
  invalidate(): void {
    this.tenants.invalidate();
  }

  advance(before: number, after: number): void {
    this.tenants.advance(before, after);
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

  /** Saves every loaded tenant's file that is not current (close). */
  saveAll(): void {
    this.tenants.saveAll();
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

  private empty(): TenantVectors {
    return { index: createVectorIndex(this.dimension), attrs: new DocAttributes(this.interner) };
  }

  private add(tv: TenantVectors, docId: number, vector: Float32Array, attrs: DocAttrInput): void {
    if (vector.length !== this.dimension) return;
    tv.index.add(docId, unit(vector));
    tv.attrs.set(docId, attrs);
  }
}
