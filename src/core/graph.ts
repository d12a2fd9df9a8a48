/**
 * The knowledge graph: entities (people, places, organisations, things) and the typed, directed relations
 * between them. Relations are bi-temporal like facts: `validFrom`/`validTo` say when the relation holds in the
 * world, `recordedAt`/`expiredAt` when Engram believed it. A contradicting relation closes the old edge (sets
 * `expiredAt`, and `validTo` when unset); the closed edge stays for history and `asOf` reads.
 */
import type { Scope } from './types.js';

export interface GraphProvenance {
  /** 'user': stated through the API or an MCP tool; 'extraction': the learner's rules; 'llm': the learner's model. */
  origin: 'user' | 'extraction' | 'llm' | 'import';
  /** Timeline events the record was read from. */
  eventIds: string[];
  /** Facts that state it. */
  factIds: string[];
}

export interface Entity extends Scope {
  id: string;
  name: string;
  /** 'person', 'place', 'organization', 'date', 'thing' … or any type a caller names (free text). */
  entityType: string;
  /** Other names that resolve to this entity ("Bob" for "Robert Smith"). */
  aliases: string[];
  /** Free-text statements about the entity, oldest first (the reference MCP memory server's observations). */
  observations: string[];
  summary?: string | undefined;
  provenance: GraphProvenance;
  createdAt: number;
  updatedAt: number;
}

export interface Relation extends Scope {
  id: string;
  /** Entity ids: the edge reads "source <type> target" (Carol manages Alice). */
  sourceId: string;
  targetId: string;
  /** snake_case verb phrase: 'manages', 'works_at', 'lives_in' … */
  type: string;
  /** The statement that supports it, as written ("Carol manages Alice."). */
  text?: string | undefined;
  validFrom?: number | undefined;
  validTo?: number | undefined;
  recordedAt: number;
  expiredAt?: number | undefined;
  confidence: number;
  /** The edge this one closed (a contradiction), if any. */
  supersedes?: string | undefined;
  provenance: GraphProvenance;
}

/**
 * How a relation is written: `exclusive` (true or 'source') closes the live edges of the same source and type to
 * other targets (one home, one employer); 'target' those of the same type into the same target from other sources
 * (one manager).
 */
export interface RelationWrite {
  relation: Relation;
  exclusive?: boolean | 'source' | 'target' | undefined;
}

/**
 * The key an entity's name or alias resolves by: case and spacing folded, a trailing possessive and a
 * leading article dropped ("Alice's" → "alice", "The Acme Corp" → "acme corp").
 */
export function nameKey(name: string): string {
  return name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[’‘`]/g, "'")
    .replace(/'s\b|s'$/g, (m) => (m === "s'" ? 's' : ''))
    .replace(/^(the|a|an)\s+/, '')
    .replace(/[^\p{L}\p{N}&+.\-' ]+/gu, ' ')
    .replace(/[.\s]+$/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A relation type in snake_case ("Works At" → "works_at"); empty when nothing is left. */
export function relationTypeKey(type: string): string {
  return type
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '_')
    .replace(/^_+|_+$/g, '');
}

/** The relation read as a sentence: "Carol manages Alice". */
export function relationSentence(r: Pick<Relation, 'type'>, source: string, target: string): string {
  return `${source} ${r.type.replace(/_/g, ' ')} ${target}`;
}

/** Whether `r` was what Engram believed at `at` (transaction time). */
export function believedAt(r: Pick<Relation, 'recordedAt' | 'expiredAt'>, at: number): boolean {
  return r.recordedAt <= at && (r.expiredAt === undefined || r.expiredAt > at);
}

/** Whether `r` held in the world at `at` (valid time; open ends are unbounded). */
export function validAt(r: Pick<Relation, 'validFrom' | 'validTo'>, at: number): boolean {
  return (r.validFrom === undefined || r.validFrom <= at) && (r.validTo === undefined || r.validTo > at);
}

/** Types whose edge reads the same both ways. */
export const SYMMETRIC_TYPES: ReadonlySet<string> = new Set(['married_to', 'friend_of', 'sibling_of', 'colleague_of', 'dating', 'relative_of']);
/** Types where a new edge from the same source closes the old one. */
export const EXCLUSIVE_TYPES: ReadonlySet<string> = new Set(['works_at', 'lives_in', 'married_to', 'dating', 'runs_on']);
/** Types where a new edge into the same target closes the old one (a person has one manager at a time). */
export const TARGET_EXCLUSIVE_TYPES: ReadonlySet<string> = new Set(['manages']);

/** How a relation of this type is written (see `RelationWrite.exclusive`). */
export const exclusivity = (type: string): boolean | 'target' => (EXCLUSIVE_TYPES.has(type) ? true : TARGET_EXCLUSIVE_TYPES.has(type) ? 'target' : false);
