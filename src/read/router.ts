/**
 * Query router: a deterministic classifier that decides what kind of memory a query is after.
 *
 *   recall  — "what happened when …", "last time we …", "did we ever …": the timeline and episodes matter,
 *             and fresher memories are more likely to be the ones meant.
 *   execute — an imperative task ("deploy payments to prod", "fix the flaky test"): procedures, policies and
 *             heuristics (facts) matter more than raw events.
 *   general — anything else: no adjustment.
 *
 * The route never removes candidates; it only nudges scores (kind boosts, recency weight), so a wrong guess
 * costs a little ranking, not recall.
 */
import type { DocKind } from '../core/types.js';
import type { QueryRoute } from './types.js';

export interface RoutePlan {
  route: QueryRoute;
  /** Multiplies `final` of items of these kinds. */
  kindBoost: Partial<Record<DocKind, number>>;
  /** Multiplies the configured recency weight. */
  recencyFactor: number;
  /** Why this route was chosen (the matching cue), for debugging. */
  cue: string | null;
}

/** Past-tense and memory cues: the user asks what happened. */
const RECALL_PATTERNS: readonly RegExp[] = [
  /\bwhat (?:happened|went wrong|did (?:we|i|you|they|he|she))\b/,
  /\b(?:last|previous|prior) (?:time|run|attempt|session|deploy(?:ment)?|incident|week|month|night)\b/,
  /\b(?:when|how) did\b/,
  /\bdid (?:we|i|you|they|he|she) (?:ever|already|previously)?\b/,
  /\b(?:remember|recall|remind me)\b/,
  /\b(?:history|timeline|earlier|before that|so far|previously)\b/,
  /\b(?:yesterday|ago)\b/,
  /\bhave (?:we|i|you) (?:ever|already|tried|seen)\b/,
];

/** Imperative task verbs at the start of the query (optionally after "please" or "can you"). */
const EXECUTE_VERBS = [
  'add', 'apply', 'build', 'change', 'check', 'clean', 'configure', 'create', 'debug', 'delete', 'deploy',
  'disable', 'enable', 'fix', 'generate', 'implement', 'install', 'investigate', 'migrate', 'move', 'open',
  'patch', 'refactor', 'release', 'remove', 'rename', 'reset', 'restart', 'revert', 'roll', 'rollback', 'rotate',
  'run', 'scale', 'schedule', 'send', 'set', 'setup', 'ship', 'start', 'stop', 'test', 'update', 'upgrade', 'write',
] as const;
const EXECUTE_RE = new RegExp(
  `^(?:(?:please|pls|can you|could you|would you|let's|lets|go ahead and|now)\\s+)*(?:${EXECUTE_VERBS.join('|')})\\b`,
);
const HOW_TO_RE = /^(?:how (?:do|should|can) (?:i|we)|how to|steps to|what(?:'s| is) the (?:procedure|process|runbook) for)\b/;

const PLANS: Record<QueryRoute, Omit<RoutePlan, 'cue'>> = {
  recall: { route: 'recall', kindBoost: { event: 1.15, episode: 1.2 }, recencyFactor: 1.5 },
  execute: { route: 'execute', kindBoost: { procedure: 1.25, fact: 1.1 }, recencyFactor: 1 },
  general: { route: 'general', kindBoost: {}, recencyFactor: 1 },
};

/** Classifies a query. Pure and deterministic. */
export function routeQuery(query: string): RoutePlan {
  const q = query.toLowerCase().replace(/\s+/g, ' ').trim();
  for (const re of RECALL_PATTERNS) {
    const m = re.exec(q);
    if (m) return { ...PLANS.recall, cue: m[0] };
  }
  const exec = EXECUTE_RE.exec(q) ?? HOW_TO_RE.exec(q);
  if (exec) return { ...PLANS.execute, cue: exec[0] };
  return { ...PLANS.general, cue: null };
}

/** The boost a route gives to an item of `kind` (1 when none). */
export function kindBoost(plan: RoutePlan, kind: DocKind): number {
  return plan.kindBoost[kind] ?? 1;
}
