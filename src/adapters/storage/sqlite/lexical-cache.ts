/**
 * Per-tenant in-memory BM25 indexes over every doc's text, event docs with their lexical context
 * (core/docs.ts); see adapters/lexical/bm25-index.ts for why this and not FTS5's bm25(). Loaded on a tenant's
 * first lexical search, kept in step by this connection's writes, reloaded after another process commits
 * (PerTenant), dropped when a write transaction fails.
 */
import { lexicalContext, lexicalText } from '../../../core/docs.js';
import { Bm25Index } from '../../lexical/bm25-index.js';
import type { DocHit, DocQuery } from '../../../ports/storage.js';
import type { Db } from './connection.js';
import { DocAttributes, Interner, type DocAttrInput } from '../sql/doc-attributes.js';
import { PerTenant } from './per-tenant.js';
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

interface TenantLexicon {
  index: Bm25Index;
  attrs: DocAttributes;
}

export class LexicalCache {
  private readonly tenants: PerTenant<TenantLexicon>;
  private readonly interner = new Interner();

  constructor(
    db: Db,
    private readonly stmts: StatementCache,
  ) {
    this.tenants = new PerTenant(db, (tenant) => this.load(tenant));
  }

  invalidate(): void {
    this.tenants.invalidate();
  }

  /** Loads the tenant's index (see Storage.warm). */
  warm(tenant: string): void {
    this.tenants.get(tenant);
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

  isLoaded(tenant: string): boolean {
    return this.tenants.loaded(tenant) !== undefined;
  }

  docsRemoved(tenant: string, docIds: readonly number[]): void {
    const t = this.tenants.loaded(tenant);
    if (!t) return;
    for (const id of docIds) {
      t.index.remove(id);
      t.attrs.delete(id);
    }
  }

  private load(tenant: string): TenantLexicon {
    const t: TenantLexicon = { index: new Bm25Index(), attrs: new DocAttributes(this.interner) };
    const rows = this.stmts
      .get(
        `SELECT d.doc_id, d.text, ${ATTR_COLUMNS},
           CASE WHEN d.kind = 'event' THEN (${PREVIOUS_CONTENT_OF_DOC}) END AS context
         FROM docs d WHERE d.tenant = ? ORDER BY d.doc_id`,
      )
      .iterate(tenant) as IterableIterator<AttrRow & { doc_id: number; text: string; context: string | null }>;
    for (const r of rows) {
      t.index.add(r.doc_id, lexicalText(r.text, lexicalContext(r.context)));
      t.attrs.set(r.doc_id, attrsOf(r));
    }
    return t;
  }
}
