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

/**
 * Lexical context: an event's entry in the lexical index also carries the last words of the event before it
 * in the same session — the question a reply answers, the call a tool result returns from. A turn that says
 * "Adoption agencies, mostly" is found by "What did Caroline research?" only through the turn it answers.
 * The context is indexed, never shown or embedded, and follows the timeline: when the event before is
 * redacted or deleted, the entry is derived again from the event now before it.
 *
 * Measured (LoCoMo evidence recall@10, categories 1–4, `npm run bench:locomo --`): BM25 alone 0.549 → 0.646,
 * hybrid `search` 0.704 → 0.718, `getContext` 0.703 → 0.716; paraphrase-dev unchanged (its notes have no
 * session). Offline, two events of context gave BM25 +0.012 more, and the whole previous event no more
 * than its last 30 words; the next event's words added nothing (the read path's neighbours cover replies).
 */
export const LEXICAL_CONTEXT_WORDS = 50;

/** The last LEXICAL_CONTEXT_WORDS whitespace-separated words of the previous event's content. */
export function lexicalContext(previousContent: string | null | undefined): string {
  if (!previousContent) return '';
  const words = previousContent.split(/\s+/).filter((w) => w !== '');
  return words.slice(-LEXICAL_CONTEXT_WORDS).join(' ');
}

/** What the lexical index holds for a doc: its text, then its context (if any) on a line of its own. */
export function lexicalText(text: string, context: string | undefined): string {
  return context ? `${text}\n${context}` : text;
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
