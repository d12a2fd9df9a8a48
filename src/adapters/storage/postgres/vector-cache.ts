/**
 * Vector search in process, for schemas without pgvector (vectors as bytea) and for a model the pgvector
 * column does not serve: per-tenant indexes from `createVectorIndex` over the docs that have a vector for
 * the current model, loaded lazily on a tenant's first search.
 *
 * Freshness across processes: every committed write that changes a tenant's docs or vectors bumps its
 * `tenant_state.vector_epoch`. A search reads the epoch (one indexed row) and reloads the tenant when it
 * moved. This process's own commits report their new epoch and what they changed; when the index was at
 * the epoch just before, it applies the changes in place instead of reloading.
 */
import { createVectorIndex } from '../../vector/index.js';
import type { VectorIndex } from '../../../ports/vector-index.js';
import type { DocHit, DocQuery } from '../../../ports/storage.js';
import { DocAttributes, Interner, type DocAttrInput } from '../sql/doc-attributes.js';
import { unit } from '../sql/vector-codec.js';
import { isEmpty } from '../../../core/filter.js';
import type { CommitInfo, PgDb } from './db.js';
import { docConditions } from './doc-store.js';
import { num } from '../sql/rows.js';
import { sql } from './sql.js';
import { decodeVector, vectorRead } from './vector-codec.js';
import type { VectorMode } from './vector-setup.js';

interface TenantVectors {
  index: VectorIndex;
  attrs: DocAttributes;
  epoch: number;
}

interface LoadRow {
  doc_id: string | number;
  kind: string;
  user_id: string | null;
  agent_id: string | null;
  session_id: string | null;
  task_id: string | null;
  expires_at: number | null;
  vec: Uint8Array;
}

const attrsOf = (r: Omit<LoadRow, 'doc_id' | 'vec'>): DocAttrInput => ({
  kind: r.kind,
  userId: r.user_id,
  agentId: r.agent_id,
  sessionId: r.session_id,
  taskId: r.task_id,
  expiresAt: r.expires_at,
});

export class InProcessVectors {
  private readonly tenants = new Map<string, TenantVectors>();
  private readonly loading = new Map<string, Promise<TenantVectors>>();
  private readonly interner = new Interner();

  constructor(
    private readonly db: PgDb,
    private readonly model: string,
    private readonly dimension: number,
    private readonly mode: VectorMode,
  ) {}

  isLoaded(tenant: string): boolean {
    return this.tenants.has(tenant) || this.loading.has(tenant);
  }

  loadedTenants(): string[] {
    return [...new Set([...this.tenants.keys(), ...this.loading.keys()])];
  }

  /**
   * Nearest docs among those passing scope, kinds, expiry (checked in memory per candidate) and the
   * filter (an allow-list computed in SQL, read in the same round trip as the epoch).
   */
  async search(q: DocQuery & { vector: Float32Array }): Promise<DocHit[]> {
    if (q.k <= 0) return [];
    const filtered = !isEmpty(q.filter);
    const where = docConditions(q);
    const row = await this.db.one<{ epoch: string | number | null; ids: (string | number)[] | null }>({
      text: `SELECT (SELECT vector_epoch FROM engram.tenant_state WHERE tenant = ?) AS epoch${
        filtered ? `, ARRAY(SELECT d.doc_id FROM engram.docs d WHERE ${where.text}) AS ids` : ''
      }`,
      params: [q.tenant, ...(filtered ? where.params : [])],
    });
    const allowed = filtered ? new Set((row?.ids ?? []).map(num)) : undefined;
    if (allowed?.size === 0) return [];
    const tv = await this.tenant(q.tenant, num(row?.epoch ?? 0));
    const pred = tv.attrs.compile(q.scope, q.kinds, q.now);
    if (!pred || tv.index.size === 0) return [];
    const hits = tv.index.search(unit(q.vector), q.k, { ...(allowed ? { allowed } : {}), accept: (id) => tv.attrs.accepts(id, pred) });
    return hits.map((h) => ({ docId: h.id, score: h.score }));
  }

  /** Applies this process's committed changes to loaded indexes that were current just before them. */
  applyCommit(info: CommitInfo): void {
    for (const [tenant, epoch] of info.epochs) {
      const tv = this.tenants.get(tenant);
      if (!tv) continue;
      const changes = info.changes.get(tenant);
      const addsKnown = changes?.added.every((d) => d.vector !== undefined) ?? true;
      if (tv.epoch !== epoch - 1 || !addsKnown || changes?.complete === false) {
        this.tenants.delete(tenant);
        continue;
      }
      for (const id of changes?.removed ?? []) {
        tv.index.remove(id);
        tv.attrs.delete(id);
      }
      for (const d of changes?.added ?? []) {
        if (d.vector) this.add(tv, d.docId, d.vector, { ...d, expiresAt: d.expiresAt });
      }
      tv.epoch = epoch;
    }
  }

  private add(tv: TenantVectors, docId: number, vector: Float32Array, attrs: DocAttrInput): void {
    if (vector.length !== this.dimension) return;
    tv.index.add(docId, unit(vector));
    tv.attrs.set(docId, attrs);
  }

  private async tenant(tenant: string, epoch: number): Promise<TenantVectors> {
    const tv = this.tenants.get(tenant);
    if (tv && tv.epoch === epoch) return tv;
    let pending = this.loading.get(tenant);
    if (!pending) {
      pending = this.load(tenant).finally(() => this.loading.delete(tenant));
      this.loading.set(tenant, pending);
    }
    const loaded = await pending;
    this.tenants.set(tenant, loaded);
    return loaded;
  }

  /** Reads the epoch and the vectors in one snapshot, so the index is exactly the state at that epoch. */
  private load(tenant: string): Promise<TenantVectors> {
    return this.db.tx(
      'vectorSearch (load index)',
      async (tx) => {
        const e = await tx.one<{ vector_epoch: string | number }>(sql('SELECT vector_epoch FROM engram.tenant_state WHERE tenant = ?', tenant));
        const rows = await tx.rows<LoadRow>(
          sql(
            `SELECT d.doc_id, d.kind, d.user_id, d.agent_id, d.session_id, d.task_id, d.expires_at, ${vectorRead(this.mode, 'e.vec')} AS vec
             FROM engram.docs d JOIN engram.embeddings e ON e.model = ? AND e.content_hash = d.content_hash
             WHERE d.tenant = ?`,
            this.model,
            tenant,
          ),
        );
        const tv: TenantVectors = { index: createVectorIndex(this.dimension), attrs: new DocAttributes(this.interner), epoch: num(e?.vector_epoch ?? 0) };
        for (const r of rows) this.add(tv, num(r.doc_id), decodeVector(this.mode, r.vec), attrsOf(r));
        return tv;
      },
      { readOnly: true, snapshot: true },
    );
  }
}
