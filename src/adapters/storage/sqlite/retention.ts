/**
 * Physical deletion: `forget` (by ids or scope) and `sweepExpired` (TTL). Both remove the records (events,
 * fact versions, episodes, procedures, examples, working memory), the links and evidence that name them, their
 * docs (vector and lexical index entries go with them by hook), vectors no doc references any
 * more, and write an audit record listing ids only. secure_delete zeroes the freed space; a TRUNCATE
 * checkpoint afterwards (see SqliteStorage) clears the old page images out of the WAL.
 */
import { EngramError } from '../../../core/errors.js';
import type { ForgetReport, ForgetSelector, ScopeFilter } from '../../../ports/storage.js';
import type { StoreContext } from './context.js';
import { deleteDocsOf, deleteDocsWhere } from './doc-store.js';
import { dropUnreferencedEmbeddings } from './embedding-store.js';
import { deleteEvidenceNaming } from './evidence-store.js';
import { refreshFollowers, type TimelineSlot } from './event-store.js';
import { deleteLinksTouching } from './link-store.js';
import { deleteAllRetrievals, deleteRetrievalsMentioning, writeAudit } from './log-store.js';
import { allOf, scopeSql, sql, type Sql } from './sql.js';
import { deleteWorkingMemoryInScope } from './working-memory-store.js';

interface Keyed {
  pk: number;
  id: string;
}

interface Doomed {
  events: (Keyed & TimelineSlot & { content_hash: string | null })[];
  facts: (Keyed & { content_hash: string })[];
  episodes: Keyed[];
  procedures: Keyed[];
  examples: Keyed[];
}

const NOTHING: Doomed = { events: [], facts: [], episodes: [], procedures: [], examples: [] };

const EVENT_ROWS = `SELECT e.pk, e.id, e.session_id, e.seq, c.content_hash FROM events e LEFT JOIN event_contents c ON c.event_pk = e.pk`;
const FACT_ROWS = 'SELECT f.pk, f.id, f.content_hash FROM facts f';
/** The replaceable learn records: table and the doc kind each is projected as (the alias is always `x`). */
const LEARNED = [
  { key: 'episodes', table: 'episodes', kind: 'episode' },
  { key: 'procedures', table: 'procedures', kind: 'procedure' },
  { key: 'examples', table: 'examples', kind: 'example' },
] as const;

function select<T>(ctx: StoreContext, head: string, where: Sql): T[] {
  return ctx.stmts.get(`${head} WHERE ${where.text}`).all(...where.params) as T[];
}

const learnedRows = (ctx: StoreContext, table: string, where: Sql): Keyed[] => select(ctx, `SELECT x.pk, x.id FROM ${table} x`, where);

/** Records named by id; a fact id brings its whole lineage (every version of its key). */
function byIds(ctx: StoreContext, tenant: string, ids: readonly string[]): Doomed {
  const list = JSON.stringify(ids);
  const named = sql('x.tenant = ? AND x.id IN (SELECT value FROM json_each(?))', tenant, list);
  return {
    events: select(ctx, EVENT_ROWS, sql('e.tenant = ? AND e.id IN (SELECT value FROM json_each(?))', tenant, list)),
    facts: select(
      ctx,
      FACT_ROWS,
      sql('f.tenant = ? AND f.key IN (SELECT key FROM facts WHERE tenant = ? AND id IN (SELECT value FROM json_each(?)))', tenant, tenant, list),
    ),
    episodes: learnedRows(ctx, 'episodes', named),
    procedures: learnedRows(ctx, 'procedures', named),
    examples: learnedRows(ctx, 'examples', named),
  };
}

function byScope(ctx: StoreContext, tenant: string, scope: ScopeFilter): Doomed {
  const inScope = allOf([sql('x.tenant = ?', tenant), ...scopeSql(scope, 'x')]);
  return {
    events: select(ctx, EVENT_ROWS, allOf([sql('e.tenant = ?', tenant), ...scopeSql(scope, 'e')])),
    facts: select(ctx, FACT_ROWS, allOf([sql('f.tenant = ?', tenant), ...scopeSql(scope, 'f')])),
    episodes: learnedRows(ctx, 'episodes', inScope),
    procedures: learnedRows(ctx, 'procedures', inScope),
    examples: learnedRows(ctx, 'examples', inScope),
  };
}

function merge(a: Doomed, b: Doomed): Doomed {
  const uniq = <T extends { pk: number }>(rows: T[]) => [...new Map(rows.map((r) => [r.pk, r])).values()];
  return {
    events: uniq([...a.events, ...b.events]),
    facts: uniq([...a.facts, ...b.facts]),
    episodes: uniq([...a.episodes, ...b.episodes]),
    procedures: uniq([...a.procedures, ...b.procedures]),
    examples: uniq([...a.examples, ...b.examples]),
  };
}

interface Purged extends Required<ForgetReport> {
  ids: string[];
  evidence: number;
}

interface PurgeOptions {
  /** Docs to remove besides those of the doomed records. */
  extraDocs?: Sql;
  /** Ids the caller named: links and evidence naming them go even where no record of that id is left. */
  named?: readonly string[];
  /** Every link and evidence row of the tenant goes, whatever ids they name. */
  wholeTenant?: boolean;
}

/**
 * Deletes the records and their docs, the links touching any of them, evidence for removed facts or from
 * removed episodes, then orphaned vectors.
 */
function purge(ctx: StoreContext, tenant: string, doomed: Doomed, opts: PurgeOptions = {}): Purged {
  const eventIds = doomed.events.map((e) => e.id);
  const factIds = doomed.facts.map((f) => f.id);
  const learnedIds = LEARNED.flatMap((l) => doomed[l.key].map((r) => r.id));
  const docs = [
    deleteDocsOf(ctx, tenant, 'event', eventIds),
    deleteDocsOf(ctx, tenant, 'fact', factIds),
    ...LEARNED.map((l) => deleteDocsOf(ctx, tenant, l.kind, doomed[l.key].map((r) => r.id))),
    ...(opts.extraDocs ? [deleteDocsWhere(ctx, tenant, opts.extraDocs)] : []),
  ];
  const del = (table: string, pks: number[]) =>
    pks.length === 0
      ? 0
      : ctx.stmts.get(`DELETE FROM ${table} WHERE tenant = ? AND pk IN (SELECT value FROM json_each(?))`).run(tenant, JSON.stringify(pks)).changes;
  const events = del('events', doomed.events.map((e) => e.pk));
  if (!opts.wholeTenant) refreshFollowers(ctx, tenant, doomed.events);
  const facts = del('facts', doomed.facts.map((f) => f.pk));
  const [episodes, procedures, examples] = LEARNED.map((l) => del(l.table, doomed[l.key].map((r) => r.pk))) as [number, number, number];
  const ids = [...eventIds, ...factIds, ...learnedIds];
  const named = opts.named ?? [];
  const links = opts.wholeTenant ? deleteAll(ctx, 'links', tenant) : deleteLinksTouching(ctx, tenant, [...new Set([...ids, ...named])]);
  const evidence = opts.wholeTenant
    ? deleteAll(ctx, 'fact_evidence', tenant)
    : deleteEvidenceNaming(ctx, tenant, [...factIds, ...named], [...doomed.episodes.map((e) => e.id), ...named]);
  const hashes = [
    ...docs.flatMap((d) => d.contentHashes),
    ...doomed.events.flatMap((e) => (e.content_hash ? [e.content_hash] : [])),
    ...doomed.facts.map((f) => f.content_hash),
  ];
  const embeddings = dropUnreferencedEmbeddings(ctx, hashes);
  const docCount = docs.reduce((n, d) => n + d.docIds.length, 0);
  return { events, facts, docs: docCount, embeddings, episodes, links, procedures, examples, ids, evidence };
}

const deleteAll = (ctx: StoreContext, table: string, tenant: string): number =>
  ctx.stmts.get(`DELETE FROM ${table} WHERE tenant = ?`).run(tenant).changes;

/**
 * Ids and scope may be combined: everything either names goes. A scope forgets every record whose scope
 * matches (`{}`: the whole tenant, including its retrieval log). Retrieval logs that handed out a
 * forgotten id go too, since their query text may be about it. The audit record keeps ids and counts.
 */
export function forget(ctx: StoreContext, sel: ForgetSelector, at: number): ForgetReport {
  if (sel.ids === undefined && sel.scope === undefined) {
    throw new EngramError('VALIDATION', 'forget needs ids or a scope', { issues: [{ path: 'ids', message: 'give ids or scope' }] });
  }
  return ctx.write(() => {
    const { tenant } = sel;
    let doomed: Doomed = NOTHING;
    if (sel.ids?.length) doomed = byIds(ctx, tenant, sel.ids);
    if (sel.scope) doomed = merge(doomed, byScope(ctx, tenant, sel.scope));
    const wholeTenant = sel.scope !== undefined && scopeSql(sel.scope, 'd').length === 0;
    const extraDocs = sel.scope ? allOf(scopeSql(sel.scope, 'd')) : undefined;
    const { ids, evidence, ...report } = purge(ctx, tenant, doomed, { ...(extraDocs ? { extraDocs } : {}), named: sel.ids ?? [], wholeTenant });
    const workingMemories = sel.scope ? deleteWorkingMemoryInScope(ctx, tenant, sel.scope) : 0;
    const retrievals = wholeTenant ? deleteAllRetrievals(ctx, tenant) : deleteRetrievalsMentioning(ctx, tenant, ids);
    writeAudit(ctx, {
      tenant,
      at,
      action: 'forget',
      targetIds: ids,
      details: {
        ...report,
        evidence,
        workingMemories,
        retrievals,
        ...(sel.scope ? { scope: { ...sel.scope } } : {}),
        requestedIds: sel.ids?.length ?? 0,
      },
    });
    return report;
  });
}

/**
 * Deletes, in every tenant, what expired at or before `now` (events, fact versions, docs, working memory);
 * one audit record per tenant touched. Returns the number of records (not docs) deleted.
 */
export function sweepExpired(ctx: StoreContext, now: number): number {
  return ctx.write(() => {
    // The one tenant-spanning read: which tenants have anything expired (each then handled on its own).
    const tenants = ctx.stmts
      .get(
        `SELECT tenant FROM events WHERE expires_at <= ? UNION SELECT tenant FROM facts WHERE expires_at <= ?
         UNION SELECT tenant FROM docs WHERE expires_at <= ? UNION SELECT tenant FROM working_memory WHERE expires_at <= ?`,
      )
      .pluck()
      .all(now, now, now, now) as string[];
    let total = 0;
    for (const tenant of tenants) {
      const expired = (alias: string) => sql(`${alias}.tenant = ? AND ${alias}.expires_at <= ?`, tenant, now);
      const doomed: Doomed = { ...NOTHING, events: select(ctx, EVENT_ROWS, expired('e')), facts: select(ctx, FACT_ROWS, expired('f')) };
      const { ids, evidence, ...report } = purge(ctx, tenant, doomed, { extraDocs: sql('d.expires_at <= ?', now) });
      const workingMemories = ctx.stmts.get('DELETE FROM working_memory WHERE tenant = ? AND expires_at <= ?').run(tenant, now).changes;
      total += report.events + report.facts + workingMemories;
      if (report.events + report.facts + report.docs + workingMemories > 0) {
        writeAudit(ctx, { tenant, at: now, action: 'sweep', targetIds: ids, details: { ...report, evidence, workingMemories } });
      }
    }
    return total;
  });
}
