/**
 * The learner's graph step: a page of new timeline events becomes entities and relations in storage, behind
 * the write acknowledgement (the learner runs in the background). Entities are kept per user and agent (not
 * per session), so the same person named in two sessions is one entity. Every record cites the events it was
 * read from, so forgetting an event takes what was read from it.
 */
import { nameKey, type Entity, type Relation, type RelationWrite } from '../../core/graph.js';
import { newId } from '../../core/ids.js';
import type { MemoryEvent } from '../../core/types.js';
import type { Clock } from '../../ports/clock.js';
import type { GraphStore } from '../../ports/storage.js';
import type { TurnExtractor } from './extract-llm.js';
import type { TurnInput } from './rules.js';

/** Events whose text states something (tool payloads and outcomes are not prose about people). */
const PROSE_TYPES = new Set(['message', 'note', 'observation', 'decision', 'correction', 'feedback']);
/** How sure a rule-read relation is; an LLM-read one; a stated one is 1. */
export const RULE_CONFIDENCE = 0.6;
export const LLM_CONFIDENCE = 0.8;

export interface GraphLearnReport {
  entities: number;
  relations: number;
  closed: number;
}

/**
 * A person named in full is also called by the first name ("Sam Ortiz" … later "Sam"): the first name is an alias,
 * so both resolve to one entity. Not a title ("Dr. Lim", "Mr Ortega") nor an initial.
 */
export function firstNameAlias(name: string, entityType: string): string[] {
  if (entityType !== 'person') return [];
  const words = name.trim().split(/\s+/);
  const first = words[0] ?? '';
  if (words.length < 2 || first.length < 2 || /\.$/.test(first) || /^(?:mr|mrs|ms|dr|prof|sir|st|saint|uncle|aunt)$/i.test(first)) return [];
  return [first];
}

/**
 * A team or organisation named in full and later by its last, plural word ("the Harbor Hawks" … "the Hawks"): that word
 * is an alias (the tagger often calls a team a place). Not for people, and not a short or singular last word ("Apex Steel", "Swedish Medical Center").
 */
export function groupAlias(name: string, entityType: string): string[] {
  if (entityType === 'person') return [];
  const words = name.trim().split(/\s+/);
  const last = words[words.length - 1] ?? '';
  if (words.length < 2 || words.length > 4 || last.length < 4 || !/^\p{Lu}\p{Ll}+[^s]s$/u.test(last) || /(?:ss|us|is)$/.test(last)) return [];
  return [last];
}

const scopeKey = (e: MemoryEvent) => `${e.userId ?? ''}\u0001${e.agentId ?? ''}`;
const streamKey = (e: MemoryEvent) => `${e.sessionId ?? ''}\u0001${e.userId ?? ''}`;

export class GraphLearner {
  constructor(
    private readonly storage: GraphStore,
    private readonly clock: Clock,
    private readonly extract: TurnExtractor,
    private readonly method: 'extraction' | 'llm',
  ) {}

  async learn(tenant: string, events: readonly MemoryEvent[]): Promise<GraphLearnReport> {
    const prose = events.filter((e) => PROSE_TYPES.has(e.type) && e.content.trim() !== '');
    if (prose.length === 0) return { entities: 0, relations: 0, closed: 0 };
    const turns: TurnInput[] = prose.map((e) => ({ text: e.content, speaker: e.name ?? (e.actor === 'user' ? 'User' : undefined), stream: `${tenant}\u0003${streamKey(e)}` }));
    const found = await this.extract(turns);
    const now = this.clock.now();
    const origin = this.method;
    // One entity per (scope, name) in this page, citing every event that names it.
    const entities = new Map<string, Entity>();
    const entityKey = (e: MemoryEvent, name: string) => `${scopeKey(e)}\u0002${nameKey(name)}`;
    const pending: { event: MemoryEvent; source: string; target: string; type: string; text: string; exclusive: boolean | 'target' }[] = [];
    prose.forEach((event, i) => {
      const x = found[i]!;
      for (const ent of x.entities) {
        const k = entityKey(event, ent.name);
        const known = entities.get(k);
        if (known) {
          if (!known.provenance.eventIds.includes(event.id)) known.provenance.eventIds.push(event.id);
          if (known.entityType === 'thing' && ent.entityType !== 'thing') known.entityType = ent.entityType;
          continue;
        }
        entities.set(k, {
          id: newId('entity'),
          tenant,
          userId: event.userId,
          agentId: event.agentId,
          name: ent.name,
          entityType: ent.entityType,
          aliases: [...firstNameAlias(ent.name, ent.entityType), ...groupAlias(ent.name, ent.entityType)],
          observations: [],
          provenance: { origin, eventIds: [event.id], factIds: [] },
          createdAt: now,
          updatedAt: now,
        });
      }
      for (const r of x.relations) pending.push({ event, ...r });
    });
    const list = [...entities.values()];
    const stored = await this.storage.putEntities(list);
    const ids = new Map([...entities.keys()].map((k, i) => [k, stored[i]!.id]));
    const writes: RelationWrite[] = [];
    for (const r of pending) {
      const sourceId = ids.get(entityKey(r.event, r.source));
      const targetId = ids.get(entityKey(r.event, r.target));
      if (!sourceId || !targetId) continue;
      const relation: Relation = {
        id: newId('relation'),
        tenant,
        userId: r.event.userId,
        agentId: r.event.agentId,
        sourceId,
        targetId,
        type: r.type,
        text: r.text.slice(0, 2000),
        validFrom: r.event.ts,
        recordedAt: now,
        confidence: origin === 'llm' ? LLM_CONFIDENCE : RULE_CONFIDENCE,
        provenance: { origin, eventIds: [r.event.id], factIds: [] },
      };
      writes.push({ relation, exclusive: r.exclusive });
    }
    const results = writes.length ? await this.storage.putRelations(writes) : [];
    return { entities: list.length, relations: results.filter((r) => !r.duplicate).length, closed: results.reduce((n, r) => n + r.closed.length, 0) };
  }
}
