/**
 * The named parts of a score breakdown (ScoreBreakdown, types.ts) added after the weighted sum, one entry each:
 *
 *   final = (weighted signals + outcome) · kind boost + graph + superseded + corrected + situation + findings
 *
 * Every list of them derives from this registry: the breakdown's fields, dedupe's merge, the retrieval record
 * (explain.ts), the HTTP schema (its descriptions are `description`), and the inspector's bars (it imports this
 * file, so it imports nothing). Adding a part is one entry here plus the step that sets it. The order is the
 * order they are shown in.
 */
export const LIFTS = {
  /**
   * Events: what `final` rose by when a relation the query asks for precisely (graph.ts) names this memory as its
   * support and it ranks ahead of every other candidate (graph-support.ts).
   */
  graph: {
    description: 'events: what the final score rose by when a relation the query asks for precisely names this memory as its support and it ranks ahead of the rest',
  },
  /**
   * Closed cases: what `final` rose by when a later case replaced this case's earlier ones and it took their best
   * score (supersede.ts).
   */
  superseded: {
    description: "closed cases: what the final score rose by when a later case replaced this case's earlier ones and took their best score",
  },
  /**
   * Closed cases: what `final` rose by when this case's correction overturned an earlier case's cause and it ranks
   * just above that case (corrected.ts).
   */
  corrected: {
    description: "closed cases: what the final score rose by when this case's correction overturned an earlier case's cause and ranks just above it",
  },
  /**
   * Episodes: what `final` fell by (negative) when the query states a change or a symptom pattern this episode's
   * situation contradicts, and it was placed just below the best episode whose situation matches the query
   * (situation.ts `behindMatching`). The situation's scaling of relevance (CHANGE_MISMATCH, PATTERN_MISMATCH) is
   * part of `relevance` (and of the outcome bonus, which scales with it), not of this part.
   */
  situation: {
    description:
      "episodes: what the final score fell by (negative) when the query states a change or symptom pattern this episode's situation contradicts and it was placed just below the best episode that matches",
  },
  /**
   * Closed cases: what `final` moved by (up or down) when the cases were reordered among themselves by how near the
   * query is to what each case's investigation found (findings.ts), then by how the query's clauses meet each case's
   * distinctive clauses (clauses.ts), taking the scores of their new places.
   */
  findings: {
    description:
      "closed cases: what the final score moved by when the cases were reordered among themselves by how near the query is to what each case's investigation found, and by how the query's stated scope or negation meets each case's distinctive clauses",
  },
} as const satisfies Record<string, { description: string }>;

export type Lift = keyof typeof LIFTS;

/** The lifts' names, in the registry's order. */
export const LIFT_NAMES = Object.keys(LIFTS) as readonly Lift[];

/** A breakdown's lifts: each absent or null where its step did not move `final`. */
export type ScoreLifts = { [K in Lift]?: number | null | undefined };

export function isLift(name: string): name is Lift {
  return Object.hasOwn(LIFTS, name);
}

/** The lifts of `s` that applied (not null), in the registry's order. */
export function liftsOf(s: ScoreLifts): Partial<Record<Lift, number>> {
  const out: Partial<Record<Lift, number>> = {};
  for (const k of LIFT_NAMES) {
    const v = s[k];
    if (v != null) out[k] = v;
  }
  return out;
}

/** `s` without its lifts. */
export function withoutLifts<T extends ScoreLifts>(s: T): Omit<T, Lift> {
  return Object.fromEntries(Object.entries(s).filter(([k]) => !isLift(k))) as Omit<T, Lift>;
}

/** What the lifts add to `final` together. */
export function liftTotal(s: ScoreLifts): number {
  return LIFT_NAMES.reduce((t, k) => t + (s[k] ?? 0), 0);
}
