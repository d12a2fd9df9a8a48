/** Feedback examples: replaced by id (a toggle flips polarity in place), found again by pair hash and exact scope. */
import { exampleToDoc } from '../../../core/docs-learn.js';
import { SCOPE_KEYS, type Example } from '../../../core/types.js';
import type { ExampleQuery, ScopeFilter } from '../../../ports/storage.js';
import type { StoreContext } from './context.js';
import { deleteDocsOf, replaceDocOf } from './doc-store.js';
import { dropUnreferencedEmbeddings } from './embedding-store.js';
import { insertSql } from '../sql/rows.js';
import { EXAMPLE_COLUMNS, exampleParams, rowToExample, type ExampleRow } from '../sql/rows-learn.js';
import { allOf, SCOPE_COLUMNS, scopeSql, sql } from './sql.js';
import { assertExample } from '../sql/validate-learn.js';

const UPSERT_EXAMPLE = `${insertSql('examples', EXAMPLE_COLUMNS)}
  ON CONFLICT (tenant, id) DO UPDATE SET ${EXAMPLE_COLUMNS.filter((c) => c !== 'tenant' && c !== 'id')
    .map((c) => `${c} = excluded.${c}`)
    .join(', ')}`;

/**
 * Upserts by id. Another example with the same pair hash in exactly the same scope is a CONFLICT (a unique
 * index enforces it), so `findExample` always names at most one: update that one instead.
 */
export function putExample(ctx: StoreContext, e: Example): void {
  assertExample(e);
  ctx.write(() => {
    ctx.stmts.get(UPSERT_EXAMPLE).run(...exampleParams(e));
    replaceDocOf(ctx, e.tenant, 'example', e.id, exampleToDoc(e));
  });
}

export function getExamples(ctx: StoreContext, tenant: string, ids: readonly string[]): Example[] {
  if (ids.length === 0) return [];
  const rows = ctx.stmts
    .get('SELECT * FROM examples WHERE tenant = ? AND id IN (SELECT value FROM json_each(?))')
    .all(tenant, JSON.stringify(ids)) as ExampleRow[];
  const byId = new Map(rows.map((r) => [r.id, rowToExample(r)]));
  return ids.map((id) => byId.get(id)).filter((x): x is Example => x !== undefined);
}

/** "Exactly this scope": every scope field, given or not, must equal the example's (absent matches absent). */
export function findExample(ctx: StoreContext, tenant: string, scope: ScopeFilter, contentHash: string): Example | undefined {
  const scopeCols = SCOPE_KEYS.map((k) => `x.${SCOPE_COLUMNS[k]} IS ?`).join(' AND ');
  const r = ctx.stmts
    .get(`SELECT * FROM examples x WHERE x.tenant = ? AND x.content_hash = ? AND ${scopeCols} LIMIT 1`)
    .get(tenant, contentHash, ...SCOPE_KEYS.map((k) => scope[k] ?? null)) as ExampleRow | undefined;
  return r && rowToExample(r);
}

/** Oldest first (by creation, then id). */
export function listExamples(ctx: StoreContext, q: ExampleQuery): Example[] {
  const where = allOf([
    sql('x.tenant = ?', q.tenant),
    ...scopeSql(q.scope, 'x'),
    ...(q.polarity !== undefined ? [sql('x.polarity = ?', q.polarity)] : []),
  ]);
  const limit = q.limit === undefined ? -1 : Math.max(0, Math.floor(q.limit));
  const rows = ctx.stmts
    .get(`SELECT * FROM examples x WHERE ${where.text} ORDER BY x.created_at, x.id LIMIT ?`)
    .all(...where.params, limit) as ExampleRow[];
  return rows.map(rowToExample);
}

/** Removes the example, its doc and (if now unreferenced) its vector. False if the tenant has no such example. */
export function deleteExample(ctx: StoreContext, tenant: string, id: string): boolean {
  return ctx.write(() => {
    const changed = ctx.stmts.get('DELETE FROM examples WHERE tenant = ? AND id = ?').run(tenant, id).changes;
    if (changed === 0) return false;
    const removed = deleteDocsOf(ctx, tenant, 'example', [id]);
    dropUnreferencedEmbeddings(ctx, removed.contentHashes);
    return true;
  });
}
