/**
 * The retrieval projection: docs rows written and removed in the same transaction as the records they
 * project (with their tsvector and, on pgvector, their vector), and lexical search over them.
 */
import { lexicalText, type NewDoc } from '../../../core/docs.js';
import { isEmpty } from '../../../core/filter.js';
import type { Doc } from '../../../core/types.js';
import type { DocQuery } from '../../../ports/storage.js';
import type { PgContext } from './context.js';
import { docAttrsOf } from '../sql/doc-attributes.js';
import type { PgDb, Tx } from './db.js';
import { compileFilter } from './filter-sql.js';
import { docSearchText } from './fts.js';
import { DOC_READ_COLUMNS, docColumns, num, rowToDoc, type DocRow } from '../sql/rows.js';
import { allOf, inList, notExpiredSql, scopeSql, sql, type Sql } from './sql.js';

const INSERT_COLUMNS = `tenant, kind, ref_id, user_id, agent_id, session_id, task_id, text, ts, importance, type, actor, source,
  section, state_label, tags, pii, metadata, content_hash, expires_at, confidence, tsv, tf, doc_len`;
const UNNEST = `unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::float8[],
  ?::float8[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::boolean[], ?::text[], ?::text[],
  ?::float8[], ?::float8[], ?::text[], ?::int[])
  AS u(tenant, kind, ref_id, user_id, agent_id, session_id, task_id, text, ts, importance, type, actor, source, section,
  state_label, tags, pii, metadata, content_hash, expires_at, confidence, search, len)`;

/** SQL for a tsvector's lexeme → term frequency object (`docs.tf`), from the expression `tsv`. */
export const termFrequencies = (tsv: string) =>
  `(SELECT COALESCE(jsonb_object_agg(t.lexeme, COALESCE(array_length(t.positions, 1), 1)), '{}'::jsonb) FROM unnest(${tsv}) AS t)`;

/**
 * Inserts docs (one statement for the batch) and returns their ids in input order. `contexts[i]` is doc i's
 * lexical context (core/docs.ts): indexed with it, not stored as its text. On pgvector a doc
 * whose text already has a vector of the column's model gets it at once; a process searching in process
 * hears of each new doc after commit (with its vector when its text has one). `before`, a WITH clause of
 * data-modifying statements (the records the docs project), runs in the same statement.
 */
export async function insertDocs(ctx: PgContext, tx: Tx, docs: readonly NewDoc[], contexts?: readonly (string | undefined)[], before?: Sql): Promise<number[]> {
  if (docs.length === 0) {
    if (before) await tx.exec({ text: `${before.text} SELECT 1`, params: before.params });
    return [];
  }
  const search = docs.map((d, i) => docSearchText(lexicalText(d.text, contexts?.[i])));
  const c = docColumns(docs, search.map((x) => x.text));
  const lens = search.map((s) => s.length);
  const annModel = ctx.ann?.model;
  const params: Sql['params'] = [
    c.tenant, c.kind, c.refId, c.userId, c.agentId, c.sessionId, c.taskId, c.text, c.ts, c.importance, c.type, c.actor,
    c.source, c.section, c.stateLabel, c.tags, c.pii, c.metadata, c.contentHash, c.expiresAt, c.confidence, c.search, lens,
  ];
  const embedding = annModel !== undefined ? ', (SELECT e.vec FROM engram.embeddings e WHERE e.model = ? AND e.content_hash = u.content_hash)' : '';
  const rows = await tx.rows<{ doc_id: string | number; tenant: string; kind: string; ref_id: string }>({
    text: `${before ? `${before.text}\n` : ''}INSERT INTO engram.docs AS nd (${INSERT_COLUMNS}${annModel !== undefined ? ', embedding' : ''})
      SELECT u.tenant, u.kind, u.ref_id, u.user_id, u.agent_id, u.session_id, u.task_id, u.text, u.ts, u.importance, u.type,
        u.actor, u.source, u.section, u.state_label, ARRAY(SELECT jsonb_array_elements_text(u.tags::jsonb)), u.pii,
        u.metadata::jsonb, u.content_hash, u.expires_at, u.confidence, v.tsv, w.tf, u.len${embedding}
      FROM ${UNNEST}
      CROSS JOIN LATERAL (SELECT to_tsvector('engram.engram_text', u.search) AS tsv) AS v
      CROSS JOIN LATERAL (SELECT ${termFrequencies('v.tsv')} AS tf) AS w
      RETURNING doc_id, tenant, kind, ref_id`,
    // Parameters in text order: the select list's model, the unnest arrays.
    params: [...(before?.params ?? []), ...(annModel !== undefined ? [annModel] : []), ...params],
  });
  const byRef = new Map(rows.map((r) => [`${r.tenant}\u0000${r.kind}\u0000${r.ref_id}`, r]));
  return docs.map((d, i) => {
    const r = byRef.get(`${d.tenant}\u0000${d.kind}\u0000${d.refId}`)!;
    const docId = num(r.doc_id);
    tx.docsAdded(d.tenant, [
      {
        docId,
        contentHash: d.contentHash,
        ...docAttrsOf(d),
        vector: undefined,
        len: lens[i]!,
      },
    ]);
    return docId;
  });
}

export interface RemovedDocs {
  docIds: number[];
  contentHashes: string[];
}

/** Removes the tenant's docs matching `where` (over `engram.docs d`). */
export async function deleteDocsWhere(tx: Tx, tenant: string, where: Sql): Promise<RemovedDocs> {
  const cond = allOf([sql('d.tenant = ?', tenant), where]);
  const rows = await tx.rows<{ doc_id: string | number; content_hash: string; doc_len: number }>({
    text: `DELETE FROM engram.docs d WHERE ${cond.text} RETURNING d.doc_id, d.content_hash, d.doc_len`,
    params: cond.params,
  });
  if (rows.length === 0) return { docIds: [], contentHashes: [] };
  const docIds = rows.map((r) => num(r.doc_id));
  tx.docsRemoved(tenant, rows.map((r, i) => ({ docId: docIds[i]!, len: r.doc_len })));
  return { docIds, contentHashes: [...new Set(rows.map((r) => r.content_hash))] };
}

export function deleteDocsOf(tx: Tx, tenant: string, kind: string, refIds: readonly string[]): Promise<RemovedDocs> {
  if (refIds.length === 0) return Promise.resolve({ docIds: [], contentHashes: [] });
  return deleteDocsWhere(tx, tenant, sql('d.kind = ? AND d.ref_id = ANY(?::text[])', kind, refIds));
}

/** Docs by id, in the order asked, skipping ids that are not this tenant's. */
export async function getDocs(db: PgDb, tenant: string, docIds: readonly number[]): Promise<Doc[]> {
  const ids = docIds.filter((id) => Number.isSafeInteger(id));
  if (ids.length === 0) return [];
  const rows = await db.rows<DocRow>(sql(`SELECT ${DOC_READ_COLUMNS} FROM engram.docs WHERE tenant = ? AND doc_id = ANY(?::bigint[])`, tenant, ids));
  const byId = new Map(rows.map((r) => [num(r.doc_id), rowToDoc(r)]));
  return docIds.map((id) => byId.get(id)).filter((d): d is Doc => d !== undefined);
}

/** Tenant, scope, kinds, expiry and filter over `engram.docs d`, shared by every search. */
export function docConditions(q: DocQuery): Sql {
  return allOf([
    sql('d.tenant = ?', q.tenant),
    ...scopeSql(q.scope, 'd'),
    ...inList('d.kind', q.kinds),
    notExpiredSql('d', q.now),
    ...(isEmpty(q.filter) ? [] : [compileFilter(q.filter!, 'd')]),
  ]);
}

/** The doc ids passing a query's conditions (for the in-process vector index's allow-list). */
export async function filteredDocIds(db: PgDb, q: DocQuery): Promise<Set<number>> {
  const where = docConditions(q);
  const rows = await db.rows<{ doc_id: string | number }>({ text: `SELECT d.doc_id FROM engram.docs d WHERE ${where.text}`, params: where.params });
  return new Set(rows.map((r) => num(r.doc_id)));
}

/** A key-sorted JSON form, so two docs compare equal whatever order jsonb gave their metadata keys. */
function stable(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
    return `{${entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, x]) => `${JSON.stringify(k)}:${stable(x)}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/**
 * Makes the projection of a replaceable record (episode, procedure, example) equal `doc`; `undefined`
 * removes it. Doc text never changes in place, so a changed doc is deleted and inserted again (a new doc id;
 * its vector is reused by content hash); an unchanged one is left alone, so re-putting a record does not
 * churn the indexes.
 */
export async function replaceDocOf(ctx: PgContext, tx: Tx, tenant: string, kind: string, refId: string, doc: NewDoc | undefined): Promise<void> {
  const row = await tx.one<DocRow>(sql(`SELECT ${DOC_READ_COLUMNS} FROM engram.docs WHERE tenant = ? AND kind = ? AND ref_id = ?`, tenant, kind, refId));
  if (doc && row) {
    const { docId: _docId, ...current } = rowToDoc(row);
    if (stable(current) === stable(doc)) return;
  }
  if (row) await deleteDocsOf(tx, tenant, kind, [refId]);
  if (doc) await insertDocs(ctx, tx, [doc]);
}
