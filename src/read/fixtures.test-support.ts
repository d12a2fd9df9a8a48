/** Hand-made documents and candidates for the read path's unit tests. */
import { contentHash } from '../core/text.js';
import type { Doc, Fact, MemoryEvent } from '../core/types.js';
import { emptyBreakdown } from './score.js';
import type { Candidate, CandidateOrigin, ScoreBreakdown } from './types.js';

export const T0 = Date.parse('2025-09-20T18:00:00Z');
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

let nextDocId = 1;

export function makeDoc(over: Partial<Doc> & { text: string }): Doc {
  const docId = over.docId ?? nextDocId++;
  return {
    tenant: 't1',
    docId,
    kind: 'fact',
    refId: over.refId ?? `fct_${docId}`,
    ts: T0,
    importance: 0.5,
    tags: [],
    pii: false,
    metadata: {},
    confidence: 1,
    ...over,
    contentHash: over.contentHash ?? contentHash(over.text),
  };
}

export function makeEvent(over: Partial<MemoryEvent> & { content: string }): MemoryEvent {
  const seq = over.seq ?? nextDocId++;
  return {
    tenant: 't1',
    id: over.id ?? `evt_${seq}`,
    seq,
    ts: T0,
    recordedAt: over.ts ?? T0,
    type: 'message',
    actor: 'agent',
    tags: [],
    importance: 0.5,
    metadata: {},
    pii: { scrubbed: false, counts: {} },
    ...over,
    contentHash: over.contentHash ?? contentHash(over.content),
  };
}

export function makeFact(over: Partial<Fact> & { text: string }): Fact {
  const id = over.id ?? `fct_${nextDocId++}`;
  return {
    tenant: 't1',
    id,
    key: over.key ?? id,
    version: 1,
    kind: 'fact',
    tags: [],
    pii: false,
    piiReport: { scrubbed: false, counts: {} },
    metadata: {},
    confidence: 0.8,
    supportCount: 1,
    contradictCount: 0,
    importance: 0.5,
    recordedAt: T0,
    provenance: { origin: 'user' },
    ...over,
    contentHash: over.contentHash ?? contentHash(over.text),
  };
}

export function candidate(
  doc: Doc,
  opts: { origin?: CandidateOrigin; final?: number; scores?: Partial<ScoreBreakdown>; event?: MemoryEvent; fact?: Fact } = {},
): Candidate {
  return {
    doc,
    origin: opts.origin ?? 'semantic',
    event: opts.event,
    fact: opts.fact,
    scores: { ...emptyBreakdown(), ...opts.scores, final: opts.final ?? opts.scores?.final ?? 0.5 },
  };
}

/** A fact doc whose candidate carries the fact record (as buildContext attaches it). */
export function factCandidate(fact: Fact, opts: { final?: number } = {}): Candidate {
  const doc = makeDoc({
    kind: 'fact',
    refId: fact.id,
    text: fact.text,
    ts: fact.validFrom ?? fact.recordedAt,
    tags: fact.tags,
    source: fact.source,
    section: fact.section,
    type: fact.kind,
    confidence: fact.confidence,
    contentHash: fact.contentHash,
  });
  return candidate(doc, { fact, ...opts });
}

/** An event candidate (window or semantic) carrying its event record. */
export function eventCandidate(e: MemoryEvent, opts: { origin?: CandidateOrigin; final?: number } = {}): Candidate {
  const doc = makeDoc({
    kind: 'event',
    refId: e.id,
    text: e.name ? `${e.name}: ${e.content}` : e.content,
    ts: e.ts,
    type: e.type,
    actor: e.actor,
    source: e.source,
    tags: e.tags,
    taskId: e.taskId,
    sessionId: e.sessionId,
    metadata: e.metadata,
    contentHash: e.contentHash,
  });
  return candidate(doc, { event: e, origin: opts.origin ?? 'window', final: opts.final });
}
