/**
 * Per-tenant in-memory BM25 indexes over every doc's text, event docs with their lexical context
 * (core/docs.ts); see adapters/lexical/bm25-index.ts for why this and not FTS5's bm25(). Opened on a tenant's
 * first lexical search (from its saved file when usable, else from the rows), kept in step by this connection's
 * writes and by the change feed for other processes' commits (PerTenant), dropped when a write transaction fails.
 */
import { lexicalContext, lexicalText } from '../../../core/docs.js';
import { ANALYZER_VERSION } from '../../lexical/analyzer.js';
import { Bm25Index } from '../../lexical/bm25-index.js';
import type { DocHit, DocQuery } from '../../../ports/storage.js';
import { DocAttributes, Interner, type DocAttrInput } from '../sql/doc-attributes.js';
import { tenantFileName } from '../sql/index-file.js';
import { loadIndexParts, saveIndexParts } from '../sql/index-snapshot.js';
import { PerTenant, type DocFeed, type IndexEvent, type TenantSource } from './per-tenant.js';
import type { StatementCache } from './statements.js';
import { ATTR_COLUMNS, attrsOf, lexicalHits, type AttrRow } from '../sql/tenant-index.js';

/**
 * Content of the event before an event in its session (redacted ones have no content and are passed over).
 * Parameters: tenant, session id, the event's seq.
 */
export const PREVIOUS_CONTENT = `SELECT c.content FROM events p JOIN event_contents c ON c.event_pk = p.pk
  WHERE p.tenant = ? AND p.session_id = ? AND p.seq < ? ORDER BY p.seq DESC LIMIT 1`;
/** The same for the event behind doc `d` (a correlated subquery of the index load). */
const PREVIOUS_CONTENT_OF_DOC = `SELECT c.content FROM events e
  JOIN events p ON p.tenant = e.tenant AND p.session_id = e.session_id AND p.seq < e.seq
  JOIN event_contents c ON c.event_pk = p.pk
  WHERE e.tenant = d.tenant AND e.id = d.ref_id ORDER BY p.seq DESC LIMIT 1`;
const DOC_ROWS = `SELECT d.doc_id, d.text, ${ATTR_COLUMNS},
    CASE WHEN d.kind = 'event' THEN (${PREVIOUS_CONTENT_OF_DOC}) END AS context
  FROM docs d WHERE d.tenant = ?`;

type LexRow = AttrRow & { doc_id: number; text: string; context: string | null };

interface TenantLexicon {
  index: Bm25Index;
  attrs: DocAttributes;
}

/** Where and how a cache saves its tenants' files (undefined `dir`: not saved). */
export interface IndexFiles {
  dir: string | undefined;
  onEvent?: (e: IndexEvent) => void;
}

export class LexicalCache implements TenantSource<TenantLexicon> {
  readonly name = 'lexical';
  private readonly tenants: PerTenant<TenantLexicon>;
  private readonly interner = new Interner();
  readonly restore?: TenantSource<TenantLexicon>['restore'];
  readonly save?: TenantSource<TenantLexicon>['save'];

  constructor(
    feed: DocFeed,
    private readonly stmts: StatementCache,
    files: IndexFiles,
  ) {
    const { dir } = files;
    if (dir) {
      const path = (tenant: string) => `${dir}/${tenantFileName(tenant)}.lexical.idx`;
      const describes = (tenant: string) => ({ engine: 'sqlite', index: 'lexical', analyzer: ANALYZER_VERSION, tenant });
      this.restore = (tenant) => {
        const attrs = new DocAttributes(this.interner);
        const r = loadIndexParts(path(tenant), describes(tenant), { lexicon: true, attrs });
        return r.ok ? { ok: true, value: { index: r.lexicon!, attrs }, covers: r.covers } : r;
      };
      this.save = (tenant, t, covers) => saveIndexParts(path(tenant), describes(tenant), covers, { lexicon: t.index, attrs: t.attrs });
    }
    this.tenants = new PerTenant(feed, this, files.onEvent);
  }

  invalidate(): void {
    this.tenants.invalidate();
  }

  advance(before: number, after: number): void {
    this.tenants.advance(before, after);
  }

  /** Loads the tenant's index (see Storage.warm) and saves its file when it is not current. */
  warm(tenant: string): void {
    this.tenants.get(tenant);
    this.tenants.save(tenant, false);
  }

  /** Saves every loaded tenant's file that is not current (close). */
  saveAll(): void {
    this.tenants.saveAll();
  }

  /**
   * BM25 top k of the query's OR'ed terms, and each distinct term's best score among the docs passing the
   * filters (Storage.lexicalSearchWithTermBest); `allowed` as in VectorCache.search.
   */
  search(q: DocQuery & { text: string }, allowed?: ReadonlySet<number>): { hits: DocHit[]; termBest: number[] } {
    const t = this.tenants.get(q.tenant);
    return lexicalHits(t.index, t.attrs, q, allowed);
  }

  /** `context` is asked for only when the tenant's index is loaded (it costs a lookup). */
  docAdded(tenant: string, docId: number, text: string, attrs: DocAttrInput, context?: () => string): void {
    const t = this.tenants.loaded(tenant);
    if (!t) return;
    t.index.add(docId, lexicalText(text, context?.()));
    t.attrs.set(docId, attrs);
  }

  /** Re-indexes a doc already in the index whose lexical context changed. */
  docContextChanged(tenant: string, docId: number, text: string, context: () => string): void {
    const t = this.tenants.loaded(tenant);
    if (t?.index.has(docId)) t.index.add(docId, lexicalText(text, context()));
  }

  docsRemoved(tenant: string, docIds: readonly number[]): void {
    const t = this.tenants.loaded(tenant);
    if (!t) return;
    for (const id of docIds) {
      t.index.remove(id);
      t.attrs.delete(id);
    }
  }

  load(tenant: string): TenantLexicon {
    const t: TenantLexicon = { index: new Bm25Index(), attrs: new DocAttributes(this.interner) };
    const rows = this.stmts.get(`${DOC_ROWS} ORDER BY d.doc_id`).iterate(tenant) as IterableIterator<LexRow>;
    for (const r of rows) this.put(t, r);
    return t;
  }

  apply(tenant: string, t: TenantLexicon, docIds: readonly number[]): void {
    const rows = this.stmts.get(`${DOC_ROWS} AND d.doc_id IN (SELECT value FROM json_each(?))`).all(tenant, JSON.stringify(docIds)) as LexRow[];
    for (const id of docIds) {
      t.index.remove(id);
      t.attrs.delete(id);
    }
    for (const r of rows) this.put(t, r);
  }

  private put(t: TenantLexicon, r: LexRow): void {
    t.index.add(r.doc_id, lexicalText(r.text, lexicalContext(r.context)));
    t.attrs.set(r.doc_id, attrsOf(r));
  }
}
