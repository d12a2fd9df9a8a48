/**
 * Outcome-aware retrieval: what an episode's outcome and a fact's confidence do to its score, and how both
 * are shown.
 *
 * Episodes — an agent learns most from what went wrong and was corrected, so a failed or corrected episode
 * that is relevant to the query is MORE useful, not less. Each episode doc gets a lesson value L:
 *     corrected 1.0 · FAILURE with a root cause 0.85 · FAILURE 0.7 · SUCCESS with a root cause 0.6 ·
 *     SUCCESS / PARTIAL 0.5 · UNKNOWN 0
 * and its score gains OUTCOME_WEIGHT · relevance · L (added to the Generative-Agents sum before the route's
 * kind boost). Multiplying by relevance keeps an irrelevant failure where it was: the bonus only reorders
 * memories that are about the query.
 * Facts — learned facts (heuristics, insights) carry evidence-driven confidence; their relevance is scaled by
 * 0.5 + 0.5·confidence, so a revised heuristic at 0.4 competes at 70 % of its relevance. Other facts keep the
 * plain confidence term of the score (their confidence is the writer's, not evidence).
 */
import type { Episode, Fact, Link, Outcome } from '../core/types.js';
import type { EpisodeView, FactView, ReadDoc } from './types.js';
import { alreadySaid, sayOnce, splitSentences } from '../core/say-once.js';

export const OUTCOME_WEIGHT = 0.25;

/** The lesson value L of an episode doc (0 for anything else). */
export function lessonValue(doc: Pick<ReadDoc, 'kind' | 'type' | 'metadata'>): number {
  if (doc.kind !== 'episode') return 0;
  const outcome = doc.type as Outcome | undefined;
  const corrected = doc.metadata.corrected === true;
  const cause = doc.metadata.hasRootCause === true;
  if (corrected) return 1;
  switch (outcome) {
    case 'FAILURE':
      return cause ? 0.85 : 0.7;
    case 'SUCCESS':
      return cause ? 0.6 : 0.5;
    case 'PARTIAL':
      return 0.5;
    default:
      return 0;
  }
}

const LEARNED_KINDS: ReadonlySet<string> = new Set(['heuristic', 'insight']);

/** Relevance as the score sees it: learned facts scaled by their evidence-driven confidence. */
export function effectiveRelevance(doc: Pick<ReadDoc, 'kind' | 'type' | 'confidence'>, relevance: number | null): number | null {
  if (relevance === null || doc.kind !== 'fact' || !LEARNED_KINDS.has(doc.type ?? '')) return relevance;
  return relevance * (0.5 + 0.5 * Math.min(1, Math.max(0, doc.confidence)));
}

/** The outcome bonus added to an item's score (null for non-episodes). */
export function outcomeBonus(doc: Pick<ReadDoc, 'kind' | 'type' | 'metadata'>, relevance: number | null): number | null {
  if (doc.kind !== 'episode') return null;
  return OUTCOME_WEIGHT * (relevance ?? 0) * lessonValue(doc);
}

export function episodeView(e: Episode, links: readonly Link[], recurringCases?: number): EpisodeView {
  return {
    outcome: e.outcome,
    outcomeDetails: e.outcomeDetails ?? null,
    summary: e.summary,
    rootCause: e.rootCause ?? null,
    decisions: [...e.decisions],
    assumptions: [...e.assumptions],
    corrections: [...e.corrections],
    stateLabel: e.stateLabel ?? null,
    links: links
      .filter((l) => l.fromId === e.id || l.toId === e.id)
      .map((l) => (l.fromId === e.id ? { type: l.type, direction: 'out' as const, otherId: l.toId, weight: l.weight } : { type: l.type, direction: 'in' as const, otherId: l.fromId, weight: l.weight })),
    ...(recurringCases !== undefined && recurringCases > 1 ? { recurringCases } : {}),
  };
}

export function factView(f: Fact): FactView {
  return { key: f.key, version: f.version, confidence: f.confidence, supportCount: f.supportCount, contradictCount: f.contradictCount, kind: f.kind };
}

/**
 * "[OUTCOME: FAILURE] <summary> Root cause: … Initial assumption: … Correction: … Recurring cause: 3 similar
 * cases." — the label first, so every retrieved episode states how it went; nothing is said twice (the outcome, a
 * repeated action, a correction the summary already quotes); the count last, when the case stands for a cause
 * seen in several cases like the query (recurrence.ts).
 */
export function episodeBody(e: Episode, recurringCases?: number): string {
  // A bare "Outcome: FAILURE." goes (the label says it); a sentence another one holds goes (say-once.ts).
  const said = sayOnce(splitSentences(e.summary), { outcome: e.outcome, dropBareOutcome: true });
  const has = (s: string) => alreadySaid(said, s);
  const parts = [`[OUTCOME: ${e.outcome}]`, ...said];
  if (e.rootCause && !has(e.rootCause)) parts.push(`Root cause: ${e.rootCause}.`);
  if (e.corrections.length > 0 && e.assumptions.length > 0 && !e.assumptions.every(has)) parts.push(`Initial assumption: ${e.assumptions.join('; ')}.`);
  const missing = e.corrections.filter((c) => !has(c));
  if (missing.length > 0) parts.push(`Correction: ${missing.join('; ')}.`);
  if (recurringCases !== undefined && recurringCases > 1) parts.push(`Recurring cause: ${recurringCases} similar cases.`);
  return parts.filter(Boolean).join(' ').replace(/\.\./g, '.');
}

/**
 * "<text> (confidence 0.83; supported by 3 episodes, contradicted by 1; v2)" for learned facts, and for any
 * other fact once an outcome has contradicted it (a reader must see the doubt); other facts render as written.
 */
export function factBody(f: Fact, text: string): string {
  if (!LEARNED_KINDS.has(f.kind) && f.contradictCount === 0) return text;
  const support = `supported by ${f.supportCount} episode${f.supportCount === 1 ? '' : 's'}, contradicted by ${f.contradictCount}`;
  return `${text} (confidence ${f.confidence.toFixed(2)}; ${support}; v${f.version})`;
}
