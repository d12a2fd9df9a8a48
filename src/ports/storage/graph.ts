/** The knowledge-graph sub-port: entities and versioned relations. */
import type { Entity, Relation, RelationWrite } from '../../core/graph.js';
import type { ScopeFilter } from './common.js';

export interface EntityQuery {
  tenant: string;
  scope?: ScopeFilter;
  /** Names or aliases, resolved by `nameKey` (case, possessive and article folded). */
  names?: readonly string[];
  /** Case-insensitive substring of the name, type, aliases or observations. */
  text?: string;
  types?: readonly string[];
  /** Oldest first; at most this many. */
  limit?: number;
}

export interface RelationQuery {
  tenant: string;
  scope?: ScopeFilter;
  /** Relations touching these entities in `direction` ('out': the entity is the source; default 'both'). */
  entityIds?: readonly string[];
  direction?: 'out' | 'in' | 'both';
  types?: readonly string[];
  /** Transaction time: the edges Engram held at this instant (recorded at or before it, not yet closed). */
  asOf?: number;
  /** Valid time: the edges that hold in the world at this instant (open ends unbounded). */
  validAt?: number;
  /** Without `asOf`: closed edges too (history). Default: live edges only. */
  includeExpired?: boolean;
  limit?: number;
}

export interface PutRelationResult {
  relation: Relation;
  /** A live edge with the same source, type and target existed; it was reinforced (confidence, provenance). */
  duplicate: boolean;
  /** Ids of the live edges this one contradicted and closed. */
  closed: string[];
}

/**
 * The knowledge graph (src/core/graph.ts). Entities are upserted by id or by name: an entity whose name or an
 * alias resolves to one already in exactly the same scope is merged into it. Relations are versioned: never
 * updated in place except to reinforce (confidence, provenance) or to close, never deleted except by forget.
 */
export interface GraphStore {
  /**
   * Upserts in one transaction, returning the stored entities in input order. Merging keeps the stored id,
   * name and creation time; aliases, observations and provenance are unions; a given summary replaces the old.
   */
  putEntities(entities: readonly Entity[]): Promise<Entity[]>;
  /** Replaces the entity with this id as given (NOT_FOUND when absent); names are re-indexed. */
  replaceEntity(entity: Entity): Promise<Entity>;
  getEntities(tenant: string, ids: readonly string[]): Promise<Entity[]>;
  findEntities(q: EntityQuery): Promise<Entity[]>;
  /** Deletes entities and every relation touching them. */
  deleteEntities(tenant: string, ids: readonly string[]): Promise<{ entities: number; relations: number }>;
  /**
   * Inserts relations in one transaction, in order. Both ends must be entities of the tenant (NOT_FOUND). A live
   * edge with the same (source, type, target) is reinforced instead; with `exclusive`, the live edges of the same
   * source and type to other targets are closed (`expiredAt` = the new `recordedAt`, `validTo` = the new
   * `validFrom ?? recordedAt` when unset) and the new edge `supersedes` the first of them. A relation whose id is
   * stored already is returned as a duplicate (re-import); one given closed (`expiredAt` set) is stored as history.
   */
  putRelations(writes: readonly RelationWrite[]): Promise<PutRelationResult[]>;
  getRelations(tenant: string, ids: readonly string[]): Promise<Relation[]>;
  /** Oldest first (by recordedAt). */
  queryRelations(q: RelationQuery): Promise<Relation[]>;
  /** Closes live edges at `at` (`validTo` = `at` when unset); the rows stay for history. Returns how many closed. */
  closeRelations(tenant: string, ids: readonly string[], at: number): Promise<number>;
}
