/**
 * The mapping from records to their retrieval projection. Every adapter calls these, so what is searchable
 * about a record is decided once.
 */
import type { Doc, Fact, MemoryEvent } from './types.js';

export type NewDoc = Omit<Doc, 'docId'>;

/** Text indexed for an event: the speaker's name is part of what a turn means ("Caroline: I went …"). */
export function eventDocText(e: Pick<MemoryEvent, 'name' | 'content'>): string {
  return e.name ? `${e.name}: ${e.content}` : e.content;
}

export function eventToDoc(e: Omit<MemoryEvent, 'seq'>): NewDoc {
  return {
    tenant: e.tenant,
    userId: e.userId,
    agentId: e.agentId,
    sessionId: e.sessionId,
    taskId: e.taskId,
    kind: 'event',
    refId: e.id,
    text: eventDocText(e),
    ts: e.ts,
    importance: e.importance,
    type: e.type,
    actor: e.actor,
    source: e.source,
    section: undefined,
    stateLabel: e.stateLabel,
    tags: e.tags,
    pii: e.pii.scrubbed,
    metadata: e.metadata,
    contentHash: e.contentHash,
    expiresAt: e.expiresAt,
    confidence: 1,
  };
}

/** Text indexed for a fact: the statement itself, with its subject when it is structured. */
export function factDocText(f: Pick<Fact, 'text' | 'subject' | 'predicate' | 'value'>): string {
  return f.text;
}

export function factToDoc(f: Fact): NewDoc {
  return {
    tenant: f.tenant,
    userId: f.userId,
    agentId: f.agentId,
    sessionId: f.sessionId,
    taskId: f.taskId,
    kind: 'fact',
    refId: f.id,
    text: factDocText(f),
    ts: f.validFrom ?? f.recordedAt,
    importance: f.importance,
    type: f.kind,
    actor: undefined,
    source: f.source,
    section: f.section,
    stateLabel: undefined,
    tags: f.tags,
    pii: f.pii,
    metadata: f.metadata,
    contentHash: f.contentHash,
    expiresAt: f.expiresAt,
    confidence: f.confidence,
  };
}
