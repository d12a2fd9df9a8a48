/**
 * Physical deletion, once for every engine: `forget` (by ids or scope) and `sweepExpired` (TTL). Both remove
 * the records (events, fact versions, episodes, procedures, examples, working memory), the links and evidence
 * that name them, their docs (the engine's index entries go with them), vectors no doc references any more
 * (an episode's root-cause vector among them), and write an audit record listing ids only. The engine reclaims
 * the space its own way (SQLite: secure_delete and a TRUNCATE checkpoint; PostgreSQL: its next (auto)vacuum).
 */
import { causeVectorKey } from '../../../../core/docs-learn.js';
import { EngramError } from '../../../../core/errors.js';
import type { ForgetReport, ForgetSelector, ScopeFilter } from '../../../../ports/storage.js';
import type { BigIntish } from '../codec.js';
import type { Dialect } from '../dialect.js';
import { allOf, scopeSql, sql, type Sql } from '../fragment.js';
import { deleteDocs, exec, lockTenants, refreshFollowers, rows, type RemovedDocs, type Step, type TimelineSlot } from '../program.js';
import { deleteAllOf, deleteLinksTouching, dropUnreferencedEmbeddings } from './cleanup.js';
import { deleteEvidenceNaming } from './evidence.js';
import { forgetGraph } from './graph-forget.js';
import { deleteAllRetrievals, deleteRetrievalsMentioning, writeAudit } from './logs.js';
import { deleteWorkingMemoryInScope } from './working-memory.js';

interface Keyed {
  pk: BigIntish;
  id: string;
}

interface Doomed {
  events: (Keyed & TimelineSlot & { content_hash: string | null })[];
  facts: (Keyed & { content_hash: string })[];
  episodes: (Keyed & { root_cause?: string | null })[];
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

const select = <T>(head: string, where: Sql): Step<T[]> => rows<T>({ text: `${head} WHERE ${where.text}`, params: where.params });

function* learnedRows(where: Sql): Step<Pick<Doomed, 'episodes' | 'procedures' | 'examples'>> {
  const out = { episodes: [] as Doomed['episodes'], procedures: [] as Keyed[], examples: [] as Keyed[] };
  for (const l of LEARNED) out[l.key] = yield* select<Keyed>(`SELECT x.pk, x.id${l.key === 'episodes' ? ', x.root_cause' : ''} FROM engram.${l.table} x`, where);
  return out;
}

/** Records named by id; a fact id brings its whole lineage (every version of its key). */
function* byIds(d: Dialect, tenant: string, ids: readonly string[]): Step<Doomed> {
  const named = (column: string) => allOf([sql(`${column.split('.')[0]}.tenant = ?`, tenant), ...d.inList(column, ids)]);
  const lineage = named('f2.id');
  return {
    events: yield* select(EVENT_ROWS, named('e.id')),
    facts: yield* select(FACT_ROWS, {
      text: `f.tenant = ? AND f.key IN (SELECT f2.key FROM engram.facts f2 WHERE ${lineage.text})`,
      params: [tenant, ...lineage.params],
    }),
    ...(yield* learnedRows(named('x.id'))),
  };
}

function* byScope(tenant: string, scope: ScopeFilter): Step<Doomed> {
  const inScope = (alias: string) => allOf([sql(`${alias}.tenant = ?`, tenant), ...scopeSql(scope, alias)]);
  return {
    events: yield* select(EVENT_ROWS, inScope('e')),
    facts: yield* select(FACT_ROWS, inScope('f')),
    ...(yield* learnedRows(inScope('x'))),
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

interface Purged extends Required<Omit<ForgetReport, 'entities' | 'relations'>> {
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

function* deleteDocsOf(d: Dialect, tenant: string, kind: string, refIds: readonly string[]): Step<RemovedDocs> {
  if (refIds.length === 0) return { docIds: [], contentHashes: [] };
  return yield* deleteDocs(tenant, allOf([sql('d.kind = ?', kind), ...d.inList('d.ref_id', refIds)]));
}

function* deleteByPk(d: Dialect, table: string, tenant: string, pks: readonly BigIntish[]): Step<number> {
  if (pks.length === 0) return 0;
  const keys = d.inKeys('pk', pks.map(String));
  return yield* exec({ text: `DELETE FROM engram.${table} WHERE tenant = ? AND ${keys.text}`, params: [tenant, ...keys.params] });
}

/**
 * Deletes the records and their docs, the links touching any of them, evidence for removed facts or from
 * removed episodes, then orphaned vectors.
 */
function* purge(d: Dialect, tenant: string, doomed: Doomed, opts: PurgeOptions = {}): Step<Purged> {
  const eventIds = doomed.events.map((e) => e.id);
  const factIds = doomed.facts.map((f) => f.id);
  const learnedIds = LEARNED.flatMap((l) => doomed[l.key].map((r) => r.id));
  const docs = [yield* deleteDocsOf(d, tenant, 'event', eventIds), yield* deleteDocsOf(d, tenant, 'fact', factIds)];
  for (const l of LEARNED) docs.push(yield* deleteDocsOf(d, tenant, l.kind, doomed[l.key].map((r) => r.id)));
  if (opts.extraDocs) docs.push(yield* deleteDocs(tenant, opts.extraDocs));
  const events = yield* deleteByPk(d, 'events', tenant, doomed.events.map((e) => e.pk));
  if (!opts.wholeTenant) yield* refreshFollowers(tenant, doomed.events);
  const facts = yield* deleteByPk(d, 'facts', tenant, doomed.facts.map((f) => f.pk));
  const episodes = yield* deleteByPk(d, 'episodes', tenant, doomed.episodes.map((r) => r.pk));
  const procedures = yield* deleteByPk(d, 'procedures', tenant, doomed.procedures.map((r) => r.pk));
  const examples = yield* deleteByPk(d, 'examples', tenant, doomed.examples.map((r) => r.pk));
  const ids = [...eventIds, ...factIds, ...learnedIds];
  const named = opts.named ?? [];
  const links = opts.wholeTenant ? yield* deleteAllOf('links', tenant) : yield* deleteLinksTouching(d, tenant, [...new Set([...ids, ...named])]);
  const evidence = opts.wholeTenant
    ? yield* deleteAllOf('fact_evidence', tenant)
    : yield* deleteEvidenceNaming(d, tenant, [...factIds, ...named], [...doomed.episodes.map((e) => e.id), ...named]);
  const hashes = [
    ...docs.flatMap((x) => x.contentHashes),
    ...doomed.events.flatMap((e) => (e.content_hash ? [e.content_hash] : [])),
    ...doomed.facts.map((f) => f.content_hash),
    // The episodes' root-cause vectors (stored by the learner). An episode elsewhere with the same cause loses
    // it too; its reads embed the cause again (src/read/cases.ts).
    ...doomed.episodes.flatMap((e) => (e.root_cause ? [causeVectorKey(e.root_cause)] : [])),
  ];
  const embeddings = yield* dropUnreferencedEmbeddings(d, hashes);
  const docCount = docs.reduce((n, x) => n + x.docIds.length, 0);
  return { events, facts, docs: docCount, embeddings, episodes, links, procedures, examples, ids, evidence };
}

export function assertForgetSelector(sel: ForgetSelector): void {
  if (sel.ids === undefined && sel.scope === undefined) {
    throw new EngramError('VALIDATION', 'forget needs ids or a scope', { issues: [{ path: 'ids', message: 'give ids or scope' }] });
  }
}

/**
 * Ids and scope may be combined: everything either names goes. A scope forgets every record whose scope
 * matches (`{}`: the whole tenant, including its retrieval log). Retrieval logs that handed out a
 * forgotten id go too, since their query text may be about it. The audit record keeps ids and counts.
 */
export function* forget(d: Dialect, sel: ForgetSelector, at: number): Step<ForgetReport> {
  const { tenant } = sel;
  yield* lockTenants([tenant]);
  let doomed: Doomed = NOTHING;
  if (sel.ids?.length) doomed = yield* byIds(d, tenant, sel.ids);
  if (sel.scope) doomed = merge(doomed, yield* byScope(tenant, sel.scope));
  const wholeTenant = sel.scope !== undefined && scopeSql(sel.scope, 'd').length === 0;
  const extraDocs = sel.scope ? allOf(scopeSql(sel.scope, 'd')) : undefined;
  const { ids, evidence, ...purged } = yield* purge(d, tenant, doomed, { ...(extraDocs ? { extraDocs } : {}), named: sel.ids ?? [], wholeTenant });
  const report: ForgetReport = purged;
  const graph = yield* forgetGraph(d, tenant, { ids: sel.ids ?? [], forgottenSources: [...ids, ...(sel.ids ?? [])], scope: sel.scope, wholeTenant });
  if (graph.entities > 0) report.entities = graph.entities;
  if (graph.relations > 0) report.relations = graph.relations;
  const workingMemories = sel.scope ? yield* deleteWorkingMemoryInScope(tenant, sel.scope) : 0;
  const retrievals = wholeTenant ? yield* deleteAllRetrievals(tenant) : yield* deleteRetrievalsMentioning(d, tenant, ids);
  yield* writeAudit({
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
}

/**
 * Deletes, in every tenant, what expired at or before `now` (events, fact versions, docs, working memory), and
 * the graph's citations of them; one audit record per tenant touched. Returns the number of records (not docs) deleted.
 */
export function* sweepExpired(d: Dialect, now: number): Step<number> {
  // The one tenant-spanning read: which tenants have anything expired (each then handled on its own).
  const found = yield* rows<{ tenant: string }>(
    sql(
      `SELECT tenant FROM engram.events WHERE expires_at <= ? UNION SELECT tenant FROM engram.facts WHERE expires_at <= ?
       UNION SELECT tenant FROM engram.docs WHERE expires_at <= ? UNION SELECT tenant FROM engram.working_memory WHERE expires_at <= ?`,
      now, now, now, now,
    ),
  );
  const tenants = found.map((r) => r.tenant).sort();
  yield* lockTenants(tenants);
  let total = 0;
  for (const tenant of tenants) {
    const expired = (alias: string) => sql(`${alias}.tenant = ? AND ${alias}.expires_at <= ?`, tenant, now);
    const doomed: Doomed = { ...NOTHING, events: yield* select(EVENT_ROWS, expired('e')), facts: yield* select(FACT_ROWS, expired('f')) };
    const { ids, evidence, ...report } = yield* purge(d, tenant, doomed, { extraDocs: sql('d.expires_at <= ?', now) });
    // The graph loses its citations of what expired; a relation or entity nothing supports any more goes (graph-forget.ts).
    const graph = ids.length > 0 ? yield* forgetGraph(d, tenant, { ids: [], forgottenSources: ids, wholeTenant: false }) : { entities: 0, relations: 0 };
    const workingMemories = yield* exec(sql('DELETE FROM engram.working_memory WHERE tenant = ? AND expires_at <= ?', tenant, now));
    total += report.events + report.facts + workingMemories;
    if (report.events + report.facts + report.docs + workingMemories > 0) {
      const graphCounts = { ...(graph.entities > 0 ? { entities: graph.entities } : {}), ...(graph.relations > 0 ? { relations: graph.relations } : {}) };
      yield* writeAudit({ tenant, at: now, action: 'sweep', targetIds: ids, details: { ...report, ...graphCounts, evidence, workingMemories } });
    }
  }
  return total;
}
