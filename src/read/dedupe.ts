/**
 * Dedupe (seed 000: "dedupe by source and hash").
 *
 * Two candidates for the same record (an event in the recent window that semantic search also found) always
 * collapse into one: the window copy stays (its section), with the breakdown of the copy that scored higher (the
 * semantic one's, as a rule: it adds relevance), so the breakdown shows why it was also relevant and accounts for
 * its final score. Beyond that the policy decides what counts as a copy:
 *   'source+hash' — same source and same content hash (the same text imported twice from one file);
 *   'hash'        — same content hash whatever the source;
 *   'none'        — distinct records are never merged.
 * Among copies the window one wins, then the higher `final`, then the earlier input position.
 */
import type { ContextConfig } from '../core/config.js';
import { liftsOf } from './lifts.js';
import type { Candidate, ScoreBreakdown } from './types.js';

export type DedupePolicy = ContextConfig['merge_policy']['dedupe'];

export function dedupeKey(c: Candidate, policy: DedupePolicy): string | undefined {
  switch (policy) {
    case 'source+hash':
      return `${c.doc.source ?? ''}\u0000${c.doc.contentHash}`;
    case 'hash':
      return c.doc.contentHash;
    case 'none':
      return undefined;
  }
}

/** Window before semantic, then higher final. */
function better(a: Candidate, b: Candidate): boolean {
  if (a.origin !== b.origin) return a.origin === 'window';
  return a.scores.final > b.scores.final;
}

/**
 * The breakdown of the copy with the higher final score, so that its signals account for it: the terms of the
 * weighted sum (relevance, recency, importance, confidence, outcome) and the lifts after it come from that copy
 * alone; the evidence behind relevance (vector, lexical, rerank) it lacks is filled from the other copy, so the
 * breakdown shows why the record was also found there. On a tie, `keep`'s. Weak (floor.ts) when either copy is:
 * a record the query matched only weakly is not shown as a confident match because it was also recent.
 */
function mergeScores(keep: ScoreBreakdown, other: ScoreBreakdown): ScoreBreakdown {
  const [top, low] = other.final > keep.final ? [other, keep] : [keep, other];
  return {
    vector: top.vector ?? low.vector,
    lexical: top.lexical ?? low.lexical,
    relevance: top.relevance,
    recency: top.recency,
    importance: top.importance,
    confidence: top.confidence,
    rerank: top.rerank ?? low.rerank,
    outcome: top.outcome ?? null,
    ...liftsOf(top),
    final: top.final,
    // A weak match (floor.ts) is the query's verdict on the semantic find: the merged item shows that find's evidence
    // whichever copy's score it keeps, so it stays marked when either copy was.
    ...(top.weak === true || low.weak === true ? { weak: true } : {}),
  };
}

function collapse(a: Candidate, b: Candidate): Candidate {
  const [keep, other] = better(b, a) ? [b, a] : [a, b];
  return {
    ...keep,
    event: keep.event ?? other.event,
    fact: keep.fact ?? other.fact,
    episode: keep.episode ?? other.episode,
    scores: keep.doc.refId === other.doc.refId ? mergeScores(keep.scores, other.scores) : keep.scores,
  };
}

export interface DedupeResult {
  items: Candidate[];
  /** How many candidates were merged into another. */
  removed: number;
}

/** Keeps the first position at which a record (or copy) appeared, so callers' ordering survives. */
export function dedupe(candidates: readonly Candidate[], policy: DedupePolicy): DedupeResult {
  const out: Candidate[] = [];
  const byRef = new Map<string, number>();
  const byKey = new Map<string, number>();
  let removed = 0;
  for (const c of candidates) {
    const key = dedupeKey(c, policy);
    const at = byRef.get(c.doc.refId) ?? (key === undefined ? undefined : byKey.get(key));
    if (at === undefined) {
      byRef.set(c.doc.refId, out.length);
      if (key !== undefined) byKey.set(key, out.length);
      out.push(c);
      continue;
    }
    removed++;
    const merged = collapse(out[at]!, c);
    out[at] = merged;
    byRef.set(c.doc.refId, at);
    byRef.set(merged.doc.refId, at);
  }
  return { items: out, removed };
}
