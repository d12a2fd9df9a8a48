/**
 * The retrieval projection: docs rows written and removed in the same transaction as the records they
 * project, kept in step with the in-memory vector and lexical indexes.
 */
import type { NewDoc } from '../../../core/docs.js';
import { isEmpty } from '../../../core/filter.js';
import type { Doc } from '../../../core/types.js';
import type { DocQuery } from '../../../ports/storage.js';
import type { StoreContext } from './context.js';
import { docAttrsOf } from '../sql/doc-attributes.js';
import { compileFilter } from './filter-sql.js';
import { DOC_COLUMNS, docParams, insertSql, rowToDoc, type DocRow } from '../sql/rows.js';
import { allOf, inJsonList, notExpiredSql, scopeSql, sql, type Sql } from './sql.js';

const INSERT_DOC = insertSql('docs', DOC_COLUMNS);

/**
 * Inserts a doc; a loaded vector index picks it up at once when its text already has a vector. `context`
 * gives an event doc's lexical context (core/docs.ts), asked for only when the lexical index is loaded.
 */
export function insertDoc(ctx: StoreContext, doc: NewDoc, context?: () => string): number {
  const docId = Number(ctx.stmts.get(INSERT_DOC).run(...docParams(doc)).lastInsertRowid);
  const attrs = docAttrsOf(doc);
  ctx.vectors.docAdded(doc.tenant, docId, doc.contentHash, attrs);
  ctx.lexical.docAdded(doc.tenant, docId, doc.text, attrs, context);
  return docId;
}

export interface RemovedDocs {
  docIds: number[];
  contentHashes: string[];
}

/** Removes docs matching `where` (which must constrain `d.tenant`), from the vector and lexical indexes too. */
export function deleteDocsWhere(ctx: StoreContext, tenant: string, where: Sql): RemovedDocs {
  const cond = allOf([sql('d.tenant = ?', tenant), where]);
  const rows = ctx.stmts.get(`SELECT d.doc_id, d.content_hash FROM docs d WHERE ${cond.text}`).all(...cond.params) as {
    doc_id: number;
    content_hash: string;
  }[];
  if (rows.length === 0) return { docIds: [], contentHashes: [] };
  const docIds = rows.map((r) => r.doc_id);
  // `+tenant`: look rows up by primary key; an index on tenant would make SQLite scan the whole tenant.
  ctx.stmts.get('DELETE FROM docs WHERE +tenant = ? AND doc_id IN (SELECT value FROM json_each(?))').run(tenant, JSON.stringify(docIds));
  ctx.vectors.docsRemoved(tenant, docIds);
  ctx.lexical.docsRemoved(tenant, docIds);
  return { docIds, contentHashes: [...new Set(rows.map((r) => r.content_hash))] };
}

export function deleteDocsOf(ctx: StoreContext, tenant: string, kind: string, refIds: readonly string[]): RemovedDocs {
  if (refIds.length === 0) return { docIds: [], contentHashes: [] };
  return deleteDocsWhere(ctx, tenant, sql('d.kind = ? AND d.ref_id IN (SELECT value FROM json_each(?))', kind, JSON.stringify(refIds)));
}

/**
 * Makes the projection of a replaceable record (episode, procedure, example) equal `doc`: `undefined` removes
 * it. Doc text is immutable, so a changed doc is deleted and inserted again (new doc id; its vector is reused
 * by content hash); an unchanged one is left alone, so re-putting a record does not churn the indexes.
 */
export function replaceDocOf(ctx: StoreContext, tenant: string, kind: string, refId: string, doc: NewDoc | undefined): void {
  const current = ctx.stmts
    .get(`SELECT ${DOC_COLUMNS.join(', ')} FROM docs WHERE tenant = ? AND kind = ? AND ref_id = ?`)
    .raw()
    .get(tenant, kind, refId) as unknown[] | undefined;
  if (doc && current && sameParams(current, docParams(doc))) return;
  if (current) deleteDocsOf(ctx, tenant, kind, [refId]);
  if (doc) insertDoc(ctx, doc);
}

const sameParams = (a: readonly unknown[], b: readonly unknown[]): boolean => a.length === b.length && a.every((v, i) => v === b[i]);

/** Docs by id, in the order asked, skipping ids that are not this tenant's. */
export function getDocs(ctx: StoreContext, tenant: string, docIds: readonly number[]): Doc[] {
  if (docIds.length === 0) return [];
  const rows = ctx.stmts
    // `+tenant` keeps SQLite on the primary key (by tenant it would scan every doc of the tenant).
    .get('SELECT * FROM docs WHERE +tenant = ? AND doc_id IN (SELECT value FROM json_each(?))')
    .all(tenant, JSON.stringify(docIds)) as DocRow[];
  const byId = new Map(rows.map((r) => [r.doc_id, rowToDoc(r)]));
  return docIds.map((id) => byId.get(id)).filter((d): d is Doc => d !== undefined);
}

/** Tenant, scope, kinds, expiry (unless `expiry: false`) and filter over `docs d`, for the searches' allow-list. */
export function docConditions(q: DocQuery, opts: { expiry?: boolean } = {}): Sql {
  return allOf([
    sql('d.tenant = ?', q.tenant),
    ...scopeSql(q.scope, 'd'),
    ...inJsonList('d.kind', q.kinds),
    ...(opts.expiry === false ? [] : [notExpiredSql('d', q.now)]),
    ...(isEmpty(q.filter) ? [] : [compileFilter(q.filter!, 'd')]),
  ]);
}

/**
 * The doc ids passing a metadata filter (with tenant, scope and kinds; expired docs included: the searches
 * check expiry themselves), for the searches' allow-list; remembered until docs change (FilterMemo).
 */
export function filteredDocIds(ctx: StoreContext, q: DocQuery): ReadonlySet<number> {
  const key = JSON.stringify([q.tenant, q.scope ?? null, q.kinds ?? null, q.filter ?? null]);
  return ctx.filterMemo.get(key, () => {
    const where = docConditions(q, { expiry: false });
    return new Set(ctx.stmts.get(`SELECT d.doc_id FROM docs d WHERE ${where.text}`).pluck().all(...where.params) as number[]);
  });
}
