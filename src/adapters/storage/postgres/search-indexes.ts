/**
 * The in-process search indexes on PostgreSQL (sql/tenant-index.ts, the same ones SQLite uses): BM25 for every
 * schema, and vectors where the schema has no pgvector column for the current model. Loaded on a tenant's
 * first search from one snapshot of its docs, then kept fresh by the change feed (`doc_changes`, migration
 * 004): every search reads the tenant's epoch (one indexed row, with the filter's allow-list in the same round
 * trip); when it moved, by this process or another, the index reads the changes above its epoch and applies the
 * current state of each changed doc, instead of reloading.
 */
import { lexicalContext, lexicalText } from '../../../core/docs.js';
import { isEmpty } from '../../../core/filter.js';
import type { DocHit, DocQuery } from '../../../ports/storage.js';
import { createVectorIndex } from '../../vector/index.js';
import { Interner } from '../sql/doc-attributes.js';
import { num } from '../sql/rows.js';
import { ATTR_COLUMNS, attrsOf, lexicalHits, TenantIndex, vectorHits, type AttrRow } from '../sql/tenant-index.js';
import type { PgDb } from './db.js';
import { docConditions } from './doc-store.js';
import { sql, type Sql } from './sql.js';
import { decodeVector, vectorRead } from './vector-codec.js';
import type { VectorMode } from './vector-setup.js';

/**
 * An event doc's lexical context (core/docs.ts): the content of the event before it in its session, redacted
 * ones passed over. For a few docs (catch-up): walk back from the doc's event along (tenant, session, seq) to the
 * first event that still has content, which stays an index walk whatever the planner knows.
 */
const CONTEXT_JOIN = `LEFT JOIN LATERAL (
    SELECT c.content FROM engram.events e
    CROSS JOIN LATERAL (
      SELECT p.pk FROM engram.events p
      WHERE p.tenant = e.tenant AND p.session_id = e.session_id AND p.seq < e.seq
        AND EXISTS (SELECT 1 FROM engram.event_contents x WHERE x.event_pk = p.pk)
      ORDER BY p.seq DESC LIMIT 1) pp
    JOIN engram.event_contents c ON c.event_pk = pp.pk
    WHERE d.kind = 'event' AND e.tenant = d.tenant AND e.id = d.ref_id) ctx ON TRUE`;
/**
 * The same for a whole tenant (load) in one pass: among the events that still have content, each one's
 * predecessor in its session (a redacted event has no doc, so only these need a context).
 */
const CONTEXTS_OF_TENANT = `LEFT JOIN (
    SELECT e.id, LAG(c.content) OVER (PARTITION BY e.session_id ORDER BY e.seq) AS content
    FROM engram.events e JOIN engram.event_contents c ON c.event_pk = e.pk
    WHERE e.tenant = ? AND e.session_id IS NOT NULL) ctx ON d.kind = 'event' AND ctx.id = d.ref_id`;

type DocRow = AttrRow & { doc_id: string | number | null; text: string | null; context: string | null; vec?: Uint8Array | null };

interface Tenant {
  index: TenantIndex;
  epoch: number;
}

export interface IndexOptions {
  model: string;
  dimension: number;
  mode: VectorMode;
  /** Vectors are searched here (no pgvector column serves the model). */
  vectors: boolean;
}

export class InProcessIndexes {
  private readonly tenants = new Map<string, Tenant>();
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly interner = new Interner();

  constructor(
    private readonly db: PgDb,
    private readonly opts: IndexOptions,
  ) {}

  async lexicalSearch(q: DocQuery & { text: string }): Promise<{ hits: DocHit[]; termBest: number[] }> {
    const { index, allowed } = await this.current(q);
    if (allowed?.size === 0) return lexicalHits(index.lexicon, index.attrs, { ...q, k: 0 });
    return lexicalHits(index.lexicon, index.attrs, q, allowed);
  }

  async vectorSearch(q: DocQuery & { vector: Float32Array }): Promise<DocHit[]> {
    const { index, allowed } = await this.current(q);
    if (allowed?.size === 0 || !index.vectors) return [];
    return vectorHits(index.vectors, index.attrs, q, allowed);
  }

  /** Loads (or catches up) the tenant's indexes and completes the vector graph. */
  async warm(tenant: string): Promise<void> {
    const row = await this.db.one<{ epoch: string | number | null }>(sql('SELECT vector_epoch AS epoch FROM engram.tenant_state WHERE tenant = ?', tenant));
    const t = await this.sync(tenant, num(row?.epoch ?? 0));
    t.index.vectors?.flush?.();
  }

  /** The tenant's indexes at (at least) the epoch the query reads, and the filter's allow-list. */
  private async current(q: DocQuery): Promise<{ index: TenantIndex; allowed: Set<number> | undefined }> {
    const filtered = !isEmpty(q.filter);
    const where = docConditions(q);
    const row = await this.db.one<{ epoch: string | number | null; ids: (string | number)[] | null }>({
      text: `SELECT (SELECT vector_epoch FROM engram.tenant_state WHERE tenant = ?) AS epoch${
        filtered ? `, ARRAY(SELECT d.doc_id FROM engram.docs d WHERE ${where.text}) AS ids` : ''
      }`,
      params: [q.tenant, ...(filtered ? where.params : [])],
    });
    const t = await this.sync(q.tenant, num(row?.epoch ?? 0));
    return { index: t.index, allowed: filtered ? new Set((row?.ids ?? []).map(num)) : undefined };
  }

  /** One load or catch-up at a time per tenant; searches queue behind it. */
  private sync(tenant: string, epoch: number): Promise<Tenant> {
    const known = this.tenants.get(tenant);
    if (known && known.epoch >= epoch) return Promise.resolve(known);
    const run = (this.queues.get(tenant) ?? Promise.resolve()).then(() => this.syncNow(tenant, epoch));
    this.queues.set(tenant, run.catch(() => undefined));
    return run;
  }

  private async syncNow(tenant: string, epoch: number): Promise<Tenant> {
    let t = this.tenants.get(tenant);
    if (!t) {
      t = await this.load(tenant);
      this.tenants.set(tenant, t);
    }
    if (t.epoch < epoch && !(await this.catchUp(tenant, t, epoch))) {
      this.tenants.delete(tenant);
      return this.syncNow(tenant, epoch);
    }
    return t;
  }

  /** The doc columns an index entry needs, and the joins for its context and (in-process vectors) its vector. */
  private columns(context: Sql): { select: string; join: string; params: Sql['params'] } {
    const { vectors, mode, model } = this.opts;
    return {
      select: `d.doc_id, d.text, ${ATTR_COLUMNS}, ctx.content AS context${vectors ? `, ${vectorRead(mode, 'em.vec')} AS vec` : ''}`,
      join: `${context.text}${vectors ? ' LEFT JOIN engram.embeddings em ON em.model = ? AND em.content_hash = d.content_hash' : ''}`,
      params: [...context.params, ...(vectors ? [model] : [])],
    };
  }

  private put(index: TenantIndex, r: DocRow): void {
    const vector = r.vec ? decodeVector(this.opts.mode, r.vec) : undefined;
    index.put(num(r.doc_id!), lexicalText(r.text!, lexicalContext(r.context)), attrsOf(r), vector);
  }

  /** The tenant's docs and epoch from one snapshot, so the index is exactly the state at that epoch. */
  private load(tenant: string): Promise<Tenant> {
    const c = this.columns(sql(CONTEXTS_OF_TENANT, tenant));
    return this.db.tx(
      'search (load index)',
      async (tx) => {
        const e = await tx.one<{ vector_epoch: string | number }>(sql('SELECT vector_epoch FROM engram.tenant_state WHERE tenant = ?', tenant));
        const rows = await tx.rows<DocRow>({ text: `SELECT ${c.select} FROM engram.docs d ${c.join} WHERE d.tenant = ?`, params: [...c.params, tenant] });
        const index = new TenantIndex(this.interner, this.opts.vectors ? createVectorIndex(this.opts.dimension) : undefined, this.opts.dimension);
        for (const r of rows) this.put(index, r);
        return { index, epoch: num(e?.vector_epoch ?? 0) };
      },
      { readOnly: true, snapshot: true },
    );
  }

  /**
   * Applies the changes above the index's epoch up to `epoch`: each changed doc is removed and, if it exists
   * now, put back as it is now (a later change to it is applied again, harmlessly). False when the feed says
   * to reload.
   */
  private async catchUp(tenant: string, t: Tenant, epoch: number): Promise<boolean> {
    const c = this.columns(sql(CONTEXT_JOIN));
    const rows = await this.db.rows<DocRow & { changed: string | number }>({
      text: `SELECT DISTINCT ON (ch.doc_id) ch.doc_id AS changed, ${c.select}
        FROM engram.doc_changes ch LEFT JOIN engram.docs d ON d.tenant = ch.tenant AND d.doc_id = ch.doc_id ${c.join}
        WHERE ch.tenant = ? AND ch.epoch > ? AND ch.epoch <= ?`,
      params: [...c.params, tenant, t.epoch, epoch],
    });
    if (rows.some((r) => num(r.changed) === 0)) return false;
    for (const r of rows) {
      if (r.doc_id === null) t.index.remove(num(r.changed));
      else this.put(t.index, r);
    }
    t.epoch = epoch;
    return true;
  }
}
