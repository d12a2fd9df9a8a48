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
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ANALYZER_VERSION } from '../../lexical/analyzer.js';
import { createVectorIndex, UsearchVectorIndex, vectorIndexSavable, type VectorIndexOptions } from '../../vector/index.js';
import { tenantFileName, type IndexEvent, type IndexFileHeader } from '../sql/index-file.js';
import { dropIndexParts, loadIndexParts, saveIndexParts } from '../sql/index-snapshot.js';
import { Interner } from '../sql/doc-attributes.js';
import { num } from '../sql/rows.js';
import { ATTR_COLUMNS, attrsOf, lexicalHits, TenantIndex, vectorHits, type AttrRow } from '../sql/tenant-index.js';
import { committedWrites, type PgDb } from './db.js';
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
  /** Docs re-read since its file was saved (or loaded). */
  dirty: number;
  /** Its file is current. */
  saved: boolean;
}

/** After this many changed docs a tenant's file is saved again (see docs/scaling.md). */
const SAVE_AFTER_CHANGES = 20_000;
/** Feed rows are pruned at most this often per process. */
const PRUNE_EVERY_MS = 60_000;

export interface IndexOptions {
  model: string;
  dimension: number;
  mode: VectorMode;
  /** Vectors are searched here (no pgvector column serves the model). */
  vectors: boolean;
  /** This node's directory for saved index files (none: every first search loads from the rows). */
  indexDir?: string | undefined;
  /** The schema, part of the files' names. */
  schema: string;
  /** Feed rows older than this are pruned (after a save); a reader behind them reloads. Default one day. */
  feedRetentionMs?: number | undefined;
  onIndexEvent?: ((e: IndexEvent) => void) | undefined;
  /** Options of the in-process vector indexes (tests lower `annThreshold`). */
  vectorIndex?: VectorIndexOptions | undefined;
}

/** One day: a node that was away longer loads its tenants from the rows (or a newer file) when it returns. */
export const DEFAULT_FEED_RETENTION_MS = 24 * 3600 * 1000;

export class InProcessIndexes {
  private readonly tenants = new Map<string, Tenant>();
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly interner = new Interner();
  private instance: Promise<string> | undefined;
  private lastPrune = 0;
  private readonly savesDue = new Set<string>();
  private readonly epochReads = new Map<string, { read: Promise<unknown>; commits: number }>();

  constructor(
    private readonly db: PgDb,
    private readonly opts: IndexOptions,
  ) {}

  private event(e: IndexEvent): void {
    this.opts.onIndexEvent?.(e);
  }

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

  /** Loads (or catches up) the tenant's indexes, completes the vector graph and saves its file when not current. */
  async warm(tenant: string): Promise<void> {
    const row = await this.db.one<{ epoch: string | number | null }>(sql('SELECT vector_epoch AS epoch FROM engram.tenant_state WHERE tenant = ?', tenant));
    const t = await this.sync(tenant, num(row?.epoch ?? 0));
    t.index.vectors?.flush?.();
    await this.save(tenant, t);
  }

  /** Saves every loaded tenant whose file is not current (close). */
  async saveAll(): Promise<void> {
    for (const [tenant, t] of this.tenants) await this.save(tenant, t);
  }

  /**
   * Deletes feed rows older than `olderThanMs` and raises each tenant's `feed_floor` past them: readers (an
   * index in some process, a saved file) below the floor load afresh instead of catching up. Returns the rows
   * deleted.
   */
  async pruneFeed(olderThanMs: number): Promise<number> {
    const cutoff = Date.now() - olderThanMs;
    return this.db.tx('prune doc_changes', async (tx) => {
      const gone = await tx.rows<{ n: string | number }>(
        sql(
          `WITH gone AS (DELETE FROM engram.doc_changes WHERE at < ? RETURNING tenant, epoch),
             floors AS (SELECT tenant, max(epoch) AS top, count(*) AS n FROM gone GROUP BY tenant),
             raised AS (UPDATE engram.tenant_state s SET feed_floor = GREATEST(s.feed_floor, f.top) FROM floors f WHERE s.tenant = f.tenant)
           SELECT coalesce(sum(n), 0) AS n FROM floors`,
          cutoff,
        ),
      );
      return num(gone[0]?.n ?? 0);
    });
  }

  // --- saved files ----------------------------------------------------------------------------------

  private async fileOf(tenant: string): Promise<{ path: string; describes: IndexFileHeader['describes'] } | undefined> {
    const dir = this.opts.indexDir;
    if (!dir) return undefined;
    this.instance ??= this.db
      .one<{ value: string }>(sql("SELECT value FROM engram.meta WHERE key = 'instance_id'"))
      .then((r) => r?.value ?? 'none');
    const instance = await this.instance;
    const { model, dimension, schema } = this.opts;
    return {
      path: join(dir, `${schema}-${instance}`, `${tenantFileName(tenant)}.idx`),
      describes: { engine: 'postgres', instance, schema, tenant, analyzer: ANALYZER_VERSION, model, dimension, vectors: this.opts.vectors ? 1 : 0 },
    };
  }

  private async save(tenant: string, t: Tenant): Promise<void> {
    if (t.saved || (t.index.vectors && !vectorIndexSavable(t.index.vectors))) return;
    const file = await this.fileOf(tenant);
    if (!file) return;
    try {
      const t0 = performance.now();
      // The node's directory of this schema instance: a large vector index writes its side files there first.
      mkdirSync(dirname(file.path), { recursive: true });
      const bytes = saveIndexParts(file.path, file.describes, t.epoch, { lexicon: t.index.lexicon, attrs: t.index.attrs, vectors: t.index.vectors });
      t.dirty = 0;
      t.saved = !t.index.vectors || !(t.index.vectors instanceof UsearchVectorIndex) || t.index.vectors.stats().pending === 0;
      this.event({ kind: 'saved', index: 'tenant', tenant, covers: t.epoch, bytes, ms: performance.now() - t0 });
    } catch (e) {
      this.event({ kind: 'save-failed', index: 'tenant', tenant, error: (e as Error).message });
      return;
    }
    if (Date.now() - this.lastPrune >= PRUNE_EVERY_MS) {
      this.lastPrune = Date.now();
      await this.pruneFeed(this.opts.feedRetentionMs ?? DEFAULT_FEED_RETENTION_MS).catch(() => undefined);
    }
  }

  /** Saves on a later event-loop turn, behind the tenant's queue (never inside the search that asked). */
  private saveSoon(tenant: string): void {
    if (!this.opts.indexDir || this.savesDue.has(tenant)) return;
    this.savesDue.add(tenant);
    setImmediate(() => {
      this.savesDue.delete(tenant);
      const run = (this.queues.get(tenant) ?? Promise.resolve()).then(async () => {
        const t = this.tenants.get(tenant);
        if (t) await this.save(tenant, t);
      });
      this.queues.set(tenant, run.catch(() => undefined));
    }).unref();
  }

  /** The tenant from its saved file, caught up to `epoch`; undefined (after an event saying why) when unusable. */
  private async restore(tenant: string, epoch: number): Promise<Tenant | undefined> {
    const file = await this.fileOf(tenant);
    if (!file) return undefined;
    const t0 = performance.now();
    const index = this.newIndex();
    const r = loadIndexParts(file.path, file.describes, { lexicon: true, attrs: index.attrs, ...(index.vectors ? { vectors: index.vectors } : {}) });
    if (!r.ok) {
      this.event({ kind: 'loaded', index: 'tenant', tenant, from: 'rows', fault: r.fault, detail: r.detail, ms: performance.now() - t0 });
      return undefined;
    }
    index.lexicon = r.lexicon!;
    const t: Tenant = { index, epoch: r.covers, dirty: 0, saved: true };
    const caughtUp = r.covers > epoch ? false : await this.catchUp(tenant, t, epoch);
    if (caughtUp === false) {
      this.event({ kind: 'loaded', index: 'tenant', tenant, from: 'rows', fault: 'stale', detail: `covers epoch ${r.covers}, tenant at ${epoch}`, ms: performance.now() - t0 });
      return undefined;
    }
    this.event({ kind: 'loaded', index: 'tenant', tenant, from: 'file', covers: r.covers, caughtUp, ms: performance.now() - t0 });
    if (caughtUp > 0) this.saveSoon(tenant);
    // Side files used in place are checked in the background: on a fault the tenant is dropped (its next search
    // loads it from the rows) and the file deleted; once they pass, a save skipped meanwhile is made.
    void r.checked?.then((c) => {
      if (this.tenants.get(tenant) !== t) return;
      if (c.ok) {
        this.event({ kind: 'checked', index: 'tenant', tenant, ms: performance.now() - t0 });
        if (!t.saved) this.saveSoon(tenant);
        return;
      }
      this.tenants.delete(tenant);
      dropIndexParts(file.path);
      this.event({ kind: 'check-failed', index: 'tenant', tenant, fault: c.fault, detail: c.detail });
    });
    return t;
  }

  private newIndex(): TenantIndex {
    // The f32 row files of large vector indexes go to this node's index directory (not the OS temp dir).
    const options = { ...this.opts.vectorIndex, ...(this.opts.indexDir ? { rowDir: this.opts.indexDir } : {}) };
    const vectors = this.opts.vectors ? createVectorIndex(this.opts.dimension, options) : undefined;
    return new TenantIndex(this.interner, vectors, this.opts.dimension);
  }

  /** The tenant's indexes at (at least) the epoch the query reads, and the filter's allow-list. */
  private async current(q: DocQuery): Promise<{ index: TenantIndex; allowed: Set<number> | undefined }> {
    const filtered = !isEmpty(q.filter);
    const where = docConditions(q);
    const read = () =>
      this.db.one<{ epoch: string | number | null; ids: (string | number)[] | null }>({
        text: `SELECT (SELECT vector_epoch FROM engram.tenant_state WHERE tenant = ?) AS epoch${
          filtered ? `, ARRAY(SELECT d.doc_id FROM engram.docs d WHERE ${where.text}) AS ids` : ''
        }`,
        params: [q.tenant, ...(filtered ? where.params : [])],
      });
    const row = await (filtered ? read() : this.sharedEpochRead(q.tenant, read));
    const t = await this.sync(q.tenant, num(row?.epoch ?? 0));
    return { index: t.index, allowed: filtered ? new Set((row?.ids ?? []).map(num)) : undefined };
  }

  /**
   * An unfiltered epoch read shared by the searches that start in the same turn of the event loop (a hybrid
   * search's lexical and vector searches) while no write of this process commits. Safe for freshness: a write of
   * another process reaches this one only through I/O, so any such write this process can have seen acknowledged
   * was acknowledged before the turn began and committed before the shared read was sent; a write of this process
   * (an embedded PGlite answers within one turn) ends the sharing. The entry goes when the turn's ticks and
   * promise jobs have run, before any I/O callback.
   */
  private sharedEpochRead<R>(tenant: string, read: () => Promise<R>): Promise<R> {
    const known = this.epochReads.get(tenant);
    if (known && known.commits === committedWrites()) return known.read as Promise<R>;
    const p = read();
    this.epochReads.set(tenant, { read: p, commits: committedWrites() });
    process.nextTick(() => {
      if (this.epochReads.get(tenant)?.read === p) this.epochReads.delete(tenant);
    });
    return p;
  }

  /** One load or catch-up at a time per tenant; searches queue behind it. */
  private sync(tenant: string, epoch: number): Promise<Tenant> {
    const known = this.tenants.get(tenant);
    if (known && known.epoch >= epoch) return Promise.resolve(known);
    const run = (this.queues.get(tenant) ?? Promise.resolve()).then(() => this.syncNow(tenant, epoch));
    this.queues.set(tenant, run.catch(() => undefined));
    return run;
  }

  private async syncNow(tenant: string, epoch: number, fromFile = true): Promise<Tenant> {
    let t = this.tenants.get(tenant);
    if (!t) {
      t = (fromFile ? await this.restore(tenant, epoch) : undefined) ?? (await this.load(tenant));
      this.tenants.set(tenant, t);
    }
    if (t.epoch < epoch && (await this.catchUp(tenant, t, epoch)) === false) {
      this.tenants.delete(tenant);
      return this.syncNow(tenant, epoch, false);
    }
    if (t.dirty >= SAVE_AFTER_CHANGES) this.saveSoon(tenant);
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
  private async load(tenant: string): Promise<Tenant> {
    const c = this.columns(sql(CONTEXTS_OF_TENANT, tenant));
    const t0 = performance.now();
    const t = await this.db.tx(
      'search (load index)',
      async (tx) => {
        const e = await tx.one<{ vector_epoch: string | number }>(sql('SELECT vector_epoch FROM engram.tenant_state WHERE tenant = ?', tenant));
        const rows = await tx.rows<DocRow>({ text: `SELECT ${c.select} FROM engram.docs d ${c.join} WHERE d.tenant = ?`, params: [...c.params, tenant] });
        const index = this.newIndex();
        for (const r of rows) this.put(index, r);
        return { index, epoch: num(e?.vector_epoch ?? 0), dirty: 0, saved: false };
      },
      { readOnly: true, snapshot: true },
    );
    if (this.opts.indexDir) this.saveSoon(tenant);
    else this.event({ kind: 'loaded', index: 'tenant', tenant, from: 'rows', fault: 'disabled', ms: performance.now() - t0 });
    return t;
  }

  /**
   * Applies the changes above the index's epoch up to `epoch`: each changed doc is removed and, if it exists
   * now, put back as it is now (a later change to it is applied again, harmlessly). False when the feed says
   * to reload.
   */
  private async catchUp(tenant: string, t: Tenant, epoch: number): Promise<number | false> {
    const c = this.columns(sql(CONTEXT_JOIN));
    // The floor and the rows come from one snapshot, so a prune between them cannot hide a change.
    const rows = await this.db.tx(
      'search (catch up index)',
      async (tx) => {
        const floor = await tx.one<{ feed_floor: string | number }>(sql('SELECT feed_floor FROM engram.tenant_state WHERE tenant = ?', tenant));
        if (num(floor?.feed_floor ?? 0) > t.epoch) return undefined;
        return tx.rows<DocRow & { changed: string | number }>({
          text: `SELECT DISTINCT ON (ch.doc_id) ch.doc_id AS changed, ${c.select}
            FROM engram.doc_changes ch LEFT JOIN engram.docs d ON d.tenant = ch.tenant AND d.doc_id = ch.doc_id ${c.join}
            WHERE ch.tenant = ? AND ch.epoch > ? AND ch.epoch <= ?`,
          params: [...c.params, tenant, t.epoch, epoch],
        });
      },
      { readOnly: true, snapshot: true },
    );
    if (!rows || rows.some((r) => num(r.changed) === 0)) return false;
    let removed = false;
    for (const r of rows) {
      if (r.doc_id === null) {
        t.index.remove(num(r.changed));
        removed = true;
      } else this.put(t.index, r);
    }
    // Docs left the tenant (forget, redaction, expiry): this node's saved file may hold their words; it goes now
    // and is written again from the caught-up index.
    if (removed) {
      const file = await this.fileOf(tenant);
      if (file) dropIndexParts(file.path);
    }
    t.epoch = epoch;
    if (rows.length > 0) {
      t.dirty += rows.length;
      t.saved = false;
    }
    return rows.length;
  }
}
