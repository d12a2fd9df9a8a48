/**
 * The knowledge graph (migration 005): entities upserted by id or name, versioned relations, and the events
 * and facts each record cites. Written once over the dialect for every SQL engine. Rows, codecs and validation:
 * graph-rows.ts.
 */
import { EngramError } from '../../../../core/errors.js';
import { nameKey, type Entity, type GraphProvenance, type Relation, type RelationWrite } from '../../../../core/graph.js';
import type { EntityQuery, PutRelationResult, RelationQuery, ScopeFilter } from '../../../../ports/storage.js';
import { toNull } from '../codec.js';
import type { Dialect } from '../dialect.js';
import { allOf, anyOf, scopeSql, sql, type Sql } from '../fragment.js';
import { exec, lockTenants, one, rows, type Step } from '../program.js';
import { limitSql, recordsByIds } from './records.js';
import { insertSql } from '../rows.js';
import { ENTITY_COLUMNS, entityParams, RELATION_COLUMNS, relationParams, rowToEntity, rowToRelation, type EntityRow, type RelationRow } from './graph-rows.js';

// Re-exported so the stores that use them keep importing from here.
export { assertEntities, assertRelations, ENTITY_COLUMNS, entityParams, RELATION_COLUMNS, relationParams, rowToEntity, rowToRelation, type EntityRow, type RelationRow } from './graph-rows.js';

// --- shared pieces ---

const union = (a: readonly string[], b: readonly string[]) => [...new Set([...a, ...b])];

function mergeProvenance(a: GraphProvenance, b: GraphProvenance): GraphProvenance {
  return { origin: a.origin === 'user' || b.origin === 'user' ? 'user' : a.origin, eventIds: union(a.eventIds, b.eventIds), factIds: union(a.factIds, b.factIds) };
}

/** Indexes a record's citations (events and facts): with `previous`, only what changed is written. */
export function* writeSources(tenant: string, recordId: string, p: GraphProvenance, previous?: GraphProvenance): Step<void> {
  const before = new Set(previous ? union(previous.eventIds, previous.factIds) : []);
  const after = union(p.eventIds, p.factIds);
  if (!previous) yield* exec(sql('DELETE FROM engram.graph_sources WHERE tenant = ? AND record_id = ?', tenant, recordId));
  else {
    const keep = new Set(after);
    for (const gone of [...before].filter((x) => !keep.has(x))) {
      yield* exec(sql('DELETE FROM engram.graph_sources WHERE tenant = ? AND source_id = ? AND record_id = ?', tenant, gone, recordId));
    }
  }
  for (const source of after.filter((x) => !before.has(x))) {
    yield* exec(sql('INSERT INTO engram.graph_sources (tenant, source_id, record_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING', tenant, source, recordId));
  }
}

/** Re-indexes the name and alias keys of an entity. */
export function* writeNames(e: Entity): Step<void> {
  yield* exec(sql('DELETE FROM engram.entity_names WHERE tenant = ? AND entity_id = ?', e.tenant, e.id));
  for (const key of new Set([e.name, ...e.aliases].map(nameKey).filter((k) => k !== ''))) {
    yield* exec(sql('INSERT INTO engram.entity_names (tenant, key, entity_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING', e.tenant, key, e.id));
  }
}

// --- entities ---

/** The stored entity `e` resolves to: by id, else by a name or alias key in exactly the same scope (the name's own key first). */
function* resolveEntity(d: Dialect, e: Entity): Step<Entity | undefined> {
  const byId = yield* one<EntityRow>(sql('SELECT * FROM engram.entities WHERE tenant = ? AND id = ?', e.tenant, e.id));
  if (byId) return rowToEntity(byId);
  const keys = [...new Set([e.name, ...e.aliases].map(nameKey))];
  const scope: ScopeFilter = { userId: e.userId, agentId: e.agentId, sessionId: e.sessionId, taskId: e.taskId };
  const where = allOf([sql('n.tenant = ?', e.tenant), ...d.inList('n.key', keys), ...d.exactScope(scope, 'x')]);
  const found = yield* rows<EntityRow & { matched: string }>({
    text: `SELECT x.*, n.key AS matched FROM engram.entity_names n JOIN engram.entities x ON x.tenant = n.tenant AND x.id = n.entity_id
      WHERE ${where.text} ORDER BY x.created_at, x.pk`,
    params: where.params,
  });
  const own = nameKey(e.name);
  const best = found.find((r) => r.matched === own) ?? found[0];
  return best && rowToEntity(best);
}

const GENERIC_TYPES = new Set(['thing', 'unknown', 'entity', 'concept']);

function mergeEntity(old: Entity, e: Entity): Entity {
  const key = nameKey(old.name);
  const aliases = union(old.aliases, [e.name, ...e.aliases]).filter((a, i, all) => nameKey(a) !== key && all.findIndex((b) => nameKey(b) === nameKey(a)) === i);
  return {
    ...old,
    entityType: GENERIC_TYPES.has(old.entityType) && !GENERIC_TYPES.has(e.entityType) ? e.entityType : old.entityType,
    aliases,
    observations: union(old.observations, e.observations),
    summary: e.summary ?? old.summary,
    provenance: mergeProvenance(old.provenance, e.provenance),
    updatedAt: Math.max(old.updatedAt, e.updatedAt),
  };
}

export function* updateEntityRow(d: Dialect, e: Entity, previous: GraphProvenance): Step<void> {
  yield* exec(
    sql(
      `UPDATE engram.entities SET name = ?, name_key = ?, entity_type = ?, aliases = ?, observations = ?, summary = ?, provenance = ?, updated_at = ?
       WHERE tenant = ? AND id = ?`,
      e.name, nameKey(e.name), e.entityType, JSON.stringify(e.aliases), JSON.stringify(e.observations), toNull(e.summary), JSON.stringify(e.provenance),
      e.updatedAt, e.tenant, e.id,
    ),
  );
  yield* writeNames(e);
  yield* writeSources(e.tenant, e.id, e.provenance, previous);
}

export function* putEntities(d: Dialect, list: readonly Entity[]): Step<Entity[]> {
  yield* lockTenants([...new Set(list.map((e) => e.tenant))].sort());
  const out: Entity[] = [];
  for (const e of list) {
    const old = yield* resolveEntity(d, e);
    if (old) {
      const merged = mergeEntity(old, e);
      yield* updateEntityRow(d, merged, old.provenance);
      out.push(merged);
      continue;
    }
    const stored = { ...e, aliases: e.aliases.filter((a, i, all) => nameKey(a) !== nameKey(e.name) && all.findIndex((b) => nameKey(b) === nameKey(a)) === i) };
    yield* exec(sql(insertSql('entities', ENTITY_COLUMNS), ...entityParams(stored)));
    yield* writeNames(stored);
    yield* writeSources(stored.tenant, stored.id, stored.provenance);
    out.push(stored);
  }
  return out;
}

export function* replaceEntity(d: Dialect, e: Entity): Step<Entity> {
  yield* lockTenants([e.tenant]);
  const old = yield* one<EntityRow>(sql('SELECT * FROM engram.entities WHERE tenant = ? AND id = ?', e.tenant, e.id));
  if (!old) throw new EngramError('NOT_FOUND', `no entity ${e.id}`);
  const next = { ...e, createdAt: Number(old.created_at) };
  yield* updateEntityRow(d, next, rowToEntity(old).provenance);
  return next;
}

export function* getEntities(d: Dialect, tenant: string, ids: readonly string[]): Step<Entity[]> {
  return yield* recordsByIds<EntityRow, Entity>(d, 'entities', tenant, ids, rowToEntity);
}

const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function* findEntities(d: Dialect, q: EntityQuery): Step<Entity[]> {
  const parts: Sql[] = [sql('x.tenant = ?', q.tenant), ...scopeSql(q.scope, 'x'), ...d.inList('x.entity_type', q.types ? [...q.types] : undefined)];
  if (q.names) {
    const keys = [...new Set(q.names.map(nameKey).filter((k) => k !== ''))];
    if (keys.length === 0) return [];
    const named = allOf([sql('n.tenant = ?', q.tenant), ...d.inList('n.key', keys)]);
    parts.push({ text: `x.id IN (SELECT n.entity_id FROM engram.entity_names n WHERE ${named.text})`, params: named.params });
  }
  if (q.text !== undefined && q.text.trim() !== '') {
    const pattern = likePattern(q.text.trim());
    parts.push(anyOf(['x.name', 'x.entity_type', 'x.aliases', 'x.observations', 'x.summary'].map((c) => sql(`LOWER(${c}) LIKE ? ESCAPE '\\'`, pattern))));
  }
  const where = allOf(parts);
  const lim = limitSql(q.limit);
  const found = yield* rows<EntityRow>({ text: `SELECT x.* FROM engram.entities x WHERE ${where.text} ORDER BY x.created_at, x.pk${lim.text}`, params: [...where.params, ...lim.params] });
  return found.map(rowToEntity);
}

/** Relations touching any of `entityIds`, and their citations. */
export function* deleteRelationsTouching(d: Dialect, tenant: string, entityIds: readonly string[]): Step<number> {
  if (entityIds.length === 0) return 0;
  const [a, b] = [d.inList('source_id', entityIds)[0]!, d.inList('target_id', entityIds)[0]!];
  const doomed = yield* rows<{ id: string }>({ text: `SELECT id FROM engram.relations WHERE tenant = ? AND (${a.text} OR ${b.text})`, params: [tenant, ...a.params, ...b.params] });
  return yield* deleteRecords(d, 'relations', tenant, doomed.map((r) => r.id));
}

/** Deletes rows of `table` by id, with their names and citations. */
export function* deleteRecords(d: Dialect, table: 'entities' | 'relations', tenant: string, ids: readonly string[]): Step<number> {
  if (ids.length === 0) return 0;
  const named = (column: string) => {
    const w = allOf([sql('tenant = ?', tenant), ...d.inList(column, ids)]);
    return { text: w.text, params: w.params };
  };
  const sources = named('record_id');
  yield* exec({ text: `DELETE FROM engram.graph_sources WHERE ${sources.text}`, params: sources.params });
  if (table === 'entities') {
    const names = named('entity_id');
    yield* exec({ text: `DELETE FROM engram.entity_names WHERE ${names.text}`, params: names.params });
  }
  const own = named('id');
  return yield* exec({ text: `DELETE FROM engram.${table} WHERE ${own.text}`, params: own.params });
}

export function* deleteEntities(d: Dialect, tenant: string, ids: readonly string[]): Step<{ entities: number; relations: number }> {
  yield* lockTenants([tenant]);
  const relations = yield* deleteRelationsTouching(d, tenant, ids);
  const entities = yield* deleteRecords(d, 'entities', tenant, ids);
  return { entities, relations };
}

// --- relations ---

function* requireEntities(d: Dialect, tenant: string, ids: readonly string[]): Step<void> {
  const found = new Set((yield* getEntities(d, tenant, [...new Set(ids)])).map((e) => e.id));
  const missing = ids.find((id) => !found.has(id));
  if (missing) throw new EngramError('NOT_FOUND', `no entity ${missing}`, { issues: [{ path: 'relation', message: `entity ${missing} does not exist` }] });
}

function* closeEdge(tenant: string, id: string, at: number, validTo: number): Step<number> {
  return yield* exec(
    sql('UPDATE engram.relations SET expired_at = ?, valid_to = COALESCE(valid_to, ?) WHERE tenant = ? AND id = ? AND expired_at IS NULL', at, validTo, tenant, id),
  );
}

export function* putRelations(d: Dialect, writes: readonly RelationWrite[]): Step<PutRelationResult[]> {
  yield* lockTenants([...new Set(writes.map((w) => w.relation.tenant))].sort());
  const out: PutRelationResult[] = [];
  for (const { relation: r, exclusive } of writes) {
    yield* requireEntities(d, r.tenant, [r.sourceId, r.targetId]);
    // The same id again (a re-import) is that edge; a closed edge given as such (history, an import) is kept as it is.
    const known = yield* one<RelationRow>(sql('SELECT * FROM engram.relations WHERE tenant = ? AND id = ?', r.tenant, r.id));
    if (known) {
      out.push({ relation: rowToRelation(known), duplicate: true, closed: [] });
      continue;
    }
    if (r.expiredAt !== undefined) {
      yield* exec(sql(insertSql('relations', RELATION_COLUMNS), ...relationParams(r)));
      yield* writeSources(r.tenant, r.id, r.provenance);
      out.push({ relation: r, duplicate: false, closed: [] });
      continue;
    }
    const live = (yield* rows<RelationRow>(
      sql('SELECT * FROM engram.relations WHERE tenant = ? AND source_id = ? AND type = ? AND expired_at IS NULL ORDER BY recorded_at, pk', r.tenant, r.sourceId, r.type),
    )).map(rowToRelation);
    // A replay (the same event read again, e.g. after a restart) is the edge already read from it, even if closed since.
    const cited = new Set(r.provenance.eventIds);
    if (cited.size > 0) {
      const past = (yield* rows<RelationRow>(
        sql('SELECT * FROM engram.relations WHERE tenant = ? AND source_id = ? AND type = ? AND target_id = ? AND expired_at IS NOT NULL', r.tenant, r.sourceId, r.type, r.targetId),
      )).map(rowToRelation);
      const replayed = past.find((x) => x.provenance.eventIds.some((id) => cited.has(id)));
      if (replayed && !live.some((x) => x.targetId === r.targetId)) {
        out.push({ relation: replayed, duplicate: true, closed: [] });
        continue;
      }
    }
    const same = live.find((x) => x.targetId === r.targetId);
    if (same) {
      const merged: Relation = { ...same, confidence: Math.max(same.confidence, r.confidence), provenance: mergeProvenance(same.provenance, r.provenance), text: same.text ?? r.text };
      yield* exec(
        sql('UPDATE engram.relations SET confidence = ?, provenance = ?, text = ? WHERE tenant = ? AND id = ?', merged.confidence, JSON.stringify(merged.provenance), toNull(merged.text), r.tenant, same.id),
      );
      yield* writeSources(r.tenant, same.id, merged.provenance, same.provenance);
      out.push({ relation: merged, duplicate: true, closed: [] });
      continue;
    }
    const closed: string[] = [];
    // 'target': the target has one such relation at a time (one manager): live edges of the type into it close.
    const rivals =
      exclusive === 'target'
        ? (yield* rows<RelationRow>(sql('SELECT * FROM engram.relations WHERE tenant = ? AND target_id = ? AND type = ? AND expired_at IS NULL ORDER BY recorded_at, pk', r.tenant, r.targetId, r.type))).map(rowToRelation)
        : exclusive
          ? live
          : [];
    for (const old of rivals) {
      if ((yield* closeEdge(r.tenant, old.id, r.recordedAt, r.validFrom ?? r.recordedAt)) > 0) closed.push(old.id);
    }
    const stored: Relation = { ...r, expiredAt: undefined, supersedes: r.supersedes ?? closed[0] };
    yield* exec(sql(insertSql('relations', RELATION_COLUMNS), ...relationParams(stored)));
    yield* writeSources(r.tenant, r.id, r.provenance);
    out.push({ relation: stored, duplicate: false, closed });
  }
  return out;
}

export function* getRelations(d: Dialect, tenant: string, ids: readonly string[]): Step<Relation[]> {
  return yield* recordsByIds<RelationRow, Relation>(d, 'relations', tenant, ids, rowToRelation);
}

export function* queryRelations(d: Dialect, q: RelationQuery): Step<Relation[]> {
  const parts: Sql[] = [sql('r.tenant = ?', q.tenant), ...scopeSql(q.scope, 'r'), ...d.inList('r.type', q.types ? [...q.types] : undefined)];
  if (q.entityIds) {
    if (q.entityIds.length === 0) return [];
    const direction = q.direction ?? 'both';
    const ends: Sql[] = [];
    if (direction !== 'in') ends.push(d.inList('r.source_id', q.entityIds)[0]!);
    if (direction !== 'out') ends.push(d.inList('r.target_id', q.entityIds)[0]!);
    parts.push(anyOf(ends));
  }
  if (q.asOf !== undefined) parts.push(sql('r.recorded_at <= ? AND (r.expired_at IS NULL OR r.expired_at > ?)', q.asOf, q.asOf));
  else if (!q.includeExpired) parts.push(sql('r.expired_at IS NULL'));
  if (q.validAt !== undefined) parts.push(sql('(r.valid_from IS NULL OR r.valid_from <= ?) AND (r.valid_to IS NULL OR r.valid_to > ?)', q.validAt, q.validAt));
  const where = allOf(parts);
  const lim = limitSql(q.limit);
  const found = yield* rows<RelationRow>({ text: `SELECT r.* FROM engram.relations r WHERE ${where.text} ORDER BY r.recorded_at, r.pk${lim.text}`, params: [...where.params, ...lim.params] });
  return found.map(rowToRelation);
}

export function* closeRelations(tenant: string, ids: readonly string[], at: number): Step<number> {
  yield* lockTenants([tenant]);
  let n = 0;
  for (const id of new Set(ids)) n += yield* closeEdge(tenant, id, at, at);
  return n;
}
