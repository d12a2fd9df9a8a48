/**
 * `memory.graph`: the knowledge graph as a library API. The reference MCP memory server's operations
 * (`@modelcontextprotocol/server-memory`: entities `{name, entityType, observations}`, relations `{from, to,
 * relationType}`) with its semantics — creating an entity whose name exists is skipped, a repeated relation is
 * skipped, adding observations to an unknown entity fails — plus Engram's own: graph search ranked for a
 * question, entity and relation queries with history, `asOf` (what Engram held then) and `validAt` (what held in
 * the world then).
 *
 * Differences, all on the lenient side: names resolve by `nameKey` (case, possessive and article folded, aliases
 * too); relation types are stored in snake_case ("works at" → works_at); a relation naming an entity that does
 * not exist creates it (type "unknown"); deleting a relation closes it (history and `asOf` still see it).
 */
import { EngramError } from '../core/errors.js';
import { nameKey, relationTypeKey, type Entity, type GraphProvenance, type Relation } from '../core/graph.js';
import { newId } from '../core/ids.js';
import type { Clock } from '../ports/clock.js';
import type { GraphStore, ScopeFilter } from '../ports/storage.js';
import { graphRetrieve } from '../read/graph.js';
import { hitView, type GraphHitView } from '../read/graph-render.js';
import { queryTimeWindow } from '../read/time-window.js';

export interface GraphScope {
  tenant?: string | undefined;
  userId?: string | undefined;
  agentId?: string | undefined;
}

export interface RefEntity {
  name: string;
  entityType: string;
  observations: string[];
}

export interface RefRelation {
  from: string;
  to: string;
  relationType: string;
}

export interface RefGraph {
  entities: RefEntity[];
  relations: RefRelation[];
}

export interface RelationInput extends RefRelation {
  /** When it began to hold (epoch ms). */
  validFrom?: number | undefined;
  /** Closes the live edges of the same source and type to other targets (a move, a new employer). */
  exclusive?: boolean | undefined;
  confidence?: number | undefined;
  /** The statement, as written. */
  text?: string | undefined;
  /** Events and facts it was read from. */
  eventIds?: string[] | undefined;
  factIds?: string[] | undefined;
}

export interface RelationQueryInput extends GraphScope {
  /** Relations touching this entity (name or alias). */
  entity?: string | undefined;
  direction?: 'out' | 'in' | 'both' | undefined;
  types?: string[] | undefined;
  asOf?: number | undefined;
  validAt?: number | undefined;
  includeExpired?: boolean | undefined;
  limit?: number | undefined;
}

/** A relation with its ends' names, as the surfaces show it. */
export interface RelationView extends Relation {
  from: string;
  to: string;
}

export interface GraphApi {
  createEntities(entities: readonly RefEntity[], scope?: GraphScope): Promise<RefEntity[]>;
  createRelations(relations: readonly RelationInput[], scope?: GraphScope): Promise<RefRelation[]>;
  addObservations(observations: readonly { entityName: string; contents: string[] }[], scope?: GraphScope): Promise<{ entityName: string; addedObservations: string[] }[]>;
  deleteEntities(entityNames: readonly string[], scope?: GraphScope): Promise<{ entities: number; relations: number }>;
  deleteObservations(deletions: readonly { entityName: string; observations: string[] }[], scope?: GraphScope): Promise<void>;
  /** Closes the matching live relations (they stay for history); returns how many. */
  deleteRelations(relations: readonly RefRelation[], scope?: GraphScope): Promise<number>;
  readGraph(scope?: GraphScope & { asOf?: number | undefined }): Promise<RefGraph>;
  searchNodes(query: string, scope?: GraphScope): Promise<RefGraph>;
  openNodes(names: readonly string[], scope?: GraphScope): Promise<RefGraph>;
  /** Relations around the entities a question names, ranked for it (what getContext's Entities section shows). */
  search(query: string, opts?: GraphScope & { asOf?: number | undefined; limit?: number | undefined }): Promise<GraphHitView[]>;
  entities(q?: GraphScope & { names?: string[] | undefined; text?: string | undefined; types?: string[] | undefined; limit?: number | undefined }): Promise<Entity[]>;
  relations(q?: RelationQueryInput): Promise<RelationView[]>;
}

const MAX_LIST = 10_000;

function invalid(path: string, message: string): never {
  throw new EngramError('VALIDATION', `invalid ${path}: ${message}`, { issues: [{ path, message }] });
}

const checkText = (v: unknown, path: string, max = 500): string => (typeof v === 'string' && v.trim() !== '' && v.length <= max ? v.trim() : invalid(path, `a non-empty string of at most ${max} characters`));
const checkList = <T>(v: unknown, path: string): T[] => (Array.isArray(v) && v.length <= MAX_LIST ? (v as T[]) : invalid(path, `a list of at most ${MAX_LIST}`));
const checkTexts = (v: unknown, path: string): string[] => checkList<unknown>(v, path).map((x, i) => checkText(x, `${path}.${i}`, 10_000));

export function createGraphApi(storage: GraphStore, clock: Clock, defaultTenant: string): GraphApi {
  const g = graphContext(storage, clock, defaultTenant);
  const { tenantOf, scopeOf, resolve, subgraph } = g;
  return {
    createEntities: (list, s) => createEntities(g, list, s),

    createRelations: (list, s) => createRelations(g, list, s),

    addObservations: (list, s) => addObservations(g, list, s),

    async deleteEntities(names, s) {
      const list = checkList<string>(names, 'entityNames').map((n, i) => checkText(n, `entityNames.${i}`));
      const ids: string[] = [];
      for (const n of list) {
        const e = await resolve(n, s);
        if (e) ids.push(e.id);
      }
      return storage.deleteEntities(tenantOf(s), [...new Set(ids)]);
    },

    async deleteObservations(list, s) {
      for (const [i, d] of checkList<{ entityName: string; observations: string[] }>(list, 'deletions').entries()) {
        const e = await resolve(checkText(d?.entityName, `deletions.${i}.entityName`), s);
        const drop = new Set(checkTexts(d?.observations, `deletions.${i}.observations`));
        if (e && e.observations.some((o) => drop.has(o))) await storage.replaceEntity({ ...e, observations: e.observations.filter((o) => !drop.has(o)), updatedAt: clock.now() });
      }
    },

    deleteRelations: (list, s) => deleteRelations(g, list, s),

    async readGraph(s = {}) {
      const entities = await storage.findEntities({ tenant: tenantOf(s), scope: scopeOf(s), limit: 100_000 });
      return subgraph(entities, s, s.asOf);
    },

    async searchNodes(query, s) {
      const q = typeof query === 'string' ? query : invalid('query', 'a string');
      const entities = q.trim() === '' ? [] : await storage.findEntities({ tenant: tenantOf(s), scope: scopeOf(s), text: q, limit: 10_000 });
      return subgraph(entities, s);
    },

    async openNodes(names, s) {
      const list = checkList<string>(names, 'names').map((n, i) => checkText(n, `names.${i}`));
      const found: Entity[] = [];
      for (const n of list) {
        const e = await resolve(n, s);
        if (e && !found.some((f) => f.id === e.id)) found.push(e);
      }
      return subgraph(found, s);
    },

    async search(query, o = {}) {
      const q = checkText(query, 'query', 10_000);
      const hits = await graphRetrieve(storage, { tenant: tenantOf(o), scope: scopeOf(o), query: q, asOf: o.asOf, timeWindow: queryTimeWindow(q, clock.now()) ?? null, limit: o.limit ?? 20 });
      return hits.map(hitView);
    },

    async entities(q = {}) {
      return storage.findEntities({ tenant: tenantOf(q), scope: scopeOf(q), names: q.names, text: q.text, types: q.types, limit: q.limit ?? 100 });
    },

    relations: (q) => relations(g, q),
  };
}

const toRef = (e: Entity): RefEntity => ({ name: e.name, entityType: e.entityType, observations: [...e.observations] });

/** What the graph API's operations share: the store, the clock, and how a scope and a name resolve. */
interface GraphContext {
  storage: GraphStore;
  clock: Clock;
  tenantOf(s?: GraphScope): string;
  scopeOf(s?: GraphScope): ScopeFilter | undefined;
  resolve(name: string, s?: GraphScope): Promise<Entity | undefined>;
  newEntity(name: string, entityType: string, observations: string[], s?: GraphScope): Entity;
  withNames(relations: readonly Relation[], tenant: string): Promise<RelationView[]>;
  subgraph(entities: readonly Entity[], s?: GraphScope, asOf?: number): Promise<RefGraph>;
}

function graphContext(storage: GraphStore, clock: Clock, defaultTenant: string): GraphContext {
  const tenantOf = (s?: GraphScope) => s?.tenant ?? defaultTenant;
  const scopeOf = (s?: GraphScope): ScopeFilter | undefined =>
    s && (s.userId !== undefined || s.agentId !== undefined) ? { ...(s.userId !== undefined ? { userId: s.userId } : {}), ...(s.agentId !== undefined ? { agentId: s.agentId } : {}) } : undefined;
  const user = (): GraphProvenance => ({ origin: 'user', eventIds: [], factIds: [] });

  /** The entity a name resolves to in scope: its own name first, else an alias. */
  async function resolve(name: string, s?: GraphScope): Promise<Entity | undefined> {
    const found = await storage.findEntities({ tenant: tenantOf(s), scope: scopeOf(s), names: [name], limit: 20 });
    return found.find((e) => nameKey(e.name) === nameKey(name)) ?? found[0];
  }

  function newEntity(name: string, entityType: string, observations: string[], s?: GraphScope): Entity {
    const now = clock.now();
    return {
      id: newId('entity'),
      tenant: tenantOf(s),
      userId: s?.userId,
      agentId: s?.agentId,
      name,
      entityType,
      aliases: [],
      observations: [...new Set(observations)],
      provenance: user(),
      createdAt: now,
      updatedAt: now,
    };
  }

  async function withNames(relations: readonly Relation[], tenant: string): Promise<RelationView[]> {
    const ids = [...new Set(relations.flatMap((r) => [r.sourceId, r.targetId]))];
    const names = new Map((await storage.getEntities(tenant, ids)).map((e) => [e.id, e.name]));
    return relations.flatMap((r) => {
      const from = names.get(r.sourceId);
      const to = names.get(r.targetId);
      return from !== undefined && to !== undefined ? [{ ...r, from, to }] : [];
    });
  }

  /** Entities and the live relations between them (both ends among them), in the reference shape. */
  async function subgraph(entities: readonly Entity[], s?: GraphScope, asOf?: number): Promise<RefGraph> {
    const ids = new Set(entities.map((e) => e.id));
    const rels = ids.size
      ? await storage.queryRelations({ tenant: tenantOf(s), scope: scopeOf(s), entityIds: [...ids], direction: 'out', ...(asOf !== undefined ? { asOf } : {}), limit: 100_000 })
      : [];
    const views = await withNames(rels.filter((r) => ids.has(r.targetId)), tenantOf(s));
    return { entities: entities.map(toRef), relations: views.map((r) => ({ from: r.from, to: r.to, relationType: r.type })) };
  }

  return { storage, clock, tenantOf, scopeOf, resolve, newEntity, withNames, subgraph };
}

/** `createEntities`: the named entities that do not exist yet in scope (by name or alias), in the reference shape. */
async function createEntities(g: GraphContext, list: readonly RefEntity[], s?: GraphScope): Promise<RefEntity[]> {
  const { storage, resolve, newEntity } = g;
  const input = checkList<RefEntity>(list, 'entities').map((e, i) => ({
    name: checkText(e?.name, `entities.${i}.name`),
    entityType: checkText(e?.entityType, `entities.${i}.entityType`, 200),
    observations: checkTexts(e?.observations ?? [], `entities.${i}.observations`),
  }));
  const created: RefEntity[] = [];
  const fresh: Entity[] = [];
  for (const e of input) {
    if ((await resolve(e.name, s)) || fresh.some((f) => nameKey(f.name) === nameKey(e.name))) continue;
    fresh.push(newEntity(e.name, e.entityType, e.observations, s));
  }
  for (const e of await storage.putEntities(fresh)) created.push(toRef(e));
  return created;
}

/** `createRelations`: each relation, its ends created as `unknown` entities when they do not exist; the new ones back. */
async function createRelations(g: GraphContext, list: readonly RelationInput[], s?: GraphScope): Promise<RefRelation[]> {
  const { storage, clock, tenantOf, resolve, newEntity } = g;
  const input = checkList<RelationInput>(list, 'relations').map((r, i) => {
    const type = relationTypeKey(checkText(r?.relationType, `relations.${i}.relationType`, 200));
    if (type === '') invalid(`relations.${i}.relationType`, 'letters or digits');
    if (r.confidence !== undefined && !(typeof r.confidence === 'number' && r.confidence >= 0 && r.confidence <= 1)) invalid(`relations.${i}.confidence`, 'a number in [0, 1]');
    return { ...r, from: checkText(r?.from, `relations.${i}.from`), to: checkText(r?.to, `relations.${i}.to`), type };
  });
  const ids = new Map<string, string>();
  const ensure = async (name: string): Promise<string> => {
    const key = nameKey(name);
    const known = ids.get(key) ?? (await resolve(name, s))?.id ?? (await storage.putEntities([newEntity(name, 'unknown', [], s)]))[0]!.id;
    ids.set(key, known);
    return known;
  };
  const now = clock.now();
  const writes = [];
  for (const r of input) {
    const relation: Relation = {
      id: newId('relation'),
      tenant: tenantOf(s),
      userId: s?.userId,
      agentId: s?.agentId,
      sourceId: await ensure(r.from),
      targetId: await ensure(r.to),
      type: r.type,
      text: r.text,
      validFrom: r.validFrom,
      recordedAt: now,
      confidence: r.confidence ?? 1,
      provenance: { origin: 'user', eventIds: r.eventIds ?? [], factIds: r.factIds ?? [] },
    };
    writes.push({ relation, exclusive: r.exclusive ?? false });
  }
  const results = await storage.putRelations(writes);
  return results.flatMap((x, i) => (x.duplicate ? [] : [{ from: input[i]!.from, to: input[i]!.to, relationType: input[i]!.type }]));
}

/** `addObservations`: to existing entities only (NOT_FOUND otherwise); what each got that it did not have. */
async function addObservations(g: GraphContext, list: readonly { entityName: string; contents: string[] }[], s?: GraphScope): Promise<{ entityName: string; addedObservations: string[] }[]> {
  const { storage, clock, resolve } = g;
  const out: { entityName: string; addedObservations: string[] }[] = [];
  for (const [i, o] of checkList<{ entityName: string; contents: string[] }>(list, 'observations').entries()) {
    const name = checkText(o?.entityName, `observations.${i}.entityName`);
    const contents = checkTexts(o?.contents, `observations.${i}.contents`);
    const e = await resolve(name, s);
    if (!e) throw new EngramError('NOT_FOUND', `Entity with name ${name} not found`, { issues: [{ path: `observations.${i}.entityName`, message: 'no such entity' }] });
    const added = [...new Set(contents.filter((c) => !e.observations.includes(c)))];
    if (added.length) await storage.replaceEntity({ ...e, observations: [...e.observations, ...added], updatedAt: clock.now() });
    out.push({ entityName: name, addedObservations: added });
  }
  return out;
}

/** `deleteRelations`: closes the matching live relations (kept for history); how many. */
async function deleteRelations(g: GraphContext, list: readonly RefRelation[], s?: GraphScope): Promise<number> {
  const { storage, clock, tenantOf, scopeOf, resolve } = g;
  const doomed: string[] = [];
  for (const [i, r] of checkList<RefRelation>(list, 'relations').entries()) {
    const [from, to] = [await resolve(checkText(r?.from, `relations.${i}.from`), s), await resolve(checkText(r?.to, `relations.${i}.to`), s)];
    const type = relationTypeKey(checkText(r?.relationType, `relations.${i}.relationType`, 200));
    if (!from || !to) continue;
    const live = await storage.queryRelations({ tenant: tenantOf(s), scope: scopeOf(s), entityIds: [from.id], direction: 'out', types: [type] });
    doomed.push(...live.filter((x) => x.targetId === to.id).map((x) => x.id));
  }
  return storage.closeRelations(tenantOf(s), doomed, clock.now());
}

/** `relations`: around an entity (name or alias) or all, with both ends named. */
async function relations(g: GraphContext, q: RelationQueryInput = {}): Promise<RelationView[]> {
  const { storage, tenantOf, scopeOf, resolve, withNames } = g;
  const tenant = tenantOf(q);
  let entityIds: string[] | undefined;
  if (q.entity !== undefined) {
    const e = await resolve(checkText(q.entity, 'entity'), q);
    if (!e) return [];
    entityIds = [e.id];
  }
  const found = await storage.queryRelations({
    tenant,
    scope: scopeOf(q),
    ...(entityIds ? { entityIds, direction: q.direction ?? 'both' } : {}),
    types: q.types?.map(relationTypeKey),
    asOf: q.asOf,
    validAt: q.validAt,
    includeExpired: q.includeExpired,
    limit: q.limit ?? 100,
  });
  return withNames(found, tenant);
}
