/**
 * Physical deletion: `forget` (by ids or scope) and `sweepExpired` (TTL), as in the SQLite adapter. Both
 * remove the records (events, fact versions, episodes, procedures, examples, working memory), the links and
 * evidence that name them, their docs, vectors no doc references any more, and write an audit record
 * listing ids only. PostgreSQL reclaims the dead tuples at its next (auto)vacuum.
 */
import { EngramError } from '../../../core/errors.js';
import type { ForgetReport, ForgetSelector, ScopeFilter } from '../../../ports/storage.js';
import type { PgContext } from './context.js';
import type { Tx } from './db.js';
import { deleteDocsOf, deleteDocsWhere } from './doc-store.js';
import { dropUnreferencedEmbeddings } from './embedding-store.js';
import { deleteLinksTouching } from './link-store.js';
import { refreshFollowers, type TimelineSlot } from './lexical-context.js';
import { deleteAllRetrievals, deleteRetrievalsMentioning, writeAudit } from './log-store.js';
import { allOf, scopeSql, sql, type Sql } from './sql.js';

interface Keyed {
  pk: string | number;
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

const EVENT_ROWS = 'SELECT e.pk, e.id, e.session_id, e.seq, c.content_hash FROM engram.events e LEFT JOIN engram.event_contents c ON c.event_pk = e.pk';
const FACT_ROWS = 'SELECT f.pk, f.id, f.content_hash FROM engram.facts f';
/** The replaceable learn records: table and the doc kind each is projected as (the alias is always `x`). */
const LEARNED = [
  { key: 'episodes', table: 'episodes', kind: 'episode' },
  { key: 'procedures', table: 'procedures', kind: 'procedure' },
  { key: 'examples', table: 'examples', kind: 'example' },
] as const;

function select<T>(tx: Tx, head: string, where: Sql): Promise<T[]> {
  return tx.rows<T>({ text: `${head} WHERE ${where.text}`, params: where.params });
}

const learnedRows = (tx: Tx, table: string, where: Sql): Promise<Keyed[]> => select(tx, `SELECT x.pk, x.id FROM engram.${table} x`, where);

/** Records named by id; a fact id brings its whole lineage (every version of its key). */
async function byIds(tx: Tx, tenant: string, ids: readonly string[]): Promise<Doomed> {
  const named = sql('x.tenant = ? AND x.id = ANY(?::text[])', tenant, ids);
  return {
    events: await select(tx, EVENT_ROWS, sql('e.tenant = ? AND e.id = ANY(?::text[])', tenant, ids)),
    facts: await select(
      tx,
      FACT_ROWS,
      sql('f.tenant = ? AND f.key IN (SELECT key FROM engram.facts WHERE tenant = ? AND id = ANY(?::text[]))', tenant, tenant, ids),
    ),
    episodes: await learnedRows(tx, 'episodes', named),
    procedures: await learnedRows(tx, 'procedures', named),
    examples: await learnedRows(tx, 'examples', named),
  };
}

async function byScope(tx: Tx, tenant: string, scope: ScopeFilter): Promise<Doomed> {
  const inScope = allOf([sql('x.tenant = ?', tenant), ...scopeSql(scope, 'x')]);
  return {
    events: await select(tx, EVENT_ROWS, allOf([sql('e.tenant = ?', tenant), ...scopeSql(scope, 'e')])),
    facts: await select(tx, FACT_ROWS, allOf([sql('f.tenant = ?', tenant), ...scopeSql(scope, 'f')])),
    episodes: await learnedRows(tx, 'episodes', inScope),
    procedures: await learnedRows(tx, 'procedures', inScope),
    examples: await learnedRows(tx, 'examples', inScope),
  };
}

function merge(a: Doomed, b: Doomed): Doomed {
  const uniq = <T extends Keyed>(rows: T[]) => [...new Map(rows.map((r) => [String(r.pk), r])).values()];
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

const deleteAll = (tx: Tx, table: string, tenant: string): Promise<number> => tx.exec(sql(`DELETE FROM engram.${table} WHERE tenant = ?`, tenant));

function deleteEvidenceOf(tx: Tx, tenant: string, factIds: readonly string[], episodeIds: readonly string[]): Promise<number> {
  if (factIds.length + episodeIds.length === 0) return Promise.resolve(0);
  return tx.exec(
    sql('DELETE FROM engram.fact_evidence WHERE tenant = ? AND (fact_id = ANY(?::text[]) OR episode_id = ANY(?::text[]))', tenant, factIds, episodeIds),
  );
}

/**
 * Deletes the records and their docs, the links touching any of them, evidence for removed facts or from
 * removed episodes, then orphaned vectors.
 */
async function purge(tx: Tx, tenant: string, doomed: Doomed, opts: PurgeOptions = {}): Promise<Purged> {
  const eventIds = doomed.events.map((e) => e.id);
  const factIds = doomed.facts.map((f) => f.id);
  const learnedIds = LEARNED.flatMap((l) => doomed[l.key].map((r) => r.id));
  const docs = [await deleteDocsOf(tx, tenant, 'event', eventIds), await deleteDocsOf(tx, tenant, 'fact', factIds)];
  for (const l of LEARNED) docs.push(await deleteDocsOf(tx, tenant, l.kind, doomed[l.key].map((r) => r.id)));
  if (opts.extraDocs) docs.push(await deleteDocsWhere(tx, tenant, opts.extraDocs));
  const del = (table: string, pks: (string | number)[]) =>
    pks.length === 0 ? Promise.resolve(0) : tx.exec(sql(`DELETE FROM engram.${table} WHERE tenant = ? AND pk = ANY(?::bigint[])`, tenant, pks));
  const events = await del('events', doomed.events.map((e) => e.pk));
  if (!opts.wholeTenant) await refreshFollowers(tx, tenant, doomed.events);
  const facts = await del('facts', doomed.facts.map((f) => f.pk));
  const [episodes, procedures, examples] = [
    await del('episodes', doomed.episodes.map((r) => r.pk)),
    await del('procedures', doomed.procedures.map((r) => r.pk)),
    await del('examples', doomed.examples.map((r) => r.pk)),
  ];
  const ids = [...eventIds, ...factIds, ...learnedIds];
  const named = opts.named ?? [];
  const links = opts.wholeTenant ? await deleteAll(tx, 'links', tenant) : await deleteLinksTouching(tx, tenant, [...new Set([...ids, ...named])]);
  const evidence = opts.wholeTenant
    ? await deleteAll(tx, 'fact_evidence', tenant)
    : await deleteEvidenceOf(tx, tenant, [...factIds, ...named], [...doomed.episodes.map((e) => e.id), ...named]);
  const hashes = [
    ...docs.flatMap((d) => d.contentHashes),
    ...doomed.events.flatMap((e) => (e.content_hash ? [e.content_hash] : [])),
    ...doomed.facts.map((f) => f.content_hash),
  ];
  const embeddings = await dropUnreferencedEmbeddings(tx, hashes);
  const docCount = docs.reduce((n, d) => n + d.docIds.length, 0);
  return { events, facts, docs: docCount, embeddings, episodes, links, procedures, examples, ids, evidence };
}

/**
 * Working memory is keyed by session only, so it is in a scope that names at most a session: a scope that
 * names a user, agent or task cannot match it.
 */
function deleteWorkingMemoryIn(tx: Tx, tenant: string, scope: ScopeFilter): Promise<number> {
  if (scope.userId !== undefined || scope.agentId !== undefined || scope.taskId !== undefined) return Promise.resolve(0);
  const where = allOf([sql('tenant = ?', tenant), ...(scope.sessionId !== undefined ? [sql('session_id = ?', scope.sessionId)] : [])]);
  return tx.exec({ text: `DELETE FROM engram.working_memory WHERE ${where.text}`, params: where.params });
}

/**
 * Ids and scope may be combined: everything either names goes. A scope forgets every record whose scope
 * matches (`{}`: the whole tenant, including its retrieval log). Retrieval logs that handed out a
 * forgotten id go too. The audit record keeps ids and counts.
 */
export async function forget(ctx: PgContext, sel: ForgetSelector, at: number): Promise<ForgetReport> {
  if (sel.ids === undefined && sel.scope === undefined) {
    throw new EngramError('VALIDATION', 'forget needs ids or a scope', { issues: [{ path: 'ids', message: 'give ids or scope' }] });
  }
  return ctx.db.tx('forget', async (tx) => {
    const { tenant } = sel;
    await tx.lockTenants([tenant]);
    let doomed: Doomed = NOTHING;
    if (sel.ids?.length) doomed = await byIds(tx, tenant, sel.ids);
    if (sel.scope) doomed = merge(doomed, await byScope(tx, tenant, sel.scope));
    const wholeTenant = sel.scope !== undefined && scopeSql(sel.scope, 'd').length === 0;
    const extraDocs = sel.scope ? allOf(scopeSql(sel.scope, 'd')) : undefined;
    const { ids, evidence, ...report } = await purge(tx, tenant, doomed, { ...(extraDocs ? { extraDocs } : {}), named: sel.ids ?? [], wholeTenant });
    const workingMemories = sel.scope ? await deleteWorkingMemoryIn(tx, tenant, sel.scope) : 0;
    const retrievals = wholeTenant ? await deleteAllRetrievals(tx, tenant) : await deleteRetrievalsMentioning(tx, tenant, ids);
    await writeAudit(tx, {
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
export async function sweepExpired(ctx: PgContext, now: number): Promise<number> {
  return ctx.db.tx('sweepExpired', async (tx) => {
    // The one tenant-spanning read: which tenants have anything expired (each then handled on its own).
    const tenants = (
      await tx.rows<{ tenant: string }>(
        sql(
          `SELECT tenant FROM engram.events WHERE expires_at <= ? UNION SELECT tenant FROM engram.facts WHERE expires_at <= ?
           UNION SELECT tenant FROM engram.docs WHERE expires_at <= ? UNION SELECT tenant FROM engram.working_memory WHERE expires_at <= ?`,
          now, now, now, now,
        ),
      )
    ).map((r) => r.tenant).sort();
    await tx.lockTenants(tenants);
    let total = 0;
    for (const tenant of tenants) {
      const expired = (alias: string) => sql(`${alias}.tenant = ? AND ${alias}.expires_at <= ?`, tenant, now);
      const doomed: Doomed = { ...NOTHING, events: await select(tx, EVENT_ROWS, expired('e')), facts: await select(tx, FACT_ROWS, expired('f')) };
      const { ids, evidence, ...report } = await purge(tx, tenant, doomed, { extraDocs: sql('d.expires_at <= ?', now) });
      const workingMemories = await tx.exec(sql('DELETE FROM engram.working_memory WHERE tenant = ? AND expires_at <= ?', tenant, now));
      total += report.events + report.facts + workingMemories;
      if (report.events + report.facts + report.docs + workingMemories > 0) {
        await writeAudit(tx, { tenant, at: now, action: 'sweep', targetIds: ids, details: { ...report, evidence, workingMemories } });
      }
    }
    return total;
  });
}
