/**
 * Facts stated through `remember` (subject / predicate / value) become relations when their predicate names one:
 * a fixed table maps the normalised predicate to a relation type and a direction ("Dana / works_at / Initech" →
 * Dana works_at Initech; "Dana / manager / Carol" → Carol manages Dana). The relation cites the fact (and the
 * fact's events), so forgetting the fact removes it; a new version of a single-valued fact closes the edge of the
 * version it replaced. Deterministic: no model, no guess from the words.
 */
import { relationTypeKey, type Entity, type Relation } from '../../core/graph.js';
import { newId } from '../../core/ids.js';
import { normalizePredicate } from '../../core/predicates.js';
import type { Fact } from '../../core/types.js';
import type { GraphStore, PutRelationResult } from '../../ports/storage.js';
import { exclusivity } from './rules.js';

interface Mapping {
  type: string;
  /** true: the value is the source ("manager: Carol" → Carol manages the subject). */
  reversed?: boolean;
  /** The value's entity type (the subject's is 'person' unless said). */
  valueType?: string;
  subjectType?: string;
}

const person = (type: string, reversed = false): Mapping => ({ type, reversed, valueType: 'person' });

/** Predicate (normalised: lower case, spaces and dashes as underscores) → relation. */
export const FACT_RELATIONS: Readonly<Record<string, Mapping>> = {
  works_at: { type: 'works_at', valueType: 'organization' },
  works_for: { type: 'works_at', valueType: 'organization' },
  employer: { type: 'works_at', valueType: 'organization' },
  company: { type: 'works_at', valueType: 'organization' },
  manages: person('manages'),
  manager: person('manages', true),
  boss: person('manages', true),
  reports_to: person('manages', true),
  managed_by: person('manages', true),
  lives_in: { type: 'lives_in', valueType: 'place' },
  moved_to: { type: 'lives_in', valueType: 'place' },
  city: { type: 'lives_in', valueType: 'place' },
  home_city: { type: 'lives_in', valueType: 'place' },
  from: { type: 'from', valueType: 'place' },
  hometown: { type: 'from', valueType: 'place' },
  born_in: { type: 'from', valueType: 'place' },
  married_to: person('married_to'),
  wife: person('married_to'),
  husband: person('married_to'),
  spouse: person('married_to'),
  dating: person('dating'),
  friend: person('friend_of'),
  friend_of: person('friend_of'),
  sibling: person('sibling_of'),
  sister: person('sibling_of'),
  brother: person('sibling_of'),
  child: person('parent_of'),
  son: person('parent_of'),
  daughter: person('parent_of'),
  parent: person('parent_of', true),
  mother: person('parent_of', true),
  father: person('parent_of', true),
  likes: { type: 'likes' },
  loves: { type: 'likes' },
  prefers: { type: 'prefers' },
  dislikes: { type: 'dislikes' },
  hates: { type: 'dislikes' },
  owns: { type: 'owns' },
  uses: { type: 'uses' },
  depends_on: { type: 'depends_on', subjectType: 'thing' },
  caused: { type: 'caused', subjectType: 'thing' },
  caused_by: { type: 'caused', reversed: true, subjectType: 'thing' },
  studies: { type: 'studies' },
  studied_at: { type: 'studies', valueType: 'organization' },
  plays: { type: 'plays' },
  visited: { type: 'visited', valueType: 'place' },
  member_of: { type: 'member_of', valueType: 'organization' },
};

/** The relation a fact states, or undefined (no subject, value or mapped predicate, or a merged value list). */
export function factRelationOf(fact: Pick<Fact, 'subject' | 'predicate' | 'value'>): { source: string; target: string; type: string; sourceType: string; targetType: string; reversed: boolean } | undefined {
  const subject = fact.subject?.trim();
  const value = fact.value?.trim();
  if (!subject || !value || !fact.predicate || value.includes('; ')) return undefined;
  const m = FACT_RELATIONS[normalizePredicate(fact.predicate)] ?? FACT_RELATIONS[relationTypeKey(fact.predicate)];
  if (!m) return undefined;
  const subjectType = m.subjectType ?? 'person';
  const valueType = m.valueType ?? 'thing';
  return m.reversed
    ? { source: value, target: subject, type: m.type, sourceType: valueType, targetType: subjectType, reversed: true }
    : { source: subject, target: value, type: m.type, sourceType: subjectType, targetType: valueType, reversed: false };
}

/**
 * Writes the relation a stored fact states (nothing when its predicate maps to none). `replaced`: the fact is a new
 * version of a lineage, so its predicate holds one value at a time and the old version's edge closes.
 */
export async function relateFact(storage: GraphStore, fact: Fact, opts: { now: number; replaced: boolean }): Promise<PutRelationResult | undefined> {
  const found = factRelationOf(fact);
  if (!found) return undefined;
  const provenance = { origin: 'extraction' as const, eventIds: [...(fact.provenance.eventIds ?? [])], factIds: [fact.id] };
  const scope = { tenant: fact.tenant, userId: fact.userId, agentId: fact.agentId };
  const entity = (name: string, entityType: string): Entity => ({
    id: newId('entity'),
    ...scope,
    name,
    entityType,
    aliases: [],
    observations: [],
    provenance: { ...provenance, eventIds: [...provenance.eventIds], factIds: [...provenance.factIds] },
    createdAt: opts.now,
    updatedAt: opts.now,
  });
  const [source, target] = await storage.putEntities([entity(found.source, found.sourceType), entity(found.target, found.targetType)]);
  if (!source || !target || source.id === target.id) return undefined;
  const relation: Relation = {
    id: newId('relation'),
    ...scope,
    sourceId: source.id,
    targetId: target.id,
    type: found.type,
    text: fact.text.slice(0, 2000),
    validFrom: fact.validFrom ?? fact.recordedAt,
    ...(fact.validTo !== undefined ? { validTo: fact.validTo } : {}),
    recordedAt: opts.now,
    confidence: Math.min(1, Math.max(0, fact.confidence)),
    provenance,
  };
  // The subject holds one such relation at a time when the fact replaced a version (or the type says so); for a
  // reversed mapping the subject is the target ("manager: Carol": one manager).
  const own = exclusivity(found.type);
  const exclusive = opts.replaced ? (found.reversed ? 'target' : true) : own;
  const [result] = await storage.putRelations([{ relation, exclusive }]);
  return result;
}
