/**
 * The knowledge graph's rows (migration 005): entity and relation row shapes, their columns and codecs, and the
 * validation every graph write passes before it touches storage. The queries are in graph.ts.
 */
import { EngramError } from '../../../../core/errors.js';
import { nameKey, relationTypeKey, type Entity, type GraphProvenance, type Relation, type RelationWrite } from '../../../../core/graph.js';
import { isId } from '../../../../core/ids.js';
import { toNull } from '../codec.js';
import { SCOPE_PARAMS, scopeOf, scopeParams, type ScopeRow } from '../rows-learn.js';

type Opt<T> = T | null;
type Param = string | number | null;

export interface EntityRow extends ScopeRow {
  id: string;
  name: string;
  name_key: string;
  entity_type: string;
  aliases: string;
  observations: string;
  summary: Opt<string>;
  provenance: string;
  created_at: number;
  updated_at: number;
}

export interface RelationRow extends ScopeRow {
  id: string;
  source_id: string;
  target_id: string;
  type: string;
  text: Opt<string>;
  valid_from: Opt<number>;
  valid_to: Opt<number>;
  recorded_at: number;
  expired_at: Opt<number>;
  confidence: number;
  supersedes: Opt<string>;
  provenance: string;
}

const opt = <T>(v: T | null): T | undefined => (v === null ? undefined : v);
const num = (v: number | string | null): number | undefined => (v === null ? undefined : Number(v));
export const ENTITY_COLUMNS = [...SCOPE_PARAMS, 'id', 'name', 'name_key', 'entity_type', 'aliases', 'observations', 'summary', 'provenance', 'created_at', 'updated_at'];
export const RELATION_COLUMNS = [
  ...SCOPE_PARAMS, 'id', 'source_id', 'target_id', 'type', 'text', 'valid_from', 'valid_to', 'recorded_at', 'expired_at', 'confidence', 'supersedes', 'provenance',
];

export function rowToEntity(r: EntityRow): Entity {
  return {
    id: r.id,
    ...scopeOf(r),
    name: r.name,
    entityType: r.entity_type,
    aliases: JSON.parse(r.aliases) as string[],
    observations: JSON.parse(r.observations) as string[],
    summary: opt(r.summary),
    provenance: JSON.parse(r.provenance) as GraphProvenance,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

export function rowToRelation(r: RelationRow): Relation {
  return {
    id: r.id,
    ...scopeOf(r),
    sourceId: r.source_id,
    targetId: r.target_id,
    type: r.type,
    text: opt(r.text),
    validFrom: num(r.valid_from),
    validTo: num(r.valid_to),
    recordedAt: Number(r.recorded_at),
    expiredAt: num(r.expired_at),
    confidence: Number(r.confidence),
    supersedes: opt(r.supersedes),
    provenance: JSON.parse(r.provenance) as GraphProvenance,
  };
}

export const entityParams = (e: Entity): Param[] => [
  ...scopeParams(e), e.id, e.name, nameKey(e.name), e.entityType, JSON.stringify(e.aliases), JSON.stringify(e.observations),
  toNull(e.summary), JSON.stringify(e.provenance), e.createdAt, e.updatedAt,
];

export const relationParams = (r: Relation): Param[] => [
  ...scopeParams(r), r.id, r.sourceId, r.targetId, r.type, toNull(r.text), toNull(r.validFrom), toNull(r.validTo), r.recordedAt,
  toNull(r.expiredAt), r.confidence, toNull(r.supersedes), JSON.stringify(r.provenance),
];

// --- validation (before any write) ---

function invalid(path: string, message: string): never {
  throw new EngramError('VALIDATION', `invalid ${path}: ${message}`, { issues: [{ path, message }] });
}

const isTime = (v: unknown) => typeof v === 'number' && Number.isFinite(v);

function assertProvenance(p: GraphProvenance | undefined, path: string): void {
  if (!p || !['user', 'extraction', 'llm', 'import'].includes(p.origin)) invalid(`${path}.origin`, 'user, extraction, llm or import');
  if (!Array.isArray(p.eventIds) || !p.eventIds.every((x) => typeof x === 'string')) invalid(`${path}.eventIds`, 'a list of ids');
  if (!Array.isArray(p.factIds) || !p.factIds.every((x) => typeof x === 'string')) invalid(`${path}.factIds`, 'a list of ids');
}

const isText = (v: unknown, max = 10_000): v is string => typeof v === 'string' && v.trim() !== '' && v.length <= max;

export function assertEntities(list: readonly Entity[]): void {
  list.forEach((e, i) => {
    const p = `entities.${i}`;
    if (!isId('entity', e.id)) invalid(`${p}.id`, 'an entity id (ent_<ULID>)');
    if (!isText(e.tenant, 200)) invalid(`${p}.tenant`, 'a non-empty string');
    if (!isText(e.name, 500) || nameKey(e.name) === '') invalid(`${p}.name`, 'a non-empty name of at most 500 characters');
    if (!isText(e.entityType, 200)) invalid(`${p}.entityType`, 'a non-empty string');
    if (!Array.isArray(e.aliases) || !e.aliases.every((a) => isText(a, 500))) invalid(`${p}.aliases`, 'a list of non-empty names');
    if (!Array.isArray(e.observations) || !e.observations.every((o) => typeof o === 'string' && o.length <= 10_000)) {
      invalid(`${p}.observations`, 'a list of strings');
    }
    if (e.summary !== undefined && typeof e.summary !== 'string') invalid(`${p}.summary`, 'a string');
    if (!isTime(e.createdAt) || !isTime(e.updatedAt)) invalid(`${p}.createdAt`, 'epoch milliseconds');
    assertProvenance(e.provenance, `${p}.provenance`);
  });
}

export function assertRelations(list: readonly RelationWrite[]): void {
  list.forEach(({ relation: r }, i) => {
    const p = `relations.${i}`;
    if (!isId('relation', r.id)) invalid(`${p}.id`, 'a relation id (rel_<ULID>)');
    if (!isText(r.tenant, 200)) invalid(`${p}.tenant`, 'a non-empty string');
    if (!isId('entity', r.sourceId)) invalid(`${p}.sourceId`, 'an entity id');
    if (!isId('entity', r.targetId)) invalid(`${p}.targetId`, 'an entity id');
    if (typeof r.type !== 'string' || r.type === '' || relationTypeKey(r.type) !== r.type) invalid(`${p}.type`, 'a snake_case relation type');
    if (!isTime(r.recordedAt)) invalid(`${p}.recordedAt`, 'epoch milliseconds');
    for (const k of ['validFrom', 'validTo', 'expiredAt'] as const) if (r[k] !== undefined && !isTime(r[k])) invalid(`${p}.${k}`, 'epoch milliseconds');
    if (r.validFrom !== undefined && r.validTo !== undefined && r.validTo < r.validFrom) invalid(`${p}.validTo`, 'not before validFrom');
    if (!(typeof r.confidence === 'number' && r.confidence >= 0 && r.confidence <= 1)) invalid(`${p}.confidence`, 'a number in [0, 1]');
    assertProvenance(r.provenance, `${p}.provenance`);
  });
}
