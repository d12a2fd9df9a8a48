/** Feedback examples: replaced by id (a toggle flips polarity in place), found again by pair hash and exact scope. */
import { exampleToDoc } from '../../../core/docs-learn.js';
import type { Example } from '../../../core/types.js';
import type { ExampleQuery, ScopeFilter } from '../../../ports/storage.js';
import { EXAMPLE_COLUMNS, exampleParams, rowToExample, type ExampleRow } from '../sql/rows-learn.js';
import { assertExample } from '../sql/validate-learn.js';
import type { PgContext } from './context.js';
import { deleteDocsOf, replaceDocOf } from './doc-store.js';
import { dropUnreferencedEmbeddings } from './embedding-store.js';
import { allOf, exactScopeSql, scopeSql, sql } from './sql.js';
import { upsertSql } from './upsert.js';

const UPSERT_EXAMPLE = upsertSql('examples', EXAMPLE_COLUMNS, ['tenant', 'id']);

/**
 * Upserts by id. Another example with the same pair hash in exactly the same scope is a CONFLICT (a unique
 * index enforces it), so `findExample` always names at most one.
 */
export async function putExample(ctx: PgContext, e: Example): Promise<void> {
  assertExample(e);
  await ctx.db.tx('putExample', async (tx) => {
    await tx.lockTenants([e.tenant]);
    await tx.exec(sql(UPSERT_EXAMPLE, ...exampleParams(e)));
    await replaceDocOf(ctx, tx, e.tenant, 'example', e.id, exampleToDoc(e));
  });
}

export async function getExamples(ctx: PgContext, tenant: string, ids: readonly string[]): Promise<Example[]> {
  if (ids.length === 0) return [];
  const rows = await ctx.db.rows<ExampleRow>(sql('SELECT * FROM engram.examples WHERE tenant = ? AND id = ANY(?::text[])', tenant, ids));
  const byId = new Map(rows.map((r) => [r.id, rowToExample(r)]));
  return ids.map((id) => byId.get(id)).filter((x): x is Example => x !== undefined);
}

/** "Exactly this scope": every scope field, given or not, must equal the example's (absent matches absent). */
export async function findExample(ctx: PgContext, tenant: string, scope: ScopeFilter, contentHash: string): Promise<Example | undefined> {
  const where = allOf([sql('x.tenant = ? AND x.content_hash = ?', tenant, contentHash), ...exactScopeSql(scope, 'x')]);
  const r = await ctx.db.one<ExampleRow>({ text: `SELECT * FROM engram.examples x WHERE ${where.text} LIMIT 1`, params: where.params });
  return r && rowToExample(r);
}

/** Oldest first (by creation, then id). */
export async function listExamples(ctx: PgContext, q: ExampleQuery): Promise<Example[]> {
  const where = allOf([
    sql('x.tenant = ?', q.tenant),
    ...scopeSql(q.scope, 'x'),
    ...(q.polarity !== undefined ? [sql('x.polarity = ?', q.polarity)] : []),
  ]);
  const limit = q.limit === undefined ? undefined : Math.max(0, Math.floor(q.limit));
  const rows = await ctx.db.rows<ExampleRow>({
    text: `SELECT * FROM engram.examples x WHERE ${where.text} ORDER BY x.created_at, x.id COLLATE "C"${limit === undefined ? '' : ' LIMIT ?'}`,
    params: [...where.params, ...(limit === undefined ? [] : [limit])],
  });
  return rows.map(rowToExample);
}

/** Removes the example, its doc and (if now unreferenced) its vector. False if the tenant has no such example. */
export async function deleteExample(ctx: PgContext, tenant: string, id: string): Promise<boolean> {
  return ctx.db.tx('deleteExample', async (tx) => {
    await tx.lockTenants([tenant]);
    const changed = await tx.exec(sql('DELETE FROM engram.examples WHERE tenant = ? AND id = ?', tenant, id));
    if (changed === 0) return false;
    const removed = await deleteDocsOf(tx, tenant, 'example', [id]);
    await dropUnreferencedEmbeddings(tx, removed.contentHashes);
    return true;
  });
}
