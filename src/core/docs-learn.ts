/**
 * The retrieval projection of what the learn path produces (episodes, procedures, feedback examples), next to
 * `docs.ts` for the timeline and facts. Every adapter calls these, so what is searchable about a learned
 * record, and when, is decided once.
 *
 * A doc's `contentHash` is always the hash of its own text: it keys the shared embedding cache, so it must
 * not be a record hash that covers more than the text (an example's hash covers query and response).
 */
import type { NewDoc } from './docs.js';
import { alreadySaid, sayOnce, splitSentences } from './say-once.js';
import { contentHash } from './text.js';
import type { Episode, Example, Procedure } from './types.js';

const joinLines = (parts: readonly (string | undefined)[]): string =>
  parts.map((p) => p?.trim() ?? '').filter((p) => p.length > 0).join('\n');

/**
 * What a closed episode teaches: its summary, why it went as it did, and what had to be corrected, each said
 * once (say-once.ts): the summary usually states the outcome, root cause and corrections already, and a sentence
 * it repeats, or a root cause or correction it holds, is not added again.
 */
export function episodeDocText(e: Pick<Episode, 'summary' | 'rootCause' | 'corrections'>): string {
  const summary = sayOnce(splitSentences(e.summary)).join(' ');
  const said = splitSentences(summary);
  const extra: string[] = [];
  for (const s of [e.rootCause, ...e.corrections]) {
    const t = s?.trim();
    if (t && !alreadySaid([...said, ...extra], t)) extra.push(t);
  }
  return joinLines([summary, ...extra]);
}

/**
 * The embedding-cache key of an episode's root cause: the learner stores the cause's vector under it when the
 * episode closes (or is described again), and the read path's recurring-cause test reads it back instead of
 * embedding the cause on every first read. A namespace of its own: no doc's text hash is ever this key, so a
 * doc vector (made from a doc's whole text, possibly sentence by sentence) is never taken for a cause's.
 */
export function causeVectorKey(rootCause: string): string {
  return contentHash('episode-root-cause', rootCause);
}

/**
 * Only a closed episode is projected: an open one is still growing, and its summary is provisional. A closed
 * episode with nothing to say (no summary, root cause or corrections) is not projected either, since an
 * empty text can neither match a query nor be embedded meaningfully. `undefined` means "no doc".
 */
export function episodeToDoc(e: Episode): NewDoc | undefined {
  if (!e.closed) return undefined;
  const text = episodeDocText(e);
  if (text.length === 0) return undefined;
  return {
    tenant: e.tenant,
    userId: e.userId,
    agentId: e.agentId,
    sessionId: e.sessionId,
    taskId: e.taskId,
    kind: 'episode',
    refId: e.id,
    text,
    ts: e.endTs,
    importance: e.importance,
    type: e.outcome,
    actor: undefined,
    source: undefined,
    section: undefined,
    stateLabel: e.stateLabel,
    tags: [],
    pii: false,
    metadata: e.metadata,
    contentHash: contentHash(text),
    expiresAt: undefined,
    confidence: 1,
  };
}

/** A procedure is found by what it is called, when it applies and what it does. */
export function procedureDocText(p: Pick<Procedure, 'name' | 'trigger' | 'steps'>): string {
  return joinLines([p.name, p.trigger, ...p.steps]);
}

/**
 * Importance is the procedure's Laplace-smoothed success rate, (successes + 1) / (uses + 2), the same rate
 * the learn path ranks procedures by: a procedure that keeps failing should not be pushed into context.
 * `ts` is the last change, so recency follows use.
 */
export function procedureToDoc(p: Procedure): NewDoc {
  const text = procedureDocText(p);
  return {
    tenant: p.tenant,
    userId: p.userId,
    agentId: p.agentId,
    sessionId: p.sessionId,
    taskId: p.taskId,
    kind: 'procedure',
    refId: p.id,
    text,
    ts: p.updatedAt,
    importance: (p.successCount + 1) / (p.successCount + p.failureCount + 2),
    type: undefined,
    actor: undefined,
    source: undefined,
    section: undefined,
    stateLabel: undefined,
    tags: [],
    pii: false,
    metadata: {},
    contentHash: contentHash(text),
    expiresAt: undefined,
    confidence: 1,
  };
}

/** An example is retrieved when a new query resembles its query; the response is what it then shows. */
export function exampleDocText(e: Pick<Example, 'query'>): string {
  return e.query;
}

/** `type` is the polarity, so a filter or kind-aware reader can ask for positive or negative examples only. */
export function exampleToDoc(e: Example): NewDoc {
  const text = exampleDocText(e);
  return {
    tenant: e.tenant,
    userId: e.userId,
    agentId: e.agentId,
    sessionId: e.sessionId,
    taskId: e.taskId,
    kind: 'example',
    refId: e.id,
    text,
    ts: e.createdAt,
    importance: 0.5,
    type: e.polarity,
    actor: undefined,
    source: undefined,
    section: undefined,
    stateLabel: undefined,
    tags: [],
    pii: false,
    metadata: {},
    contentHash: contentHash(text),
    expiresAt: undefined,
    confidence: 1,
  };
}
