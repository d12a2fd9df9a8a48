/**
 * Forgetting and sweeping the knowledge graph (inside forget's or the sweep's transaction).
 *
 * - Named entities and relations go (an entity with its relations); a scope removes the graph records in it; the
 *   whole tenant, every one.
 * - A record citing a forgotten or expired event or fact loses the citation. A relation nothing supports any more
 *   (no event, no fact, not stated by a user) is deleted; one still supported stays, without its statement when a
 *   cited event went (the text may be that event's words). An entity nothing supports goes too, unless it is
 *   user-stated or a relation that stays still joins it.
 */
import { isId } from '../../../../core/ids.js';
import type { GraphProvenance, Relation } from '../../../../core/graph.js';
import type { ScopeFilter } from '../../../../ports/storage.js';
import type { Dialect } from '../dialect.js';
import { allOf, scopeSql, sql } from '../fragment.js';
import { exec, rows, type Step } from '../program.js';
import { deleteRecords, deleteRelationsTouching, getEntities, getRelations, updateEntityRow, writeSources } from './graph.js';

export interface GraphForgetSelection {
  ids: readonly string[];
  /** Events and facts that were deleted: what cites them loses the citation. */
  forgottenSources: readonly string[];
  scope?: ScopeFilter | undefined;
  wholeTenant: boolean;
}

function without(p: GraphProvenance, gone: ReadonlySet<string>): GraphProvenance {
  return { ...p, eventIds: p.eventIds.filter((x) => !gone.has(x)), factIds: p.factIds.filter((x) => !gone.has(x)) };
}

const supported = (p: GraphProvenance) => p.origin === 'user' || p.eventIds.length + p.factIds.length > 0;

function* keepRelation(r: Relation, provenance: GraphProvenance): Step<void> {
  const lostEvent = r.provenance.eventIds.length !== provenance.eventIds.length;
  const text = lostEvent ? null : (r.text ?? null);
  yield* exec(sql('UPDATE engram.relations SET provenance = ?, text = ? WHERE tenant = ? AND id = ?', JSON.stringify(provenance), text, r.tenant, r.id));
  yield* writeSources(r.tenant, r.id, provenance, r.provenance);
}

/** Relation and entity ids citing any of `sources`. */
function* citing(d: Dialect, tenant: string, sources: readonly string[]): Step<string[]> {
  const cited = allOf([sql('s.tenant = ?', tenant), ...d.inList('s.source_id', sources)]);
  return (yield* rows<{ record_id: string }>({ text: `SELECT DISTINCT s.record_id FROM engram.graph_sources s WHERE ${cited.text}`, params: cited.params })).map((r) => r.record_id);
}

/** Whether a relation other than those in `doomed` touches `entityId`. */
function* survivingRelationOf(tenant: string, entityId: string, doomed: ReadonlySet<string>): Step<boolean> {
  const found = yield* rows<{ id: string }>(sql('SELECT id FROM engram.relations WHERE tenant = ? AND (source_id = ? OR target_id = ?)', tenant, entityId, entityId));
  return found.some((r) => !doomed.has(r.id));
}

export function* forgetGraph(d: Dialect, tenant: string, sel: GraphForgetSelection): Step<{ entities: number; relations: number }> {
  if (sel.wholeTenant) {
    let relations = 0;
    let entities = 0;
    for (const table of ['graph_sources', 'entity_names', 'relations', 'entities']) {
      const n = yield* exec(sql(`DELETE FROM engram.${table} WHERE tenant = ?`, tenant));
      if (table === 'relations') relations = n;
      if (table === 'entities') entities = n;
    }
    return { entities, relations };
  }
  const entityIds = new Set(sel.ids.filter((id) => isId('entity', id)));
  const relationIds = new Set(sel.ids.filter((id) => isId('relation', id)));
  if (sel.scope) {
    const inScope = (alias: string) => allOf([sql(`${alias}.tenant = ?`, tenant), ...scopeSql(sel.scope, alias)]);
    const e = inScope('x');
    for (const r of yield* rows<{ id: string }>({ text: `SELECT x.id FROM engram.entities x WHERE ${e.text}`, params: e.params })) entityIds.add(r.id);
    const rel = inScope('r');
    for (const r of yield* rows<{ id: string }>({ text: `SELECT r.id FROM engram.relations r WHERE ${rel.text}`, params: rel.params })) relationIds.add(r.id);
  }
  const sources = [...new Set(sel.forgottenSources)];
  if (sources.length > 0) {
    const gone = new Set(sources);
    const records = yield* citing(d, tenant, sources);
    // Relations first: whether an unsupported entity stays depends on the relations that stay.
    // The ends of a relation that goes are looked at too: an entity kept only by it is left unsupported.
    const ends = new Set<string>();
    for (const r of yield* getRelations(d, tenant, records.filter((id) => isId('relation', id) && !relationIds.has(id)))) {
      const provenance = without(r.provenance, gone);
      if (supported(provenance)) yield* keepRelation(r, provenance);
      else {
        relationIds.add(r.id);
        ends.add(r.sourceId).add(r.targetId);
      }
    }
    const candidates = [...new Set([...records.filter((id) => isId('entity', id)), ...ends])].filter((id) => !entityIds.has(id));
    for (const e of yield* getEntities(d, tenant, candidates)) {
      const provenance = without(e.provenance, gone);
      if (!supported(provenance) && !(yield* survivingRelationOf(tenant, e.id, relationIds))) entityIds.add(e.id);
      else if (provenance.eventIds.length + provenance.factIds.length !== e.provenance.eventIds.length + e.provenance.factIds.length) {
        yield* updateEntityRow(d, { ...e, provenance }, e.provenance);
      }
    }
  }
  const touching = yield* deleteRelationsTouching(d, tenant, [...entityIds]);
  const relations = touching + (yield* deleteRecords(d, 'relations', tenant, [...relationIds]));
  const entities = yield* deleteRecords(d, 'entities', tenant, [...entityIds]);
  return { entities, relations };
}
