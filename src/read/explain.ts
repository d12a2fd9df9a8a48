/**
 * `explain: true` on getContext: which candidates were considered but left out, and why. Each step of
 * buildContext that narrows the candidates reports what went in and what came out; a record that went in and
 * did not come out is dropped with that step's reason (the first step to drop a record names it):
 *
 *   validity   — a fact no version of which is valid at the read's time (its validity ended: e.g. a learned rule
 *                retired, learn/engine/retire.ts)
 *   floor      — below the relevance floor
 *   situation  — an episode whose situation contradicts what the query states, when the best episode matches it
 *                (situation.ts)
 *   refuted    — a learned rule the closed cases contradicted at least as often as they supported it (refuted.ts)
 *   superseded — a closed case a later case of its cause replaced (supersede.ts) or the closest correction
 *                overturned (overturned.ts), or a learned rule drawn only from such cases; `by` says which
 *   standout   — a look-alike case of another cause behind one closed case that clearly stands out: the
 *                strongest look-alike stays as the alternative, the rest leave (standout.ts)
 *   dedupe     — a copy of another candidate (same content hash / source), merged into it
 *   mmr        — not among the top_k diverse semantic picks (too similar to a pick, or ranked below)
 *   conflict   — the stale side of a conflict the resolution settled (see the conflict notes)
 *   budget     — did not fit the token budget
 *
 * Off by default: the list is cheap to build, but it carries a text excerpt per dropped candidate.
 */
import type { RetrievedItem } from '../ports/storage.js';
import { liftsOf, withoutLifts } from './lifts.js';
import type { Candidate, ContextItem, ScoreBreakdown } from './types.js';

/** The steps over closed cases (case-steps.ts) drop by `situation`, `refuted`, `superseded` and `standout`. */
export const CASE_DROP_REASONS = ['situation', 'refuted', 'superseded', 'standout'] as const;
export const DROP_REASONS = ['budget', 'dedupe', 'conflict', 'mmr', 'floor', 'validity', ...CASE_DROP_REASONS] as const;
export type DropReason = (typeof DROP_REASONS)[number];
export type CaseDropReason = (typeof CASE_DROP_REASONS)[number];
/**
 * What left a case out as `superseded`: a later case of its cause replaced it (supersede.ts), or the closest
 * correction overturned its cause (overturned.ts). A learned rule drawn only from such cases leaves with them, by
 * the same.
 */
export const SUPERSEDED_BY = ['replaced', 'overturned'] as const;
export type SupersededBy = (typeof SUPERSEDED_BY)[number];
/** What a step over closed cases reports: the candidates that went in, and the ids of those that came out. */
export type CaseDrops = Pick<DropLog, 'step'>;

export interface DroppedItem {
  id: string;
  kind: Candidate['doc']['kind'];
  /** The start of the candidate's text (at most EXCERPT_CHARS characters). */
  text: string;
  reason: DropReason;
  /** `superseded` only: replaced or overturned (SupersededBy). */
  by?: SupersededBy | undefined;
  scores: ScoreBreakdown;
}

export const EXCERPT_CHARS = 200;

/** Collects dropped candidates across the steps; `list()` gives them best score first. */
export class DropLog {
  /** Ids of candidates, for `step`'s kept side. */
  static ids(cs: readonly Candidate[]): string[] {
    return cs.map((c) => c.doc.refId);
  }

  private readonly dropped = new Map<string, DroppedItem>();
  /** The semantic pool MMR picked from; what of it was not chosen is dropped by `mmr` (see `settle`). */
  private pool: readonly Candidate[] = [];

  constructor(private readonly scrub?: ((text: string) => string) | undefined) {}

  /** Records every candidate of `before` whose record id is not among `keptIds` (`by`: what superseded them). */
  step(reason: DropReason, before: readonly Candidate[], keptIds: Iterable<string>, by?: SupersededBy): void {
    const kept = new Set(keptIds);
    for (const c of before) {
      const id = c.doc.refId;
      if (kept.has(id) || this.dropped.has(id)) continue;
      const text = c.doc.text.length > EXCERPT_CHARS ? `${c.doc.text.slice(0, EXCERPT_CHARS - 1)}…` : c.doc.text;
      this.dropped.set(id, { id, kind: c.doc.kind, text: this.scrub ? this.scrub(text) : text, reason, ...(by ? { by } : {}), scores: c.scores });
    }
  }

  /** Selection: dedupe turned `candidates` into `unique`; MMR (and the counter-example) pick from `pool`. */
  selecting(candidates: readonly Candidate[], unique: readonly Candidate[], pool: readonly Candidate[]): void {
    this.step('dedupe', candidates, DropLog.ids(unique));
    this.pool = pool;
  }

  /** After selection (`chosen`), conflict resolution (`resolved`) and the budget (`shown`, what was handed out). */
  settle(chosen: readonly Candidate[], resolved: readonly Candidate[], shown: readonly { id: string }[]): void {
    this.step('mmr', this.pool, DropLog.ids(chosen));
    this.step('conflict', chosen, DropLog.ids(resolved));
    this.step('budget', resolved, shown.map((i) => i.id));
    // A candidate an early step left out may come back by another road (a graph or causal hop, a session
    // neighbour): what was handed out is not dropped.
    for (const i of shown) this.dropped.delete(i.id);
  }

  list(): DroppedItem[] {
    return [...this.dropped.values()].sort((a, b) => b.scores.final - a.scores.final);
  }
}

/** What the retrieval record keeps of each item handed out: enough to say later why it was recalled. */
export function retrievedItems(items: readonly ContextItem[]): RetrievedItem[] {
  return items.map((i) => {
    const { weak, ...scores } = withoutLifts(i.scores);
    // A weak match (floor.ts) is kept as 1, the record's scores being numbers; the lifts only where they applied.
    return { id: i.id, kind: i.kind, section: i.section, scores: { ...scores, outcome: scores.outcome ?? null, ...liftsOf(i.scores), ...(weak ? { weak: 1 } : {}) } };
  });
}
