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
import type { IndexParts, loadIndexParts } from '../sql/index-snapshot.js';
import type { DocFeed } from './per-tenant.js';
import { TenantCache, type IndexFiles } from './tenant-cache.js';
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

export class LexicalCache extends TenantCache<TenantLexicon> {
  private readonly interner = new Interner();

  constructor(
    feed: DocFeed,
    private readonly stmts: StatementCache,
    files: IndexFiles,
  ) {
    super('lexical', feed, files, { analyzer: ANALYZER_VERSION });
  }

  protected empty(): TenantLexicon {
    return { index: new Bm25Index(), attrs: new DocAttributes(this.interner) };
  }
  protected parts(t: TenantLexicon): IndexParts {
    return { lexicon: t.index, attrs: t.attrs };
  }
  protected partsToLoad(t: TenantLexicon): Parameters<typeof loadIndexParts>[2] {
    return { lexicon: true, attrs: t.attrs };
  }
  protected restored(t: TenantLexicon, r: { lexicon?: Bm25Index }): TenantLexicon {
    return { index: r.lexicon!, attrs: t.attrs };
  }

  /** Loads the tenant's index (see Storage.warm) and saves its file when it is not current. */
  warm(tenant: string): void {
    this.tenants.get(tenant);
    this.tenants.save(tenant, false);
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

  load(tenant: string): TenantLexicon {
    const t = this.empty();
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
